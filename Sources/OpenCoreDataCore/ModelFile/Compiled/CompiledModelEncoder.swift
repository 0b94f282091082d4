import Foundation

/// Writes a managed object model as the keyed archive of a compiled model (`.mom`, as Xcode's model
/// compiler writes it) or of a store's model cache (`Z_MODELCACHE`, as Apple's Core Data writes it), the
/// objects, classes and keys of Apple's archives (Docs/StoreFormat.md, "Compiled models").
///
/// The two styles differ as Apple's do: a `.mom` keeps its entities in an `NSMutableDictionary` and lists
/// only each entity's own properties; a cache keeps them in an `NSKnownKeysDictionary1` (names sorted)
/// and gives each subentity a copy of every inherited property, as the caches of Core Data up to
/// framework version 1344 do.
struct CompiledModelEncoder {
    enum Style {
        /// A compiled model file (`.mom`).
        case modelFile
        /// A store's model cache.
        case storeCache
    }

    /// Why a model cannot be archived: a block predicate or expression in it.
    typealias Refusal = ArchivedPredicateEncoder.Refusal

    private let writer = KeyedArchiveWriter()
    private let style: Style
    private let values: KeyedArchiveValueEncoder
    private let predicates: ArchivedPredicateEncoder
    /// The place in `$objects` of each entity, and of each property copy (by entity and property).
    private var entityUIDs: [ObjectIdentifier: Int] = [:]
    private var propertyUIDs: [PropertyKey: Int] = [:]
    private var modelUID = 0

    private struct PropertyKey: Hashable {
        let entity: ObjectIdentifier
        let property: ObjectIdentifier
    }

    /// The archive of `model` (a binary property list).
    static func encode(_ model: NSManagedObjectModel, style: Style) throws(Refusal) -> Data {
        var encoder = CompiledModelEncoder(style: style)
        return try encoder.encodeModel(model)
    }

    private init(style: Style) {
        self.style = style
        values = KeyedArchiveValueEncoder(writer: writer)
        predicates = ArchivedPredicateEncoder(writer: writer, values: values)
    }

    private static let objectClass = ["NSObject"]
    private static func byName(_ entities: [NSEntityDescription]) -> [NSEntityDescription] {
        entities.sorted { ($0.name ?? "").utf8.lexicographicallyPrecedes(($1.name ?? "").utf8) }
    }

    // MARK: Model

