/// What a key path names once resolved against a store's layout.
enum SQLiteResolvedPath {
    /// An attribute: `column` is its qualified column (`t0.ZTITLE`).
    case attribute(column: String, type: NSAttributeType)
    /// An object: the evaluated object itself (`t0.Z_PK`) or the destination of a to-one relationship
    /// (`t0.ZAUTHOR`, NULL when there is none). `entity` is the declared entity of the object.
    case object(keyColumn: String, entity: NSEntityDescription)
    /// A path that crosses a to-many relationship.
    case toMany(SQLiteToManyPath)
}

/// A key path that crosses a to-many relationship: the relationship of the rows of `ownerAlias` (in
/// `scope`) and the components that follow it.
struct SQLiteToManyPath {
    /// The scope in which the owner rows are visible.
    let scope: SQLiteQueryScope
    /// The alias of the owner rows.
    let ownerAlias: String
    /// The to-many relationship.
    let relationship: NSRelationshipDescription
    /// Where the store keeps it.
    let storage: SQLiteRelationshipStorage
    /// The key path components after the relationship (`["title"]`, `["@count"]`, `[]`).
    let rest: [String]
    /// The key path as written, for error messages.
    let description: String
}

extension SQLiteFetchCompiler {
    /// The layout of an entity of the store, or an error naming it.
    func layout(of entity: NSEntityDescription) throws -> SQLiteEntityLayout {
        guard let name = entity.name, let layout = schema.entity(named: name) else {
            throw Self.unsupported("entity \"\(entity.name ?? "")\" is not stored in this store")
        }
        return layout
    }

    /// Resolves a key path read from the rows of `alias` (of `entity`) in `scope`, adding the joins
    /// that key paths through to-one relationships need.
    func resolve(
        _ keyPath: String, in scope: SQLiteQueryScope, alias: String,
        entity: NSEntityDescription
    ) throws -> SQLiteResolvedPath {
        var components = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        while let first = components.first, first == "self" || first == "SELF" { components.removeFirst() }
        var currentAlias = alias
        var currentEntity = entity
        var index = 0
        guard !components.isEmpty else { return .object(keyColumn: "\(alias).Z_PK", entity: entity) }
        while index < components.count {
            let key = components[index]
            let layout = try self.layout(of: currentEntity)
            if let attribute = currentEntity.attributesByName[key] {
                if attribute.isTransient {
                    throw Self.unsupported(
                        "the transient attribute \"\(key)\" of entity \"\(currentEntity.name ?? "")\" in key path \"\(keyPath)\" is not stored")
                }
                // A composite attribute's element: `location.latitude`.
                var path = key
                var type = attribute.attributeType
                var element: NSAttributeDescription = attribute
                while let composite = element as? NSCompositeAttributeDescription, index + 1 < components.count {
                    index += 1
                    guard let next = composite.elements.first(where: { $0.name == components[index] }) else {
                        throw Self.unsupported(
                            "\"\(components[index])\" in key path \"\(keyPath)\" is not an element of the composite attribute \"\(path)\"")
                    }
                    path += "." + next.name
                    element = next
                    type = next.attributeType
                }
                // A string's `length`, as key-value coding reads it (`name.length`).
                let readsLength =
                    type == .stringAttributeType && index == components.count - 2
                    && components[index + 1] == "length"
                guard index == components.count - 1 || readsLength else {
                    throw Self.unsupported("key path \"\(keyPath)\" continues after the attribute \"\(path)\"")
                }
                if let composite = element as? NSCompositeAttributeDescription, index == components.count - 1 {
                    // A whole composite value is nil when every element column is NULL, as it reads; it is
                    // compared with nil only (no constant has its category).
                    let columns = SQLiteCompositeValues.leaves(of: composite, path: path).compactMap { layout.attributeColumns[$0.0] }
                    guard !columns.isEmpty else {
                        throw Self.unsupported("the composite attribute \"\(path)\" in key path \"\(keyPath)\" has no columns in the store")
                    }
                    let allNull = columns.map { "\(currentAlias).\($0) IS NULL" }.joined(separator: " AND ")
                    return .attribute(column: "(CASE WHEN \(allNull) THEN NULL ELSE 1 END)", type: .compositeAttributeType)
                }
                guard let column = layout.attributeColumns[path], !(element is NSCompositeAttributeDescription) else {
                    throw Self.unsupported("the attribute \"\(path)\" in key path \"\(keyPath)\" has no column in the store")
                }
                if readsLength {
                    return .attribute(
                        column: "\(SQLiteFunctions.length)(\(currentAlias).\(column))",
                        type: .integer64AttributeType)
                }
                return .attribute(column: "\(currentAlias).\(column)", type: type)
            }
            guard let relationship = currentEntity.relationshipsByName[key] else {
                throw Self.unsupported("keypath \"\(keyPath)\" not found in entity \"\(currentEntity.name ?? "")\": \"\(key)\" is not a property")
            }
            guard !relationship.isTransient, let storage = layout.relationships[key],
                let destination = relationship.destinationEntity
            else {
                throw Self.unsupported("the relationship \"\(key)\" in key path \"\(keyPath)\" is not stored")
            }
            if relationship.isToMany {
                return .toMany(
                    SQLiteToManyPath(
                        scope: scope, ownerAlias: currentAlias, relationship: relationship,
                        storage: storage, rest: Array(components[(index + 1)...]),
                        description: keyPath))
            }
            guard case .foreignKey(let column, _, _) = storage else {
                throw Self.unsupported("the to-one relationship \"\(key)\" in key path \"\(keyPath)\" has no foreign key column")
            }
            if index == components.count - 1 {
                return .object(keyColumn: "\(currentAlias).\(column)", entity: destination)
            }
            let destinationLayout = try self.layout(of: destination)
            currentAlias = scope.joinAlias(
                from: currentAlias, foreignKey: column, relationship: key,
                table: destinationLayout.table)
            currentEntity = destination
            index += 1
        }
        return .object(keyColumn: "\(currentAlias).Z_PK", entity: currentEntity)
    }
}
