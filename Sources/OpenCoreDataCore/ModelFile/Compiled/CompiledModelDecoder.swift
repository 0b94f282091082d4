import Foundation

/// Builds a managed object model from the keyed archive of a compiled model (a `.mom` file) or a store's
/// model cache (`Z_MODELCACHE`), as Docs/StoreFormat.md ("Compiled models") describes them.
///
/// Three layouts of inherited properties are read: a `.mom` lists only an entity's own properties; model
/// caches of framework versions up to 1344 hold full copies of the inherited ones in each subentity; later
/// ones hold `_NSPropertyDescriptionProxy` objects for them. Copies and proxies are dropped: a subentity
/// inherits its superentity's own descriptions, as in a model read from source.
///
/// Entities come out sorted by name, and each entity's properties too (the archive's order is that of a
/// hash table). A renaming identifier equal to the element's name (what Apple writes when none is set)
/// reads as `nil`, as the model source has it.
struct CompiledModelDecoder {
    typealias Failure = KeyedArchiveReader.Failure

    private let reader: KeyedArchiveReader
    private var predicates: ArchivedPredicateDecoder
    private var values: KeyedArchiveValueDecoder

    private var entityByUID: [Int: NSEntityDescription] = [:]
    private var entityInstances: [Int: KeyedArchiveReader.Instance] = [:]
    private var entityOrder: [Int] = []
    private var propertyByUID: [Int: NSPropertyDescription] = [:]
    private var uidOfEntity: [ObjectIdentifier: Int] = [:]
    private var uidOfProperty: [ObjectIdentifier: Int] = [:]

    /// The model archived in `data` (a binary property list keyed archive).
    /// `into` must be empty and editable; it is returned filled.
    @discardableResult
    static func decode(_ data: Data, into model: NSManagedObjectModel = NSManagedObjectModel()) throws(Failure) -> NSManagedObjectModel {
        var decoder = CompiledModelDecoder(reader: try KeyedArchiveReader(data))
        return try decoder.decodeModel(into: model)
    }

    private init(reader: KeyedArchiveReader) {
        self.reader = reader
        predicates = ArchivedPredicateDecoder(reader: reader)
        values = KeyedArchiveValueDecoder(reader: reader)
    }

    // MARK: Model

    private mutating func decodeModel(into model: NSManagedObjectModel) throws(Failure) -> NSManagedObjectModel {
        let root = try reader.instance(reader.root, of: ["NSManagedObjectModel"], "the archive's root object")
        for uid in try entityUIDs(of: root) {
            try makeEntity(uid)
        }
        try linkSuperentities()
        var archivedProperties: [Int: [(name: String, uid: Int)]] = [:]
        for uid in entityOrder {
            archivedProperties[uid] = try propertyList(of: entityInstances[uid]!)
        }
        for uid in entityOrder {
            let entity = entityByUID[uid]!
            var inherited = Set<String>()
            var ancestor = entity._superentity
            while let current = ancestor, let ancestorUID = uidOfEntity[ObjectIdentifier(current)] {
                for (name, _) in archivedProperties[ancestorUID] ?? [] { inherited.insert(name) }
                ancestor = current._superentity
            }
            var own: [NSPropertyDescription] = []
            var seen = Set<String>()
            for (name, propertyUID) in archivedProperties[uid] ?? [] where !inherited.contains(name) {
                guard let property = try makeProperty(propertyUID, entity: entity.name ?? "") else { continue }
                guard property.name == name else {
                    throw Failure("entity '\(entity.name ?? "")' lists property '\(property.name)' under the name '\(name)'")
                }
                guard seen.insert(name).inserted else { throw Failure("entity '\(entity.name ?? "")' has two properties named '\(name)'") }
                own.append(property)
            }
            entity.properties = own.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        }
        let entities = entityOrder.map { entityByUID[$0]! }
            .sorted { ($0.name ?? "").utf8.lexicographicallyPrecedes(($1.name ?? "").utf8) }
        model.entities = entities
        for uid in entityOrder {
            try resolve(entityInstances[uid]!, entity: entityByUID[uid]!)
        }
        if let templates = try reader.reference("NSFetchRequestTemplates", of: root) {
            for (key, value) in try reader.entries(ofObject: templates, "the model's fetch request templates") {
                guard let name = try reader.string(ofObject: key, "a fetch request template's name") else {
                    throw Failure("a fetch request template has no name")
                }
                model.setFetchRequestTemplate(try fetchRequest(value, "fetch request template '\(name)'"), forName: name)
            }
        }
        if let configurations = try reader.reference("NSConfigurations", of: root) {
            var named: [(String, [NSEntityDescription])] = []
            for (key, value) in try reader.entries(ofObject: configurations, "the model's configurations") {
                guard let name = try reader.string(ofObject: key, "a configuration's name") else { throw Failure("a configuration has no name") }
                var members: [NSEntityDescription] = []
                for element in try reader.elements(ofObject: value, "configuration '\(name)'") {
                    guard let entity = entityByUID[element] else {
                        throw Failure("configuration '\(name)' lists an object that is not an entity of the model")
                    }
                    members.append(entity)
                }
                named.append((name, members.sorted { ($0.name ?? "").utf8.lexicographicallyPrecedes(($1.name ?? "").utf8) }))
            }
            for (name, members) in named.sorted(by: { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }) {
                model.setEntities(members, forConfigurationName: name)
            }
        }
        if let identifiers = try reader.reference("NSVersionIdentifiers", of: root) {
            var set = Set<AnyHashable>()
            for element in try reader.elements(ofObject: identifiers, "the model's version identifiers") {
                if let value = try values.value(ofObject: element) as? AnyHashable { set.insert(value) }
            }
            // Apple's archives hold one empty identifier for a model source whose identifier is empty,
            // which a model read from that source has as none.
            if set == [AnyHashable("")] { set = [] }
            model.versionIdentifiers = set
        }
        return model
    }

