import Foundation
import OpenCoreData

/// Compares two managed object models field by field: every entity, property, index, constraint,
/// fetch request and configuration, and the version hashes. The differences come out as one line each,
/// `entity.property: field: left ≠ right`, so that a test failure says what differs.
struct ModelComparison {
    /// A field left out of the comparison, as the test knows it differs for a reason.
    enum Ignored: Hashable {
        /// The value class name of transformable attributes (Xcode's model compiler writes none).
        case transformableClassName
        /// Entity class names (stores whose cache was written by a model without them).
        case entityClassNames
        /// Renaming identifiers (an entity's `elementID`, which a store's cache written by another
        /// version of the model may lack).
        case renamingIdentifiers
    }

    let ignored: Set<Ignored>
    private(set) var differences: [String] = []

    init(ignoring ignored: Set<Ignored> = []) {
        self.ignored = ignored
    }

    /// The differences between `left` and `right`.
    static func differences(
        _ left: NSManagedObjectModel, _ right: NSManagedObjectModel,
        ignoring ignored: Set<Ignored> = []
    ) -> [String] {
        var comparison = ModelComparison(ignoring: ignored)
        comparison.compare(left, right)
        return comparison.differences
    }

    private mutating func note(_ place: String, _ field: String, _ left: Any?, _ right: Any?) {
        differences.append("\(place): \(field): \(Self.text(left)) ≠ \(Self.text(right))")
    }

    private mutating func check<T: Equatable>(_ place: String, _ field: String, _ left: T, _ right: T) {
        if left != right { note(place, field, left, right) }
    }

    static func text(_ value: Any?) -> String {
        guard let value else { return "nil" }
        if let dictionary = value as? [AnyHashable: Any] {
            return "[" + dictionary.map { "\($0.key): \(text($0.value))" }.sorted().joined(separator: ", ") + "]"
        }
        if let array = value as? [Any] { return "[" + array.map { text($0) }.joined(separator: ", ") + "]" }
        if let set = value as? Set<AnyHashable> { return "{" + set.map { text($0) }.sorted().joined(separator: ", ") + "}" }
        if let data = value as? Data { return data.map { String(format: "%02x", $0) }.joined() }
        return "\(value)"
    }

    /// Values compared as the model gives them: numbers by value, the rest by description.
    static func same(_ left: Any?, _ right: Any?) -> Bool {
        switch (left, right) {
        case (nil, nil): return true
        case (nil, _), (_, nil): return false
        case let (a as NSNumber, b as NSNumber): return a == b
        case let (a as Date, b as Date): return a == b
        default: return text(left) == text(right)
        }
    }

    mutating func compare(_ left: NSManagedObjectModel, _ right: NSManagedObjectModel) {
        let leftNames = left.entities.compactMap(\.name).sorted(), rightNames = right.entities.compactMap(\.name).sorted()
        check("model", "entities", leftNames, rightNames)
        for name in leftNames where right.entitiesByName[name] != nil {
            compare(left.entitiesByName[name]!, right.entitiesByName[name]!)
        }
        check("model", "configurations", left.configurations.sorted(), right.configurations.sorted())
        for configuration in left.configurations where right.configurations.contains(configuration) {
            check(
                "configuration \(configuration)", "entities",
                (left.entities(forConfigurationName: configuration) ?? []).compactMap(\.name).sorted(),
                (right.entities(forConfigurationName: configuration) ?? []).compactMap(\.name).sorted())
        }
        check("model", "fetch request templates", left.fetchRequestTemplatesByName.keys.sorted(), right.fetchRequestTemplatesByName.keys.sorted())
        for (name, request) in left.fetchRequestTemplatesByName {
            if let other = right.fetchRequestTemplatesByName[name] { compare(request, other, place: "template \(name)") }
        }
        check("model", "version identifiers", left.versionIdentifiers.map { "\($0)" }.sorted(), right.versionIdentifiers.map { "\($0)" }.sorted())
        check("model", "version checksum", left.versionChecksum, right.versionChecksum)
    }