    private mutating func encodeModel(_ model: NSManagedObjectModel) throws(Refusal) -> Data {
        modelUID = writer.reserve()
        let entities = Self.byName(model.entities)
        for entity in entities {
            entityUIDs[ObjectIdentifier(entity)] = writer.reserve()
        }
        // Each entity's properties as the style lists them, their places reserved before any is written,
        // since relationships refer to their inverses.
        var listed: [(NSEntityDescription, [NSPropertyDescription])] = []
        for entity in entities {
            let properties = style == .storeCache ? entity._allProperties : entity.properties
            let sorted = properties.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
            for property in sorted {
                propertyUIDs[PropertyKey(entity: ObjectIdentifier(entity), property: ObjectIdentifier(property))] = writer.reserve()
            }
            listed.append((entity, sorted))
        }
        let entityReferences = entities.map { KeyedArchiveWriter.ArchiveValue.uid(entityUIDs[ObjectIdentifier($0)]!) }
        let table: KeyedArchiveWriter.ArchiveValue
        switch style {
        case .modelFile:
            table = writer.instance(
                classes: ["NSMutableDictionary", "NSDictionary"] + Self.objectClass,
                fields: [
                    ("NS.keys", .array(entities.map { writer.string($0.name ?? "") })),
                    ("NS.objects", .array(entityReferences)),
                ])
        case .storeCache:
            let mapping = writer.instance(
                classes: ["NSKnownKeysMappingStrategy1", "NSKnownKeysMappingStrategy"] + Self.objectClass,
                fields: [
                    ("keys", array(entities.map { writer.string($0.name ?? "") })),
                    ("length", .integer(Int64(entities.count))),
                    ("version", .integer(1)),
                ])
            table = writer.instance(
                classes: ["NSKnownKeysDictionary1", "NSKnownKeysDictionary", "NSMutableDictionary", "NSDictionary"] + Self.objectClass,
                fields: [
                    ("values", array(entityReferences)),
                    ("searchMapping", mapping),
                    ("emptyToken", writer.string("__empty_slot_token_4c24_98dc_ac1e_b773__")),
                    ("version", .integer(1)),
                ])
        }
        for (entity, properties) in listed {
            try encodeEntity(entity, properties: properties)
        }
        var fields: [(String, KeyedArchiveWriter.ArchiveValue)] = [("NSEntities", table)]
        let templates = model.fetchRequestTemplatesByName
        if templates.isEmpty {
            fields.append(("NSFetchRequestTemplates", KeyedArchiveWriter.null))
        } else {
            let names = templates.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            var requests: [KeyedArchiveWriter.ArchiveValue] = []
            for name in names { requests.append(try fetchRequest(templates[name]!)) }
            fields.append(
                (
                    "NSFetchRequestTemplates",
                    writer.instance(
                        classes: ["NSDictionary"] + Self.objectClass,
                        fields: [
                            ("NS.keys", .array(names.map { writer.string($0) })), ("NS.objects", .array(requests)),
                        ])
                ))
        }
        // A model without identifiers is archived with one empty identifier, as Apple's model compiler
        // writes a source whose identifier is empty.
        let identifiers = model.versionIdentifiers.isEmpty ? [AnyHashable("")] : model.versionIdentifiers.sorted { "\($0)" < "\($1)" }
        fields.append(
            (
                "NSVersionIdentifiers",
                writer.instance(
                    classes: ["NSSet"] + Self.objectClass,
                    fields: [
                        ("NS.objects", .array(identifiers.map { values.value($0.base) }))
                    ])
            ))
        let configurations = model.configurations.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        if !configurations.isEmpty {
            fields.append(
                (
                    "NSConfigurations",
                    writer.instance(
                        classes: ["NSMutableDictionary", "NSDictionary"] + Self.objectClass,
                        fields: [
                            ("NS.keys", .array(configurations.map { writer.string($0) })),
                            (
                                "NS.objects",
                                .array(
                                    configurations.map { name in
                                        let members = Self.byName(model.entities(forConfigurationName: name) ?? [])
                                        return writer.instance(
                                            classes: ["NSSet"] + Self.objectClass,
                                            fields: [
                                                ("NS.objects", .array(members.compactMap { entityUIDs[ObjectIdentifier($0)].map { .uid($0) } }))
                                            ])
                                    })
                            ),
                        ])
                ))
        }
        writer.fill(modelUID, classes: ["NSManagedObjectModel"] + Self.objectClass, fields: fields)
        return writer.archive(root: modelUID)
    }

    /// An `NSArray` of `elements`.
    private func array(_ elements: [KeyedArchiveWriter.ArchiveValue], mutable: Bool = false) -> KeyedArchiveWriter.ArchiveValue {
        writer.instance(
            classes: (mutable ? ["NSMutableArray", "NSArray"] : ["NSArray"]) + Self.objectClass,
            fields: [("NS.objects", .array(elements))])
    }

    private func reference(_ entity: NSEntityDescription?) -> KeyedArchiveWriter.ArchiveValue {
        guard let entity, let uid = entityUIDs[ObjectIdentifier(entity)] else { return KeyedArchiveWriter.null }
        return .uid(uid)
    }

    private func userInfo(_ info: [AnyHashable: Any]?) -> KeyedArchiveWriter.ArchiveValue {
        let info = info ?? [:]
        let keys = info.keys.sorted { "\($0)" < "\($1)" }
        return writer.instance(
            classes: ["NSDictionary"] + Self.objectClass,
            fields: [
                ("NS.keys", .array(keys.map { values.value($0.base) })),
                ("NS.objects", .array(keys.map { values.value(info[$0]) })),
            ])
    }

    // MARK: Entities

