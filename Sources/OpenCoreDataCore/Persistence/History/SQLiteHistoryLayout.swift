import GRDB

/// How the history tables name an entity's properties: the `ZCOLUMNS` bitmap of an update and the
/// `ZTOMBSTONE<n>` columns of a delete.
///
/// Apple documents neither. The rules here are what a reader of Apple-written stores (a Notes store and
/// Core Data writers on macOS) reports, not yet checked on a file of this project's fixtures, which hold
/// inserts only — a plausible encoding, marked so in `Docs/StoreFormat.md`:
/// - `ZCOLUMNS`: bit *n*, counted from the most significant bit of the first byte, stands for the *n*th of
///   the changed row's own entity's persistent properties (attributes and relationships together,
///   inherited ones included, fetched properties and transient ones left out) sorted by name; as many
///   bytes as the list needs. NULL for inserts and deletes.
/// - `ZTOMBSTONE<n>`: the *n*th of the entity's attributes marked `preservesValueInHistoryOnDeletion`
///   (not stored externally, not composite) sorted by name, holding the value as the attribute's own
///   column holds it.
struct SQLiteHistoryLayout: Sendable {
    /// One entity's lists.
    struct EntityHistory: @unchecked Sendable {
        // @unchecked Sendable: the descriptions belong to a model that is immutable once in use.
        /// The properties `ZCOLUMNS` numbers, in bit order.
        let properties: [NSPropertyDescription]
        /// Each property's bit, by name.
        let bits: [String: Int]
        /// The attributes whose values a delete keeps, in tombstone column order, with their columns in
        /// the entity's table.
        let tombstones: [(attribute: NSAttributeDescription, column: String)]
        /// The table that holds the entity's rows (its root entity's).
        let table: String
    }

    /// The lists by entity number.
    let entities: [Int64: EntityHistory]

    /// The number of tombstone columns the model needs: the most preserved attributes of one entity.
    var tombstoneCount: Int {
        entities.values.map(\.tombstones.count).max() ?? 0
    }

    init(schema: SQLiteSchema, model: NSManagedObjectModel) {
        var entities: [Int64: EntityHistory] = [:]
        let byName = model.entitiesByName
        for layout in schema.entities {
            guard let entity = byName[layout.name] else { continue }
            let properties = entity.propertiesByName.values
                .filter { !$0.isTransient && !($0 is NSFetchedPropertyDescription) }
                .sorted { $0.name < $1.name }
            var bits: [String: Int] = [:]
            for (index, property) in properties.enumerated() { bits[property.name] = index }
            let tombstones = entity.attributesByName.values
                .filter {
                    $0.preservesValueInHistoryOnDeletion && !$0.allowsExternalBinaryDataStorage && !$0.isTransient
                        && !($0 is NSCompositeAttributeDescription)
                }
                .sorted { $0.name < $1.name }
                .compactMap { attribute in layout.attributeColumns[attribute.name].map { (attribute, $0) } }
            entities[Int64(layout.number)] = EntityHistory(
                properties: properties, bits: bits, tombstones: tombstones, table: layout.table)
        }
        self.entities = entities
    }

    /// The `ZCOLUMNS` bitmap naming `names` among the entity's properties; names the entity does not
    /// number are left out. `nil` for an entity of another model.
    func bitmap(entity number: Int64, names: some Sequence<String>) -> Data? {
        guard let history = entities[number] else { return nil }
        var bytes = [UInt8](repeating: 0, count: (history.properties.count + 7) / 8)
        for name in names {
            guard let bit = history.bits[name] else { continue }
            bytes[bit / 8] |= 0x80 >> UInt8(bit % 8)
        }
        return Data(bytes)
    }

    /// The properties a `ZCOLUMNS` bitmap names: `nil` for an entity this model does not have, and for a
    /// bitmap with a bit past the end of the entity's list (a store written with another model: a
    /// partial answer would read as "these and no others"). A shorter bitmap is read as it is.
    func properties(entity number: Int64, bitmap: Data) -> Set<NSPropertyDescription>? {
        guard let history = entities[number] else { return nil }
        var result = Set<NSPropertyDescription>()
        for (index, byte) in bitmap.enumerated() where byte != 0 {
            for offset in 0..<8 where byte & (0x80 >> UInt8(offset)) != 0 {
                let bit = index * 8 + offset
                guard bit < history.properties.count else { return nil }
                result.insert(history.properties[bit])
            }
        }
        return result
    }
}