    /// The entity objects of `NSEntities`: an `NSKnownKeysDictionary1` (model caches) or an
    /// `NSDictionary` (`.mom` files).
    private func entityUIDs(of root: KeyedArchiveReader.Instance) throws(Failure) -> [Int] {
        guard let uid = try reader.reference("NSEntities", of: root) else { return [] }
        let table = try reader.instance(
            uid, of: ["NSKnownKeysDictionary1", "NSKnownKeysDictionary", "NSDictionary", "NSMutableDictionary"],
            "the model's entities")
        if table.fields["NS.objects"] != nil || table.fields["NS.keys"] != nil {
            return try reader.entries(of: table, "the model's entities").map(\.value)
        }
        guard let values = try reader.reference("values", of: table) else { return [] }
        return try reader.elements(ofObject: values, "the model's entities")
    }

    // MARK: Entities

    private mutating func makeEntity(_ uid: Int) throws(Failure) {
        guard entityByUID[uid] == nil else { throw Failure("the model lists the entity object \(uid) twice") }
        let object = try reader.instance(uid, of: ["NSEntityDescription"], "an entity of the model")
        guard let name = try reader.string("NSEntityName", of: object), !name.isEmpty else {
            throw Failure("an entity of the model (object \(uid)) has no name")
        }
        if entityByUID.values.contains(where: { $0.name == name }) { throw Failure("the model has two entities named '\(name)'") }
        let entity = NSEntityDescription()
        entity.name = name
        entity.managedObjectClassName = try reader.string("NSClassNameForEntity", of: object)
        entity.isAbstract = try reader.flag("NSIsAbstract", of: object)
        entity.versionHashModifier = try nonEmpty(reader.string("NSVersionHashModifier", of: object))
        let renaming = try reader.string("NSRenamingIdentifier", of: object)
        entity.renamingIdentifier = renaming == name ? nil : renaming
        entity.userInfo = try userInfo(object)
        entityByUID[uid] = entity
        uidOfEntity[ObjectIdentifier(entity)] = uid
        entityInstances[uid] = object
        entityOrder.append(uid)
    }

    /// Sets each entity's superentity from `NSSuperentity`, refusing one outside the model and cycles.
    private func linkSuperentities() throws(Failure) {
        var parentOf: [Int: Int] = [:]
        for uid in entityOrder {
            guard let parent = try reader.reference("NSSuperentity", of: entityInstances[uid]!) else { continue }
            guard entityByUID[parent] != nil else {
                throw Failure("the superentity of entity '\(entityByUID[uid]!.name ?? "")' is not an entity of the model")
            }
            parentOf[uid] = parent
        }
        for uid in entityOrder {
            var visited: Set<Int> = [uid]
            var current = parentOf[uid]
            while let ancestor = current {
                guard visited.insert(ancestor).inserted else {
                    throw Failure("the superentities of entity '\(entityByUID[uid]!.name ?? "")' form a cycle")
                }
                current = parentOf[ancestor]
            }
        }
        var children: [Int: [NSEntityDescription]] = [:]
        for uid in entityOrder {
            if let parent = parentOf[uid] { children[parent, default: []].append(entityByUID[uid]!) }
        }
        for (parent, subentities) in children {
            entityByUID[parent]!.subentities = subentities.sorted { ($0.name ?? "").utf8.lexicographicallyPrecedes(($1.name ?? "").utf8) }
        }
    }