    private mutating func encodeEntity(_ entity: NSEntityDescription, properties: [NSPropertyDescription]) throws(Refusal) {
        let uid = entityUIDs[ObjectIdentifier(entity)]!
        let name = entity.name ?? ""
        var fields: [(String, KeyedArchiveWriter.ArchiveValue)] = [
            ("NSEntityName", writer.string(name)),
            ("NSClassNameForEntity", writer.string(entity._managedObjectClassName)),
        ]
        let constraints = entity._uniquenessConstraintNames.filter { !$0.isEmpty }
        if !constraints.isEmpty {
            fields.append(
                ("NSUniqueTuples", array(constraints.map { tuple in array(tuple.map { writer.string($0) }, mutable: true) }, mutable: true)))
        }
        fields.append(("NSUserInfo", userInfo(entity.userInfo)))
        let subentities = Self.byName(entity.subentities)
        fields.append(
            (
                "NSSubentities",
                writer.instance(
                    classes: ["NSMutableDictionary", "NSDictionary"] + Self.objectClass,
                    fields: [
                        ("NS.keys", .array(subentities.map { writer.string($0.name ?? "") })),
                        ("NS.objects", .array(subentities.map { reference($0) })),
                    ])
            ))
        fields.append(("NSVersionHashModifier", writer.string(entity.versionHashModifier)))
        var propertyReferences: [KeyedArchiveWriter.ArchiveValue] = []
        for property in properties {
            let propertyUID = propertyUIDs[PropertyKey(entity: ObjectIdentifier(entity), property: ObjectIdentifier(property))]!
            try encodeProperty(property, in: entity, at: propertyUID)
            propertyReferences.append(.uid(propertyUID))
        }
        fields.append(
            (
                "NSProperties",
                writer.instance(
                    classes: ["NSMutableDictionary", "NSDictionary"] + Self.objectClass,
                    fields: [
                        ("NS.keys", .array(properties.map { writer.string($0.name) })),
                        ("NS.objects", .array(propertyReferences)),
                    ])
            ))
        fields.append(("NSRenamingIdentifier", writer.string(entity.renamingIdentifier ?? name)))
        fields.append(("NSManagedObjectModel", .uid(modelUID)))
        fields.append(("NSSuperentity", reference(entity.superentity)))
        if entity.isAbstract { fields.append(("NSIsAbstract", .boolean(true))) }
        // Each indexed property has an index of its own, named after it, before the entity's.
        let named = Set(entity.indexes.map(\.name))
        let allIndexes =
            entity.properties.filter { $0._isIndexed && !named.contains($0.name) }
            .map(CompiledModelFormat.indexOfIndexedProperty) + entity.indexes
        if !allIndexes.isEmpty {
            var indexes: [KeyedArchiveWriter.ArchiveValue] = []
            for index in allIndexes { indexes.append(try fetchIndex(index, entity: entity)) }
            fields.append(("NSFetchIndexDescriptions", array(indexes, mutable: true)))
            // Apple's archives repeat each index that is a list of properties as a compound index.
            let compound = allIndexes.filter { index in
                index.partialIndexPredicate == nil
                    && index.elements.allSatisfy { !($0.property is NSExpressionDescription) && $0.collationType == .binary }
            }
            fields.append(
                (
                    "NSCompoundIndexes",
                    array(
                        compound.map { index in
                            array(index.elements.map { writer.string($0.propertyName ?? "") }, mutable: true)
                        }, mutable: true)
                ))
        }
        writer.fill(uid, classes: ["NSEntityDescription"] + Self.objectClass, fields: fields)
    }

