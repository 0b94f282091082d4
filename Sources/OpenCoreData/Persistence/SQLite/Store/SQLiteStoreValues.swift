import GRDB

/// Attribute values between their canonical form (what `value(forKey:)` returns) and the store's
/// columns: ``SQLiteValueEncoding`` for every type, plus the value transformer of transformable
/// attributes and object IDs for object-ID attributes.
///
/// Transformable attributes: Foundation on Linux has no `ValueTransformer`, so `valueTransformerName` is
/// not consulted. `Data` values are stored as they are; other values (`NSCoding` objects, strings,
/// numbers, arrays, dictionaries) are stored as a keyed archive (`NSKeyedArchiver`, as Core Data's
/// default secure-unarchive transformer stores them) and read back by unarchiving it; a stored blob
/// that is not a keyed archive reads back as `Data`.
enum SQLiteStoreValues {
    /// The column value of an attribute's canonical value.
    static func databaseValue(for value: Any?, attribute: NSAttributeDescription) -> DatabaseValue {
        guard let value, !(value is NSNull) else { return .null }
        switch attribute.attributeType {
        case .transformableAttributeType:
            return transformedData(value, attribute: attribute).map { $0.databaseValue } ?? .null
        case .objectIDAttributeType:
            if let id = value as? NSManagedObjectID { return id.uriRepresentation().absoluteString.databaseValue }
            return SQLiteValueEncoding.databaseValue(for: value, attributeType: .objectIDAttributeType)
        default:
            return SQLiteValueEncoding.databaseValue(for: value, attributeType: attribute.attributeType)
        }
    }

    /// The canonical value of an attribute's column value; `nil` for NULL.
    static func value(from databaseValue: DatabaseValue, attribute: NSAttributeDescription,
                      coordinator: NSPersistentStoreCoordinator?) -> Any? {
        switch attribute.attributeType {
        case .transformableAttributeType:
            guard let data = SQLiteValueEncoding.value(from: databaseValue, attributeType: .binaryDataAttributeType) as? Data else {
                return nil
            }
            return untransformedValue(data, attribute: attribute)
        case .objectIDAttributeType:
            guard let url = SQLiteValueEncoding.value(from: databaseValue, attributeType: .objectIDAttributeType) as? URL else {
                return nil
            }
            return coordinator?.managedObjectID(forURIRepresentation: url) ?? url
        default:
            return SQLiteValueEncoding.value(from: databaseValue, attributeType: attribute.attributeType)
        }
    }

    private static func transformedData(_ value: Any, attribute: NSAttributeDescription) -> Data? {
        if let data = value as? Data { return data }
        return try? NSKeyedArchiver.archivedData(withRootObject: value, requiringSecureCoding: false)
    }

    private static func untransformedValue(_ data: Data, attribute: NSAttributeDescription) -> Any? {
        guard data.starts(with: Array("bplist".utf8)),
              let unarchiver = try? NSKeyedUnarchiver(forReadingFrom: data) else { return data }
        unarchiver.requiresSecureCoding = false
        defer { unarchiver.finishDecoding() }
        return unarchiver.decodeObject(forKey: NSKeyedArchiveRootObjectKey) ?? data
    }
}
