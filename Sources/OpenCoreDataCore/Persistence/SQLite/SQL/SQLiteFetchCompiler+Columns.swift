/// The columns a `.rows` fetch selects.
extension SQLiteFetchCompiler {
    /// A selected column of the fetched table.
    struct SelectedColumn: Sendable {
        /// The column's name in the table, or the literal selected in its place.
        let name: String
        /// What it holds.
        let role: SQLiteResultColumn.Role
        /// The entities whose rows have the property (empty: every row).
        let entities: Set<String>

        /// The column as the statement selects it from the table with the given alias.
        func selected(from alias: String) -> String {
            if case .fixedEntityNumber = role { return name }
            return "\(alias).\(name)"
        }
    }

    /// `Z_PK`, `Z_ENT`, `Z_OPT`, then, in table order, the attribute and to-one columns of the fetched
    /// entity (inherited ones included) and, when subentities are fetched, of its subentities.
    ///
    /// When every row the fetch can return is of one entity, its rows' `Z_ENT` is known: `0` is selected
    /// in its place, as Core Data does, and no row's entity number is read.
    ///
    /// Worked out once per entity and `includesSubentities` for this compiler's layout (see
    /// ``SQLiteRowSelections``).
    func rowSelection(
        of entity: NSEntityDescription, layout: SQLiteEntityLayout, includesSubentities: Bool,
        alias: String
    ) throws -> SQLiteRowSelection {
        let key = SQLiteRowSelections.Key(entityNumber: layout.number, includesSubentities: includesSubentities)
        return try rowSelections.selection(for: key) {
            SQLiteRowSelection(
                columns: try resultColumns(of: entity, layout: layout, includesSubentities: includesSubentities),
                alias: alias)
        }
    }

    /// The columns of ``rowSelection(of:layout:includesSubentities:alias:)``, worked out.
    private func resultColumns(
        of entity: NSEntityDescription, layout: SQLiteEntityLayout,
        includesSubentities: Bool
    ) throws -> [SelectedColumn] {
        guard let table = schema.table(named: layout.table) else {
            throw Self.unsupported("the store has no table \(layout.table) for entity \"\(layout.name)\"")
        }
        let fetchedNumbers = Set(includesSubentities ? layout.numbersIncludingSubentities : [layout.number])
        let fetchedNames = Set(schema.entities.filter { fetchedNumbers.contains($0.number) }.map(\.name))
        let entityColumn =
            fetchedNumbers.count == 1
            ? SelectedColumn(name: "0", role: .fixedEntityNumber(Int64(layout.number)), entities: [])
            : SelectedColumn(name: "Z_ENT", role: .entityNumber, entities: [])
        var columns: [SelectedColumn] = [
            SelectedColumn(name: "Z_PK", role: .primaryKey, entities: []),
            entityColumn,
            SelectedColumn(name: "Z_OPT", role: .version, entities: []),
        ]
        for column in table.columns {
            let declaring: String
            let role: SQLiteResultColumn.Role
            switch column.role {
            case .attribute(let owner, let path):
                guard let type = attributeType(ofEntity: owner, path: path) else { continue }
                declaring = owner
                role = .attribute(name: path, type: type)
            case .foreignKey(let owner, let relationship):
                declaring = owner
                role = .toOneKey(relationship: relationship)
            case .foreignEntity(let owner, let relationship):
                declaring = owner
                role = .toOneEntity(relationship: relationship)
            case .primaryKey, .entityNumber, .optimisticLock, .orderKey, .joinKey, .joinOrderKey:
                continue
            }
            guard let owner = schema.entity(named: declaring) else { continue }
            let having = Set(schema.entities.filter { owner.numbersIncludingSubentities.contains($0.number) }.map(\.name))
            let relevant = having.intersection(fetchedNames)
            guard !relevant.isEmpty else { continue }
            columns.append(SelectedColumn(name: column.name, role: role, entities: relevant))
        }
        return columns
    }

    /// The type of an attribute (or composite element, by dotted path) declared by the named entity.
    private func attributeType(ofEntity name: String, path: String) -> NSAttributeType? {
        let components = path.split(separator: ".").map(String.init)
        guard let first = components.first, var attribute = model.entitiesByName[name]?.attributesByName[first] else {
            return nil
        }
        for component in components.dropFirst() {
            guard let composite = attribute as? NSCompositeAttributeDescription,
                let element = composite.elements.first(where: { $0.name == component })
            else { return nil }
            attribute = element
        }
        return attribute.attributeType
    }
}