    private func fetchIndex(_ index: NSFetchIndexDescription, entity: NSEntityDescription) throws(Refusal) -> KeyedArchiveWriter.ArchiveValue {
        let uid = writer.reserve()
        var elements: [KeyedArchiveWriter.ArchiveValue] = []
        for element in index.elements {
            var fields: [(String, KeyedArchiveWriter.ArchiveValue)] = [
                ("NSPropertyName", writer.string(element.propertyName ?? "")),
                ("NSFetchIndexElementType", .integer(element.collationType == .rTree ? 1 : 0)),
                ("NSFetchIndexDescription", .uid(uid)),
                ("NSAscending", .boolean(element.isAscending)),
            ]
            if let expression = element.property as? NSExpressionDescription {
                fields.append(
                    (
                        "NSProperty",
                        writer.instance(
                            classes: ["NSExpressionDescription", "NSPropertyDescription"] + Self.objectClass,
                            fields: [
                                ("NSPropertyName", writer.string(expression.name)),
                                (
                                    "NSExpression",
                                    try expression.expression.map { expression throws(Refusal) in try predicates.expression(expression) }
                                        ?? KeyedArchiveWriter.null
                                ),
                                ("NSExpressionResultType", .integer(Int64(expression.expressionResultType.rawValue))),
                            ])
                    ))
            }
            elements.append(writer.instance(classes: ["NSFetchIndexElementDescription"] + Self.objectClass, fields: fields))
        }
        writer.fill(
            uid, classes: ["NSFetchIndexDescription"] + Self.objectClass,
            fields: [
                ("NSIndexName", writer.string(index.name)),
                ("NSPartialIndexPredicate", try predicates.predicate(index.partialIndexPredicate)),
                ("NSIndexElements", array(elements)),
                ("NSEntity", reference(entity)),
            ])
        return .uid(uid)
    }

    // MARK: Properties

    /// The packed flags `_P` Apple's archives give every property: bit 0 always, bit 1 optional, bit 2
    /// read-only, bit 3 transient; bits 4 and 5 when it has no validation predicates and warnings, bit 6
    /// when it has no user info, bit 7 when it has no version hash modifier; bit 10 an ordered
    /// relationship.
    static func packedFlags(_ property: NSPropertyDescription, transient: Bool) -> Int64 {
        var flags: Int64 = 0x01
        if property.isOptional { flags |= 0x02 }
        if property.isReadOnly { flags |= 0x04 }
        if transient { flags |= 0x08 }
        if property.validationPredicates.isEmpty { flags |= 0x30 }
        if (property.userInfo ?? [:]).isEmpty { flags |= 0x40 }
        if property.versionHashModifier == nil { flags |= 0x80 }
        if (property as? NSRelationshipDescription)?.isOrdered == true { flags |= 0x400 }
        return flags
    }