    mutating func compare(_ left: NSEntityDescription, _ right: NSEntityDescription) {
        let place = left.name ?? ""
        if !ignored.contains(.entityClassNames) {
            check(place, "managedObjectClassName", left.managedObjectClassName ?? "", right.managedObjectClassName ?? "")
        }
        check(place, "isAbstract", left.isAbstract, right.isAbstract)
        check(place, "superentity", left.superentity?.name ?? "", right.superentity?.name ?? "")
        check(place, "subentities", left.subentities.compactMap(\.name).sorted(), right.subentities.compactMap(\.name).sorted())
        check(place, "versionHashModifier", left.versionHashModifier ?? "", right.versionHashModifier ?? "")
        if !ignored.contains(.renamingIdentifiers) {
            check(place, "renamingIdentifier", left.renamingIdentifier ?? "", right.renamingIdentifier ?? "")
        }
        if !Self.same(left.userInfo ?? [:], right.userInfo ?? [:]) { note(place, "userInfo", left.userInfo, right.userInfo) }
        check(place, "own properties", left.properties.map(\.name).sorted(), right.properties.map(\.name).sorted())
        check(place, "all properties", left.propertiesByName.keys.sorted(), right.propertiesByName.keys.sorted())
        for property in left.properties {
            if let other = right.properties.first(where: { $0.name == property.name }) {
                compare(property, other, place: "\(place).\(property.name)")
            }
        }
        check(place, "indexes", left.indexes.map(Self.describe).sorted(), right.indexes.map(Self.describe).sorted())
        check(place, "uniquenessConstraints", Self.names(left.uniquenessConstraints), Self.names(right.uniquenessConstraints))
        check(place, "versionHash", left.versionHash, right.versionHash)
    }

    static func describe(_ index: NSFetchIndexDescription) -> String {
        let elements = index.elements.map { element in
            "\(element.propertyName ?? "?")/\(element.collationType.rawValue)/\(element.isAscending ? "asc" : "desc")"
                + ((element.property as? NSExpressionDescription).map { "=\($0.expression?.description ?? "")" } ?? "")
        }
        return "\(index.name)(\(elements.joined(separator: ","))) where \(index.partialIndexPredicate?.predicateFormat ?? "-")"
    }

    static func names(_ constraints: [[Any]]) -> [String] {
        constraints.map { tuple in tuple.map { ($0 as? NSPropertyDescription)?.name ?? "\($0)" }.joined(separator: "+") }
    }

    mutating func compare(_ left: NSPropertyDescription, _ right: NSPropertyDescription, place: String) {
        check(place, "class", String(describing: type(of: left)), String(describing: type(of: right)))
        check(place, "isOptional", left.isOptional, right.isOptional)
        check(place, "isTransient", left.isTransient, right.isTransient)
        check(place, "isReadOnly", left.isReadOnly, right.isReadOnly)
        check(place, "versionHashModifier", left.versionHashModifier ?? "", right.versionHashModifier ?? "")
        if !ignored.contains(.renamingIdentifiers) {
            check(place, "renamingIdentifier", left.renamingIdentifier ?? "", right.renamingIdentifier ?? "")
        }
        if !Self.same(left.userInfo ?? [:], right.userInfo ?? [:]) { note(place, "userInfo", left.userInfo, right.userInfo) }
        check(place, "isIndexedBySpotlight", left.isIndexedBySpotlight, right.isIndexedBySpotlight)
        check(place, "validationPredicates", left.validationPredicates.map(\.predicateFormat), right.validationPredicates.map(\.predicateFormat))
        check(place, "validationWarnings", left.validationWarnings.map { Self.text($0) }, right.validationWarnings.map { Self.text($0) })
        check(place, "versionHash", left.versionHash, right.versionHash)
        switch (left, right) {
        case let (a as NSAttributeDescription, b as NSAttributeDescription):
            compare(a, b, place: place)
        case let (a as NSRelationshipDescription, b as NSRelationshipDescription):
            check(place, "destination", a.destinationEntity?.name ?? "", b.destinationEntity?.name ?? "")
            check(
                place, "inverse", a.inverseRelationship.map { "\($0.entity.name ?? "").\($0.name)" } ?? "",
                b.inverseRelationship.map { "\($0.entity.name ?? "").\($0.name)" } ?? "")
            check(place, "minCount", a.minCount, b.minCount)
            check(place, "maxCount", a.maxCount, b.maxCount)
            check(place, "deleteRule", a.deleteRule.rawValue, b.deleteRule.rawValue)
            check(place, "isOrdered", a.isOrdered, b.isOrdered)
        case let (a as NSFetchedPropertyDescription, b as NSFetchedPropertyDescription):
            switch (a.fetchRequest, b.fetchRequest) {
            case let (x?, y?): compare(x, y, place: place)
            case (nil, nil): break
            default: note(place, "fetchRequest", a.fetchRequest, b.fetchRequest)
            }
        default:
            break
        }
    }