    /// The names and objects of an entity's `NSProperties`.
    private func propertyList(of entity: KeyedArchiveReader.Instance) throws(Failure) -> [(name: String, uid: Int)] {
        guard let uid = try reader.reference("NSProperties", of: entity) else { return [] }
        let what = "the properties of entity '\(try reader.string("NSEntityName", of: entity) ?? "")'"
        return try reader.entries(ofObject: uid, what).map { entry throws(Failure) -> (name: String, uid: Int) in
            guard let name = try reader.string(ofObject: entry.key, what), !name.isEmpty else { throw Failure("\(what) include one without a name") }
            return (name, entry.value)
        }
    }

    /// Sets what refers to other entities and properties: relationship destinations and inverses, fetched
    /// properties' requests, indexes and uniqueness constraints.
    private mutating func resolve(_ object: KeyedArchiveReader.Instance, entity: NSEntityDescription) throws(Failure) {
        let name = entity.name ?? ""
        for property in entity.properties {
            guard let uid = uidOfProperty[ObjectIdentifier(property)],
                let archived = try reader.instance(uid)
            else { continue }
            if let relationship = property as? NSRelationshipDescription {
                try resolve(relationship, archived, entity: name)
            } else if let fetched = property as? NSFetchedPropertyDescription {
                guard let request = try reader.reference("NSFetchRequest", of: archived) else {
                    throw Failure("fetched property '\(name).\(fetched.name)' has no fetch request")
                }
                let entityName = try reader.string("_NSFetchRequestEntityName", of: archived)
                fetched.fetchRequest = try fetchRequest(request, "fetched property '\(name).\(fetched.name)'", entityName: entityName)
            }
        }
        var indexes: [NSFetchIndexDescription] = []
        if let list = try reader.reference("NSFetchIndexDescriptions", of: object) {
            for element in try reader.elements(ofObject: list, "the fetch indexes of entity '\(name)'") {
                let index = try fetchIndex(element, entity: entity)
                // An indexed property's own index, which Apple's archives list beside the entity's: the
                // property's flag stands for it, as in the model source.
                if CompiledModelFormat.isIndexOfIndexedProperty(index, in: entity) { continue }
                indexes.append(index)
            }
        } else if let list = try reader.reference("NSCompoundIndexes", of: object) {
            for (position, element) in try reader.elements(ofObject: list, "the compound indexes of entity '\(name)'").enumerated() {
                let names = try reader.strings(ofObject: element, "a compound index of entity '\(name)'")
                let elements = try names.map { property throws(Failure) -> NSFetchIndexElementDescription in
                    guard let description = entity.propertiesByName[property] else {
                        throw Failure("a compound index of entity '\(name)' names '\(property)', which is not a property of the entity")
                    }
                    return NSFetchIndexElementDescription(property: description, collationType: .binary)
                }
                indexes.append(NSFetchIndexDescription(name: NSEntityDescription._compoundIndexName(position + 1), elements: elements))
            }
        }
        if !indexes.isEmpty { entity.indexes = indexes }
        if let tuples = try reader.reference("NSUniqueTuples", of: object) {
            var constraints: [[Any]] = []
            for element in try reader.elements(ofObject: tuples, "the uniqueness constraints of entity '\(name)'") {
                let names = try reader.strings(ofObject: element, "a uniqueness constraint of entity '\(name)'")
                for property in names where entity.propertiesByName[property] == nil {
                    throw Failure("a uniqueness constraint of entity '\(name)' names '\(property)', which is not a property of the entity")
                }
                if !names.isEmpty { constraints.append(names) }
            }
            if !constraints.isEmpty { entity.uniquenessConstraints = constraints }
        }
    }