    private mutating func encodeProperty(_ property: NSPropertyDescription, in entity: NSEntityDescription, at uid: Int) throws(Refusal) {
        let classes: [String]
        var fields: [(String, KeyedArchiveWriter.ArchiveValue)] = [
            ("NSPropertyName", writer.string(property.name)),
            ("NSEntity", reference(entity)),
        ]
        // Fetched properties are archived transient, as Apple's are.
        let transient = property.isTransient || property is NSFetchedPropertyDescription
        switch property {
        case let relationship as NSRelationshipDescription:
            classes = ["NSRelationshipDescription", "NSPropertyDescription"]
            let destination = relationship.destinationEntity
            fields += [
                ("NSDestinationEntity", reference(destination)),
                ("_NSDestinationEntityName", writer.string(destination?.name)),
                ("NSDeleteRule", .integer(Int64(relationship.deleteRule.rawValue))),
                ("NSMinCount", .integer(Int64(relationship.minCount))),
                ("NSMaxCount", .integer(relationship.maxCount == Int.max ? -1 : Int64(relationship.maxCount))),
            ]
            var inverseReference = KeyedArchiveWriter.null
            if let inverse = relationship.inverseRelationship, let destination, let owner = inverse._entity {
                // In a cache, the destination's own copy of an inherited inverse.
                let copy = PropertyKey(entity: ObjectIdentifier(destination), property: ObjectIdentifier(inverse))
                let own = PropertyKey(entity: ObjectIdentifier(owner), property: ObjectIdentifier(inverse))
                if let inverseUID = (style == .storeCache ? propertyUIDs[copy] : nil) ?? propertyUIDs[own] {
                    inverseReference = .uid(inverseUID)
                }
            }
            fields += [
                ("NSInverseRelationship", inverseReference),
                ("_NSInverseRelationshipName", writer.string(relationship.inverseRelationship?.name)),
            ]
            if relationship.isOrdered { fields.append(("NSIsOrdered", .boolean(true))) }
        case let fetched as NSFetchedPropertyDescription:
            classes = ["NSFetchedPropertyDescription", "NSPropertyDescription"]
            let request = fetched.fetchRequest
            fields += [
                ("_NSFetchRequestEntityName", writer.string(request?.entity?.name ?? request?.entityName)),
                ("NSFetchRequest", try request.map { request throws(Refusal) in try fetchRequest(request) } ?? KeyedArchiveWriter.null),
                ("NSIsReadOnly", .boolean(true)),
            ]
        case let attribute as NSAttributeDescription:
            classes = try attributeFields(attribute, into: &fields)
        default:
            classes = ["NSPropertyDescription"]
        }
        if property.isOptional { fields.append(("NSIsOptional", .boolean(true))) }
        if transient { fields.append(("NSIsTransient", .boolean(true))) }
        if property._isIndexed { fields.append(("NSIsIndexed", .boolean(true))) }
        if property.isIndexedBySpotlight { fields.append(("NSIsIndexedBySpotlight", .boolean(true))) }
        if property._isStoredInExternalRecord { fields.append(("NSIsStoredInExternalRecord", .boolean(true))) }
        if let modifier = property.versionHashModifier { fields.append(("NSVersionHashModifier", writer.string(modifier))) }
        if let info = property.userInfo, !info.isEmpty { fields.append(("NSUserInfo", userInfo(info))) }
        if !property.validationPredicates.isEmpty {
            var rules: [KeyedArchiveWriter.ArchiveValue] = []
            for predicate in property.validationPredicates { rules.append(try predicates.predicate(predicate)) }
            fields.append(("NSValidationPredicates", array(rules)))
            fields.append(("NSValidationWarnings", array(property.validationWarnings.map { values.value($0) })))
        }
        fields.append(("NSRenamingIdentifier", writer.string(property.renamingIdentifier ?? property.name)))
        fields.append(("_P", .integer(Self.packedFlags(property, transient: transient))))
        writer.fill(uid, classes: classes + Self.objectClass, fields: fields)
    }

    /// An attribute's own fields; returns its class chain.
    private func attributeFields(
        _ attribute: NSAttributeDescription,
        into fields: inout [(String, KeyedArchiveWriter.ArchiveValue)]
    ) throws(Refusal) -> [String] {
        var classes = ["NSAttributeDescription", "NSPropertyDescription"]
        let type = attribute.attributeType
        // Xcode's model compiler writes no class name for a transformable attribute (SampleModel's
        // `Car.color`, whose source names the class `Color`); a cache keeps the model's.
        let className = style == .modelFile && type == .transformableAttributeType ? nil : attribute.attributeValueClassName
        var flags: Int64 = 0
        if attribute.allowsExternalBinaryDataStorage { flags |= CompiledModelFormat.externalBinaryDataFlag }
        if attribute.preservesValueInHistoryOnDeletion { flags |= CompiledModelFormat.preservesValueInHistoryFlag }
        if attribute.allowsCloudEncryption { flags |= CompiledModelFormat.cloudEncryptionFlag }
        fields += [
            ("NSAttributeType", .integer(Int64(type.rawValue))),
            ("NSAttributeValueClassName", writer.string(className)),
            ("NSDefaultValue", defaultValue(attribute)),
            ("NSValueTransformerName", writer.string(attribute.valueTransformerName)),
            ("NSFlagsKey", .integer(flags)),
        ]
        if let derived = attribute as? NSDerivedAttributeDescription {
            classes.insert("NSDerivedAttributeDescription", at: 0)
            fields += [
                (
                    "NSDerivationExpression",
                    try derived.derivationExpression.map { expression throws(Refusal) in try predicates.expression(expression) }
                        ?? KeyedArchiveWriter.null
                ),
                ("NSFilteringPredicate", KeyedArchiveWriter.null),
                ("NSIsReadOnly", .boolean(true)),
            ]
        } else if let composite = attribute as? NSCompositeAttributeDescription {
            classes.insert("NSCompositeAttributeDescription", at: 0)
            var elements: [KeyedArchiveWriter.ArchiveValue] = []
            for element in composite.elements {
                let uid = writer.reserve()
                var elementFields: [(String, KeyedArchiveWriter.ArchiveValue)] = [("NSPropertyName", writer.string(element.name))]
                let elementClasses = try attributeFields(element, into: &elementFields)
                if element.isOptional { elementFields.append(("NSIsOptional", .boolean(true))) }
                elementFields.append(("NSRenamingIdentifier", writer.string(element.renamingIdentifier ?? element.name)))
                elementFields.append(("_P", .integer(Self.packedFlags(element, transient: element.isTransient))))
                writer.fill(uid, classes: elementClasses + Self.objectClass, fields: elementFields)
                elements.append(.uid(uid))
            }
            fields.append(("NSElements", array(elements)))
        }
        return classes
    }

