import Foundation

/// How a store turns a transformable attribute's value into the bytes it keeps, and back.
///
/// With a `valueTransformerName`, the transformer registered under that name does the work: its forward
/// transformation produces the data and its reverse transformation restores the value — except for the
/// unarchiving transformers (``NSSecureUnarchiveFromDataTransformer`` and its subclasses,
/// `NSKeyedUnarchiveFromData`, `NSUnarchiveFromData`), whose forward direction turns data into an object, so
/// they archive with the reverse transformation and restore with the forward one. Without a name, `Data` is
/// kept as it is, other values (strings, numbers, dates, URLs, UUIDs, arrays, sets and dictionaries of those,
/// and other `NSCoding` objects) as a keyed archive, and Swift `Codable` values as JSON in an envelope that
/// names their type (see ``CodableArchiving``). A keyed archive that names a class the program does not have
/// (another program wrote it) reads as its bytes, so that saving the object keeps them.
enum TransformableStorage {
    /// Why a transformable (or composite, see ``SQLiteCompositeValues``) value could not be stored or restored.
    struct Failure: Error {
        let message: String
    }

    /// The bytes to store for `value`, or `nil` when the transformer maps it to `nil`.
    static func data(for value: Any, attribute: NSAttributeDescription) throws -> Data? {
        guard let transformer = try transformer(for: attribute) else {
            if let data = value as? Data { return data }
            if let data = KeyedArchiving.archive(value, secure: false) { return data }
            do {
                if let data = try CodableArchiving.archive(value) { return data }
            } catch let failure as CodableArchiving.Failure {
                throw Failure(message: "The transformable attribute \(describe(attribute)) cannot store its value: \(failure.message).")
            }
            if let failure = archiverFailure(value, secure: false, attribute: attribute) { throw failure }
            throw Failure(
                message: "The transformable attribute \(describe(attribute)) holds a \(type(of: value)), "
                    + "which is neither Data, an NSCoding object that can be archived, nor Codable; name a value transformer "
                    + "in its valueTransformerName.")
        }
        let output =
            transformer is UnarchivingValueTransformer
            ? transformer.reverseTransformedValue(value) : transformer.transformedValue(value)
        guard let output, !(output is NSNull) else {
            if transformer is UnarchivingValueTransformer,
                let failure = archiverFailure(value, secure: transformer is NSSecureUnarchiveFromDataTransformer, attribute: attribute)
            {
                throw failure
            }
            throw Failure(
                message: "The value transformer \(attribute.valueTransformerName ?? "") of the transformable "
                    + "attribute \(describe(attribute)) could not transform a \(type(of: value)) into Data.")
        }
        guard let data = output as? Data else {
            throw Failure(
                message: "The value transformer \(attribute.valueTransformerName ?? "") of the transformable "
                    + "attribute \(describe(attribute)) returned a \(type(of: output)), not Data.")
        }
        return data
    }

    /// The error for a value Foundation's keyed archiver cannot archive on this platform (see
    /// ``KeyedArchiving/refusal(_:secure:)``), naming the class; `nil` for a value it can, or that is no
    /// `NSCoding` object.
    private static func archiverFailure(_ value: Any, secure: Bool, attribute: NSAttributeDescription) -> Failure? {
        switch KeyedArchiving.refusal(value, secure: secure) {
        case .unnameable(let name):
            Failure(
                message: "The transformable attribute \(describe(attribute)) holds a \(name), "
                    + "an NSCoding class that Foundation's keyed archiver cannot name on this platform (it names only classes "
                    + "declared at the top level of their module, not nested in another type, declared in a function or "
                    + "generic); declare the class at the top level, or name a value transformer in its valueTransformerName.")
        case .unhashable(let name):
            Failure(
                message: "The transformable attribute \(describe(attribute)) holds a \(name), "
                    + "which Foundation's keyed archiver cannot archive on this platform (it cannot hash decimal numbers "
                    + "or errors); store such values as strings or through a value transformer named in its valueTransformerName.")
        case .notCoding, nil:
            nil
        }
    }

    /// The value restored from stored bytes.
    static func value(from data: Data, attribute: NSAttributeDescription) throws -> Any? {
        guard let transformer = try transformer(for: attribute) else {
            if CodableArchiving.isArchive(data) {
                do {
                    return try CodableArchiving.unarchive(data, expectedName: attribute._attributeValueClassName)
                } catch let failure as CodableArchiving.Failure {
                    throw Failure(message: "The transformable attribute \(describe(attribute)) cannot read its value: \(failure.message).")
                }
            }
            return KeyedArchiving.unarchive(data) ?? data
        }
        if transformer is UnarchivingValueTransformer { return transformer.transformedValue(data) }
        guard type(of: transformer).allowsReverseTransformation() else {
            throw Failure(
                message: "The value transformer \(attribute.valueTransformerName ?? "") of the transformable "
                    + "attribute \(describe(attribute)) does not allow reverse transformation, so its stored data cannot "
                    + "be read back.")
        }
        return transformer.reverseTransformedValue(data)
    }

    /// The transformer registered under the attribute's `valueTransformerName`; `nil` when it names none.
    private static func transformer(for attribute: NSAttributeDescription) throws -> ValueTransformer? {
        guard let name = attribute.valueTransformerName, !name.isEmpty else { return nil }
        guard let transformer = ValueTransformer(forName: NSValueTransformerName(name)) else {
            throw Failure(
                message: "The transformable attribute \(describe(attribute)) uses the value transformer "
                    + "\(name), which is not registered; register it with ValueTransformer.setValueTransformer(_:forName:) "
                    + "before using the store.")
        }
        return transformer
    }

    private static func describe(_ attribute: NSAttributeDescription) -> String {
        "\(attribute._entity?.name ?? "").\(attribute.name)"
    }
}