    private mutating func fetchIndex(_ uid: Int, entity: NSEntityDescription) throws(Failure) -> NSFetchIndexDescription {
        let entityName = entity.name ?? ""
        let object = try reader.instance(uid, of: ["NSFetchIndexDescription"], "a fetch index of entity '\(entityName)'")
        guard let name = try reader.string("NSIndexName", of: object), !name.isEmpty else {
            throw Failure("a fetch index of entity '\(entityName)' has no name")
        }
        var elements: [NSFetchIndexElementDescription] = []
        if let list = try reader.reference("NSIndexElements", of: object) {
            for element in try reader.elements(ofObject: list, "fetch index '\(name)'") {
                let item = try reader.instance(element, of: ["NSFetchIndexElementDescription"], "an element of fetch index '\(name)'")
                let rawType = try reader.integer("NSFetchIndexElementType", of: item, in: 0...1) ?? 0
                let collation: NSFetchIndexElementType = rawType == 1 ? .rTree : .binary
                let description: NSFetchIndexElementDescription
                if let propertyUID = try reader.reference("NSProperty", of: item),
                    let archived = try reader.instance(propertyUID), archived.isKind(of: "NSExpressionDescription")
                {
                    description = NSFetchIndexElementDescription(property: try expressionDescription(archived), collationType: collation)
                } else {
                    guard let propertyName = try reader.string("NSPropertyName", of: item),
                        let property = entity.propertiesByName[propertyName]
                    else {
                        throw Failure("fetch index '\(name)' of entity '\(entityName)' names a property the entity does not have")
                    }
                    description = NSFetchIndexElementDescription(property: property, collationType: collation)
                }
                description.isAscending = item.fields["NSAscending"] == nil ? true : try reader.flag("NSAscending", of: item)
                elements.append(description)
            }
        }
        let index = NSFetchIndexDescription(name: name, elements: elements)
        if let predicate = try reader.reference("NSPartialIndexPredicate", of: object) {
            index.partialIndexPredicate = try predicates.predicate(predicate)
        }
        return index
    }

    private mutating func expressionDescription(_ object: KeyedArchiveReader.Instance) throws(Failure) -> NSExpressionDescription {
        let description = NSExpressionDescription()
        description.name = try reader.string("NSPropertyName", of: object) ?? ""
        if let expression = try reader.reference("NSExpression", of: object) {
            description.expression = try predicates.expression(expression)
        }
        if let raw = try reader.integer("NSExpressionResultType", of: object, in: 0...100_000) {
            guard let type = NSAttributeType(rawValue: UInt(raw)) else {
                throw Failure("an expression description has an unknown result type \(raw)")
            }
            description.expressionResultType = type
        }
        return description
    }

    // MARK: Properties

    /// The property archived as `uid`; `nil` for an inherited property's proxy.
    private mutating func makeProperty(_ uid: Int, entity: String) throws(Failure) -> NSPropertyDescription? {
        let object = try reader.instance(
            uid,
            of: [
                "NSPropertyDescription", "_NSPropertyDescriptionProxy", "NSAttributeDescription",
                "NSRelationshipDescription", "NSFetchedPropertyDescription",
            ],
            "a property of entity '\(entity)'")
        if object.className == "_NSPropertyDescriptionProxy" { return nil }
        guard propertyByUID[uid] == nil else { throw Failure("property object \(uid) belongs to two entities") }
        let property: NSPropertyDescription
        switch object.className {
        case "NSAttributeDescription", "NSDerivedAttributeDescription", "NSCompositeAttributeDescription":
            property = try attribute(object, entity: entity)
        case "NSRelationshipDescription":
            property = NSRelationshipDescription()
        case "NSFetchedPropertyDescription":
            property = NSFetchedPropertyDescription()
        default:
            throw Failure("a property of entity '\(entity)' is an archived \(object.className), which this program does not read")
        }
        try applyCommon(object, to: property, entity: entity)
        if let relationship = property as? NSRelationshipDescription {
            let rawRule = try reader.integer("NSDeleteRule", of: object, in: 0...3) ?? 1
            relationship.deleteRule = NSDeleteRule(rawValue: UInt(rawRule)) ?? .nullifyDeleteRule
            relationship.minCount = try reader.integer("NSMinCount", of: object, in: 0...Int64(Int32.max)) ?? 0
            let maxCount = try reader.integer("NSMaxCount", of: object, in: -1...Int64(Int32.max)) ?? 1
            relationship.maxCount = maxCount < 0 ? Int.max : maxCount
            relationship.isOrdered = try reader.flag("NSIsOrdered", of: object)
        }
        propertyByUID[uid] = property
        uidOfProperty[ObjectIdentifier(property)] = uid
        return property
    }