    mutating func compare(_ left: NSAttributeDescription, _ right: NSAttributeDescription, place: String) {
        check(place, "attributeType", left.attributeType.rawValue, right.attributeType.rawValue)
        if !(ignored.contains(.transformableClassName) && left.attributeType == .transformableAttributeType) {
            check(place, "attributeValueClassName", left.attributeValueClassName ?? "", right.attributeValueClassName ?? "")
        }
        if !Self.same(left.defaultValue, right.defaultValue) { note(place, "defaultValue", left.defaultValue, right.defaultValue) }
        check(place, "valueTransformerName", left.valueTransformerName ?? "", right.valueTransformerName ?? "")
        check(place, "allowsExternalBinaryDataStorage", left.allowsExternalBinaryDataStorage, right.allowsExternalBinaryDataStorage)
        check(place, "preservesValueInHistoryOnDeletion", left.preservesValueInHistoryOnDeletion, right.preservesValueInHistoryOnDeletion)
        check(place, "allowsCloudEncryption", left.allowsCloudEncryption, right.allowsCloudEncryption)
        if let a = left as? NSDerivedAttributeDescription, let b = right as? NSDerivedAttributeDescription {
            check(place, "derivationExpression", a.derivationExpression?.description ?? "", b.derivationExpression?.description ?? "")
        }
        if let a = left as? NSCompositeAttributeDescription, let b = right as? NSCompositeAttributeDescription {
            check(place, "elements", a.elements.map(\.name), b.elements.map(\.name))
            for (x, y) in zip(a.elements, b.elements) { compare(x, y, place: "\(place).\(x.name)") }
        }
    }

    mutating func compare(_ left: NSFetchRequest<NSFetchRequestResult>, _ right: NSFetchRequest<NSFetchRequestResult>, place: String) {
        check(place, "request entity", left.entity?.name ?? left.entityName ?? "", right.entity?.name ?? right.entityName ?? "")
        check(place, "predicate", left.predicate?.predicateFormat ?? "", right.predicate?.predicateFormat ?? "")
        check(place, "sortDescriptors", (left.sortDescriptors ?? []).map(\.description), (right.sortDescriptors ?? []).map(\.description))
        check(place, "fetchLimit", left.fetchLimit, right.fetchLimit)
        check(place, "fetchOffset", left.fetchOffset, right.fetchOffset)
        check(place, "fetchBatchSize", left.fetchBatchSize, right.fetchBatchSize)
        check(place, "resultType", left.resultType.rawValue, right.resultType.rawValue)
        check(place, "includesSubentities", left.includesSubentities, right.includesSubentities)
        check(place, "includesPropertyValues", left.includesPropertyValues, right.includesPropertyValues)
        check(place, "includesPendingChanges", left.includesPendingChanges, right.includesPendingChanges)
        check(place, "returnsObjectsAsFaults", left.returnsObjectsAsFaults, right.returnsObjectsAsFaults)
        check(place, "returnsDistinctResults", left.returnsDistinctResults, right.returnsDistinctResults)
    }
}
