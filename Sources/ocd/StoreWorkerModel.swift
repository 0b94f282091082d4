import OpenCoreData

/// The model of the store workers (`ocd selftest store-worker`) in its three versions.
///
/// - `v1`: `Record` (worker, sequence, part, generation, payload) and `Counter` (name, value).
/// - `v2`: `v1` plus an optional `Record.note`; migrating to it runs in place (`ALTER TABLE`).
/// - `v3`: `v1` with `Record` under a new abstract entity `Entry` (whose rows share the table `ZENTRY`);
///   migrating to it copies the tables.
enum StoreWorkerModel {
    enum Version: String, CaseIterable {
        case v1, v2, v3
    }

    /// A new, editable model of the given version.
    static func make(_ version: Version) -> NSManagedObjectModel {
        let record = NSEntityDescription()
        record.name = "Record"
        record.managedObjectClassName = "NSManagedObject"
        let payload = attribute("payload", .stringAttributeType, optional: true)
        var properties = [
            attribute("worker", .integer64AttributeType, optional: false),
            attribute("sequence", .integer64AttributeType, optional: false),
            attribute("part", .integer64AttributeType, optional: false),
            attribute("generation", .integer64AttributeType, optional: false),
            payload,
        ]
        if version == .v2 { properties.append(attribute("note", .stringAttributeType, optional: true)) }
        record.properties = properties

        let counter = NSEntityDescription()
        counter.name = "Counter"
        counter.managedObjectClassName = "NSManagedObject"
        counter.properties = [
            attribute("name", .stringAttributeType, optional: false),
            attribute("value", .integer64AttributeType, optional: false),
        ]

        let model = NSManagedObjectModel()
        model.entities = [record, counter]
        if version == .v3 {
            let entry = NSEntityDescription()
            entry.name = "Entry"
            entry.managedObjectClassName = "NSManagedObject"
            entry.isAbstract = true
            entry.properties = [attribute("label", .stringAttributeType, optional: true)]
            entry.subentities = [record]
            model.entities = [entry, record, counter]
        }
        return model
    }

    private static func attribute(_ name: String, _ type: NSAttributeType, optional: Bool) -> NSAttributeDescription {
        let attribute = NSAttributeDescription()
        attribute.name = name
        attribute.attributeType = type
        attribute.isOptional = optional
        if type == .integer64AttributeType { attribute.defaultValue = 0 }
        return attribute
    }
}