    /// What every property archives: name, flags, identifiers, user info, validation rules.
    private mutating func applyCommon(_ object: KeyedArchiveReader.Instance, to property: NSPropertyDescription, entity: String) throws(Failure) {
        guard let name = try reader.string("NSPropertyName", of: object), !name.isEmpty else {
            throw Failure("a property of entity '\(entity)' has no name")
        }
        property.name = name
        property.isOptional = try reader.flag("NSIsOptional", of: object)
        if !(property is NSFetchedPropertyDescription) {
            property.isTransient = try reader.flag("NSIsTransient", of: object)
        } else {
            property.isTransient = false
        }
        property.versionHashModifier = try nonEmpty(reader.string("NSVersionHashModifier", of: object))
        let renaming = try reader.string("NSRenamingIdentifier", of: object)
        property.renamingIdentifier = renaming == name ? nil : renaming
        let info = try userInfo(object)
        property.userInfo = info?.isEmpty == false ? info : nil
        property._isIndexed = try reader.flag("NSIsIndexed", of: object)
        property._isIndexedBySpotlight = try reader.flag("NSIsIndexedBySpotlight", of: object)
        property._isStoredInExternalRecord = try reader.flag("NSIsStoredInExternalRecord", of: object)
        if let list = try reader.reference("NSValidationPredicates", of: object) {
            var rules: [NSPredicate] = []
            for element in try reader.elements(ofObject: list, "the validation predicates of '\(entity).\(name)'") {
                guard let predicate = try predicates.predicate(element) else { throw Failure("'\(entity).\(name)' has a $null validation predicate") }
                rules.append(predicate)
            }
            var warnings: [Any] = []
            if let warningList = try reader.reference("NSValidationWarnings", of: object) {
                for element in try reader.elements(ofObject: warningList, "the validation warnings of '\(entity).\(name)'") {
                    warnings.append(try values.value(ofObject: element) ?? "")
                }
            }
            guard warnings.count == rules.count else {
                throw Failure("'\(entity).\(name)' has \(rules.count) validation predicates and \(warnings.count) warnings")
            }
            property._setValidationPredicates(rules, warnings: warnings)
        }
    }

    /// An attribute (plain, derived or composite).
    private mutating func attribute(_ object: KeyedArchiveReader.Instance, entity: String) throws(Failure) -> NSAttributeDescription {
        let attribute: NSAttributeDescription
        switch object.className {
        case "NSDerivedAttributeDescription":
            let derived = NSDerivedAttributeDescription()
            if let expression = try reader.reference("NSDerivationExpression", of: object) {
                derived.derivationExpression = try predicates.expression(expression)
            }
            attribute = derived
        case "NSCompositeAttributeDescription":
            let composite = NSCompositeAttributeDescription()
            var elements: [NSAttributeDescription] = []
            if let list = try reader.reference("NSElements", of: object) {
                for element in try reader.elements(ofObject: list, "the elements of a composite attribute of '\(entity)'") {
                    let inner = try reader.instance(element, of: ["NSAttributeDescription"], "an element of a composite attribute of '\(entity)'")
                    let description = try self.attribute(inner, entity: entity)
                    try applyCommon(inner, to: description, entity: entity)
                    elements.append(description)
                }
            }
            composite.elements = elements
            attribute = composite
        default:
            attribute = NSAttributeDescription()
        }
        let rawType = try reader.integer("NSAttributeType", of: object, in: 0...100_000) ?? 0
        guard let type = NSAttributeType(rawValue: UInt(rawType)) else {
            throw Failure("an attribute of entity '\(entity)' has the unknown attribute type \(rawType)")
        }
        if !(attribute is NSCompositeAttributeDescription) { attribute.attributeType = type }
        if let className = try reader.string("NSAttributeValueClassName", of: object),
            className != NSAttributeDescription._defaultValueClassName(for: type)
        {
            attribute.attributeValueClassName = className
        }
        attribute.valueTransformerName = try nonEmpty(reader.string("NSValueTransformerName", of: object))
        let flags = try reader.integer("NSFlagsKey", of: object) ?? 0
        attribute.allowsExternalBinaryDataStorage = flags & CompiledModelFormat.externalBinaryDataFlag != 0
        attribute.preservesValueInHistoryOnDeletion = flags & CompiledModelFormat.preservesValueInHistoryFlag != 0
        attribute.allowsCloudEncryption = flags & CompiledModelFormat.cloudEncryptionFlag != 0
        if let defaultUID = try reader.reference("NSDefaultValue", of: object) {
            attribute.defaultValue = Self.typed(try values.value(ofObject: defaultUID), for: type)
        }
        return attribute
    }

