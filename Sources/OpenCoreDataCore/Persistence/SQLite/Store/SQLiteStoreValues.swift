import GRDB

/// Attribute values between their canonical form (what `value(forKey:)` returns) and the store's
/// columns: ``SQLiteValueEncoding`` for every type, plus the value transformer of transformable
/// attributes and object IDs for object-ID attributes.
///
/// Transformable attributes go through ``TransformableStorage``: the transformer registered under the
/// attribute's `valueTransformerName`, or by default `Data` as it is and other values as a keyed archive.
enum SQLiteStoreValues {
    /// The column value of an attribute's canonical value.
    /// - Throws: A message naming the attribute when a transformable value cannot be turned into data.
    static func databaseValue(for value: Any?, attribute: NSAttributeDescription) throws -> DatabaseValue {
        guard let value, !EvaluationValues.isNull(value) else { return .null }
        switch attribute.attributeType {
        case .transformableAttributeType:
            return try TransformableStorage.data(for: value, attribute: attribute)?.databaseValue ?? .null
        case .objectIDAttributeType:
            if let id = value as? NSManagedObjectID { return id.uriRepresentation().absoluteString.databaseValue }
            return SQLiteValueEncoding.databaseValue(for: value, attributeType: .objectIDAttributeType)
        default:
            return SQLiteValueEncoding.databaseValue(for: value, attributeType: attribute.attributeType)
        }
    }

    /// The canonical value of an attribute's column value; `nil` for NULL.
    /// - Throws: A message naming the attribute when a transformable column cannot be turned back into a value.
    static func value(
        from databaseValue: DatabaseValue, attribute: NSAttributeDescription,
        coordinator: NSPersistentStoreCoordinator?
    ) throws -> Any? {
        switch attribute.attributeType {
        case .transformableAttributeType:
            guard let data = SQLiteValueEncoding.value(from: databaseValue, attributeType: .binaryDataAttributeType) as? Data else {
                return nil
            }
            return try TransformableStorage.value(from: data, attribute: attribute)
        case .objectIDAttributeType:
            guard let url = SQLiteValueEncoding.value(from: databaseValue, attributeType: .objectIDAttributeType) as? URL else {
                return nil
            }
            return coordinator?.managedObjectID(forURIRepresentation: url) ?? url
        default:
            return SQLiteValueEncoding.value(from: databaseValue, attributeType: attribute.attributeType)
        }
    }
}