    /// The default value as Apple archives it: an `NSNumber` as the plain value of the attribute's type.
    private func defaultValue(_ attribute: NSAttributeDescription) -> KeyedArchiveWriter.ArchiveValue {
        guard let value = attribute.defaultValue else { return KeyedArchiveWriter.null }
        if let number = value as? NSNumber, !(number is NSDecimalNumber) {
            switch attribute.attributeType {
            case .booleanAttributeType: return writer.plain(.boolean(number.boolValue))
            case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType: return writer.plain(.integer(number.int64Value))
            case .doubleAttributeType, .floatAttributeType: return writer.plain(.real(number.doubleValue))
            default: break
            }
        }
        return values.value(value)
    }

    // MARK: Fetch requests

    private func fetchRequest(_ request: NSFetchRequest<NSFetchRequestResult>) throws(Refusal) -> KeyedArchiveWriter.ArchiveValue {
        let format = CompiledModelFormat.self
        var flags: Int64 = 0
        if request.returnsDistinctResults { flags |= format.distinctResultsFlag }
        if request.includesSubentities { flags |= format.includesSubentitiesFlag }
        if request.includesPropertyValues { flags |= format.includesPropertyValuesFlag }
        if request.returnsObjectsAsFaults { flags |= format.returnsObjectsAsFaultsFlag }
        if request.includesPendingChanges { flags |= format.includesPendingChangesFlag }
        if request.shouldRefreshRefetchedObjects { flags |= format.refreshesRefetchedObjectsFlag }
        func names(_ list: [Any]?) -> KeyedArchiveWriter.ArchiveValue {
            guard let list else { return KeyedArchiveWriter.null }
            return array(
                list.map { item -> KeyedArchiveWriter.ArchiveValue in
                    if let property = item as? NSPropertyDescription { return writer.string(property.name) }
                    return writer.string("\(item)")
                })
        }
        return writer.instance(
            classes: ["NSFetchRequest", "NSPersistentStoreRequest"] + Self.objectClass,
            fields: [
                ("NSEntity", reference(request.entity)),
                ("NSPredicate", try predicates.predicate(request.predicate)),
                ("NSSortDescriptors", predicates.sortDescriptors(request.sortDescriptors)),
                ("NSFetchLimit", .integer(Int64(request.fetchLimit))),
                ("NSFetchOffset", .integer(Int64(request.fetchOffset))),
                ("NSBatchSize", .integer(Int64(request.fetchBatchSize))),
                ("NSResultType", .integer(Int64(request.resultType.rawValue))),
                ("NSFetchRequestFlags", .integer(flags)),
                ("NSHasFetchRequestFlags", .boolean(true)),
                ("NSValuesToFetch", names(request.propertiesToFetch)),
                ("NSValuesToGroupBy", names(request.propertiesToGroupBy)),
                ("NSHavingPredicate", try predicates.predicate(request.havingPredicate)),
                (
                    "NSRelationshipKeyPathsForPrefetching",
                    request.relationshipKeyPathsForPrefetching.map { paths in array(paths.map { writer.string($0) }) }
                        ?? KeyedArchiveWriter.null
                ),
                ("NSAllocationType", .integer(0)),
            ])
    }
}