    /// A default value in the form the model source gives it for the attribute's type.
    private static func typed(_ value: Any?, for type: NSAttributeType) -> Any? {
        guard let number = value as? NSNumber, !(number is NSDecimalNumber) else { return value }
        switch type {
        case .integer16AttributeType: return NSNumber(value: Int16(truncatingIfNeeded: number.int64Value))
        case .integer32AttributeType: return NSNumber(value: Int32(truncatingIfNeeded: number.int64Value))
        case .integer64AttributeType: return NSNumber(value: number.int64Value)
        case .doubleAttributeType: return NSNumber(value: number.doubleValue)
        case .floatAttributeType: return NSNumber(value: number.floatValue)
        case .booleanAttributeType: return NSNumber(value: number.boolValue)
        case .decimalAttributeType: return NSDecimalNumber(decimal: number.decimalValue)
        default: return value
        }
    }

    /// Sets a relationship's destination and inverse.
    private func resolve(_ relationship: NSRelationshipDescription, _ object: KeyedArchiveReader.Instance, entity: String) throws(Failure) {
        let what = "relationship '\(entity).\(relationship.name)'"
        let destination: NSEntityDescription
        if let uid = try reader.reference("NSDestinationEntity", of: object) {
            guard let found = entityByUID[uid] else { throw Failure("the destination of \(what) is not an entity of the model") }
            destination = found
        } else if let name = try reader.string("_NSDestinationEntityName", of: object),
            let found = entityByUID.values.first(where: { $0.name == name })
        {
            destination = found
        } else {
            throw Failure("\(what) has no destination entity")
        }
        relationship.destinationEntity = destination
        var inverse: NSRelationshipDescription?
        if let uid = try reader.reference("NSInverseRelationship", of: object), let found = propertyByUID[uid] as? NSRelationshipDescription {
            inverse = found
        }
        if let name = try reader.string("_NSInverseRelationshipName", of: object) ?? inverse?.name {
            // The archive may name a copy held by a subentity: the destination's own or inherited
            // description is the inverse.
            guard let found = destination.relationshipsByName[name] else {
                throw Failure("the inverse '\(name)' of \(what) is not a relationship of entity '\(destination.name ?? "")'")
            }
            inverse = found
        }
        relationship.inverseRelationship = inverse
    }

    // MARK: Fetch requests

    /// A fetch request (a fetched property's, or a model template).
    private mutating func fetchRequest(_ uid: Int, _ what: String, entityName: String? = nil) throws(Failure) -> NSFetchRequest<NSFetchRequestResult>
    {
        let object = try reader.instance(uid, of: ["NSFetchRequest"], "the request of \(what)")
        let entity: NSEntityDescription
        var named = entityName
        if named == nil { named = try reader.string("NSEntityName", of: object) }
        if let entityUID = try reader.reference("NSEntity", of: object) {
            guard let found = entityByUID[entityUID] else { throw Failure("the entity of \(what) is not an entity of the model") }
            entity = found
        } else if let name = named,
            let found = entityByUID.values.first(where: { $0.name == name })
        {
            entity = found
        } else {
            throw Failure("\(what) has no entity")
        }
        let request = NSFetchRequest<NSFetchRequestResult>(entityName: entity.name ?? "")
        request.entity = entity
        if let predicate = try reader.reference("NSPredicate", of: object) {
            request.predicate = try predicates.predicate(predicate)
        }
        if let sorts = try reader.reference("NSSortDescriptors", of: object) {
            request.sortDescriptors = try predicates.sortDescriptors(sorts)
        }
        request.fetchLimit = try reader.integer("NSFetchLimit", of: object, in: 0...Int64(Int32.max)) ?? 0
        request.fetchOffset = try reader.integer("NSFetchOffset", of: object, in: 0...Int64(Int32.max)) ?? 0
        request.fetchBatchSize = try reader.integer("NSBatchSize", of: object, in: 0...Int64(Int32.max)) ?? 0
        let rawResult = try reader.integer("NSResultType", of: object, in: 0...8) ?? 0
        request.resultType = NSFetchRequestResultType(rawValue: UInt(rawResult))
        if try reader.flag("NSHasFetchRequestFlags", of: object), let flags = try reader.integer("NSFetchRequestFlags", of: object) {
            let format = CompiledModelFormat.self
            request.returnsDistinctResults = flags & format.distinctResultsFlag != 0
            request.includesSubentities = flags & format.includesSubentitiesFlag != 0
            request.includesPropertyValues = flags & format.includesPropertyValuesFlag != 0
            request.returnsObjectsAsFaults = flags & format.returnsObjectsAsFaultsFlag != 0
            request.includesPendingChanges = flags & format.includesPendingChangesFlag != 0
            request.shouldRefreshRefetchedObjects = flags & format.refreshesRefetchedObjectsFlag != 0
        }
        if let list = try reader.reference("NSRelationshipKeyPathsForPrefetching", of: object) {
            request.relationshipKeyPathsForPrefetching = try reader.strings(ofObject: list, "the prefetched key paths of \(what)")
        }
        if let list = try reader.reference("NSValuesToFetch", of: object) {
            request.propertiesToFetch = try reader.strings(ofObject: list, "the properties to fetch of \(what)")
        }
        if let list = try reader.reference("NSValuesToGroupBy", of: object) {
            request.propertiesToGroupBy = try reader.strings(ofObject: list, "the properties to group by of \(what)")
        }
        if let having = try reader.reference("NSHavingPredicate", of: object) {
            request.havingPredicate = try predicates.predicate(having)
        }
        return request
    }

    // MARK: Values

    private mutating func userInfo(_ object: KeyedArchiveReader.Instance) throws(Failure) -> [AnyHashable: Any]? {
        guard let uid = try reader.reference("NSUserInfo", of: object) else { return nil }
        guard let dictionary = try values.value(ofObject: uid) as? [AnyHashable: Any] else {
            throw Failure("the user info of \(object.className) \(object.uid) is not a dictionary")
        }
        return dictionary
    }

    private func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return text
    }
}

/// Constants of the compiled model format shared by the decoder and the encoder.
enum CompiledModelFormat {
    /// Whether `index` is the one Apple's archives give an indexed property (`isIndexed`, the source's
    /// `indexed="YES"`): named after the property, of that property alone, binary and ascending.
    static func isIndexOfIndexedProperty(_ index: NSFetchIndexDescription, in entity: NSEntityDescription) -> Bool {
        guard let property = entity.propertiesByName[index.name], property._isIndexed, index.partialIndexPredicate == nil,
            index.elements.count == 1, let element = index.elements.first
        else { return false }
        return element.propertyName == property.name && element.collationType == .binary && element.isAscending
    }

    /// The index Apple's archives give an indexed property.
    static func indexOfIndexedProperty(_ property: NSPropertyDescription) -> NSFetchIndexDescription {
        NSFetchIndexDescription(name: property.name, elements: [NSFetchIndexElementDescription(property: property, collationType: .binary)])
    }

    /// `NSFlagsKey` bits of an attribute. 0x10 is verified (SampleModel `Person.id`); the others are this
    /// program's choice, no archive here having those flags set (Docs/StoreFormat.md).
    static let externalBinaryDataFlag: Int64 = 0x01
    static let preservesValueInHistoryFlag: Int64 = 0x10
    static let cloudEncryptionFlag: Int64 = 0x20

    /// `NSFetchRequestFlags` bits. Apple's archives hold 30 for a request with the defaults (subentities,
    /// property values, faults and pending changes on; distinct results and refreshing off); which bit is
    /// which of the four is this program's choice (Docs/StoreFormat.md).
    static let distinctResultsFlag: Int64 = 0x01
    static let includesSubentitiesFlag: Int64 = 0x02
    static let includesPropertyValuesFlag: Int64 = 0x04
    static let returnsObjectsAsFaultsFlag: Int64 = 0x08
    static let includesPendingChangesFlag: Int64 = 0x10
    static let refreshesRefetchedObjectsFlag: Int64 = 0x20
}
