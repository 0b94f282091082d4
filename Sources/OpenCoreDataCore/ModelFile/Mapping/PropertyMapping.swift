import Foundation

/// Builds attribute, relationship and fetched property descriptions from their XML elements, and
/// resolves what refers to other entities once every entity exists.
struct PropertyMapping {
    let file: URL
    /// The model's `<composite>` definitions, by name.
    let composites: [String: ModelXMLElement]

    // MARK: Attributes

    /// An attribute (plain, derived or composite) from an `<attribute>` element.
    func attribute(_ element: ModelXMLElement, entity: String?, compositeChain: [String] = []) throws -> NSAttributeDescription {
        let name = try propertyName(element, entity: entity)
        let location = ModelFileError.Location(file: file, line: element.line, entity: entity, property: name)
        // No attributeType is Xcode's "Undefined" type, which it allows for transient attributes only.
        let typeName = nonEmpty(element["attributeType"]) ?? "Undefined"
        if typeName == "Undefined", !element.flag("transient") {
            throw ModelFileError.invalid("the attribute has no attributeType (Undefined is allowed for transient attributes only)", at: location)
        }
        guard let type = AttributeTypeNames.typesByName[typeName] else {
            let known = AttributeTypeNames.typesByName.keys.sorted().joined(separator: ", ")
            throw ModelFileError.invalid("unknown attributeType \"\(typeName)\" (known types: \(known))", at: location)
        }
        let attribute: NSAttributeDescription
        if type == .compositeAttributeType {
            attribute = try composite(element, location: location, chain: compositeChain)
        } else if element.flag("derived") {
            let derived = NSDerivedAttributeDescription()
            if let text = element["derivationExpression"], !text.isEmpty {
                derived.derivationExpression = try ModelPredicateText.expression(text, at: location, what: "derivationExpression")
            }
            attribute = derived
        } else {
            attribute = NSAttributeDescription()
        }
        attribute.name = name
        if type != .compositeAttributeType {
            attribute.attributeType = type
        }
        try applyCommonFlags(element, to: attribute, location: location)
        if let className = element["customClassName"], !className.isEmpty {
            attribute.attributeValueClassName = className
        }
        attribute.valueTransformerName = nonEmpty(element["valueTransformerName"])
        attribute.allowsExternalBinaryDataStorage = element.flag("allowsExternalBinaryDataStorage")
        attribute.allowsCloudEncryption = element.flag("allowsCloudEncryption")
        attribute.preservesValueInHistoryOnDeletion = element.flag("preserveAfterDeletion")
        attribute._usesScalarValueType = element.flag("usesScalarValueType")
        if let text = element["defaultValueString"] ?? (type == .dateAttributeType ? element["defaultDateTimeInterval"] : nil) {
            do {
                attribute.defaultValue = try ModelValueParsing.value(text, for: type, dateInterval: element["defaultDateTimeInterval"])
            } catch let failure as ModelValueParsing.Failure {
                throw ModelFileError.invalid("defaultValueString: \(failure.reason) for a \(typeName) attribute", at: location)
            }
        }
        try ValidationRuleMapping(location: location).apply(element, to: attribute, type: type)
        return attribute
    }

    /// A composite attribute whose elements come from the `<composite>` named by `composite=`.
    private func composite(
        _ element: ModelXMLElement, location: ModelFileError.Location,
        chain: [String]
    ) throws -> NSCompositeAttributeDescription {
        guard let compositeName = element["composite"], !compositeName.isEmpty else {
            throw ModelFileError.invalid("a Composite attribute needs a composite=\"…\" naming its <composite> definition", at: location)
        }
        guard let definition = composites[compositeName] else {
            throw ModelFileError.invalid(
                "composite '\(compositeName)' is not defined in the model (no <composite name=\"\(compositeName)\">)", at: location)
        }
        if chain.contains(compositeName) {
            throw ModelFileError.invalid("composite '\(compositeName)' contains itself", at: location)
        }
        let result = NSCompositeAttributeDescription()
        var elements: [NSAttributeDescription] = []
        for child in definition.children(named: "attribute") {
            elements.append(try attribute(child, entity: location.entity, compositeChain: chain + [compositeName]))
        }
        result.elements = elements
        return result
    }

    // MARK: Relationships

    /// A relationship from a `<relationship>` element; its destination and inverse are set by
    /// `resolveRelationships(of:element:entitiesByName:)`.
    func relationship(_ element: ModelXMLElement, entity: String?) throws -> NSRelationshipDescription {
        let name = try propertyName(element, entity: entity)
        let location = ModelFileError.Location(file: file, line: element.line, entity: entity, property: name)
        let relationship = NSRelationshipDescription()
        relationship.name = name
        try applyCommonFlags(element, to: relationship, location: location)
        relationship.minCount = try count(element, "minCount", location: location) ?? 0
        if let maxCount = try count(element, "maxCount", location: location) {
            relationship.maxCount = maxCount
        } else {
            relationship.maxCount = element.flag("toMany") ? 0 : 1
        }
        if relationship.maxCount != 0 && relationship.minCount > relationship.maxCount {
            throw ModelFileError.invalid("minCount \(relationship.minCount) is greater than maxCount \(relationship.maxCount)", at: location)
        }
        relationship.isOrdered = element.flag("ordered")
        relationship.deleteRule = try deleteRule(element["deletionRule"], location: location)
        return relationship
    }

    /// Sets the destination and inverse of every relationship `entity` declares.
    func resolveRelationships(
        of entity: NSEntityDescription, element: ModelXMLElement,
        entitiesByName: [String: NSEntityDescription]
    ) throws {
        let own = Dictionary(entity.properties.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for child in element.children(named: "relationship") {
            guard let name = child["name"], let relationship = own[name] as? NSRelationshipDescription else { continue }
            let location = ModelFileError.Location(file: file, line: child.line, entity: entity.name, property: name)
            guard let destinationName = child["destinationEntity"], !destinationName.isEmpty else {
                throw ModelFileError.invalid("the relationship has no destinationEntity", at: location)
            }
            guard let destination = entitiesByName[destinationName] else {
                throw ModelFileError.invalid("destinationEntity '\(destinationName)' is not an entity of the model", at: location)
            }
            relationship.destinationEntity = destination
            guard let inverseName = child["inverseName"], !inverseName.isEmpty else { continue }
            let inverseEntityName = nonEmpty(child["inverseEntity"]) ?? destinationName
            guard let inverseEntity = entitiesByName[inverseEntityName] else {
                throw ModelFileError.invalid("inverseEntity '\(inverseEntityName)' is not an entity of the model", at: location)
            }
            guard let inverse = inverseEntity.relationshipsByName[inverseName] else {
                throw ModelFileError.invalid(
                    "inverse relationship '\(inverseName)' is not a relationship of entity '\(inverseEntityName)'", at: location)
            }
            relationship.inverseRelationship = inverse
        }
    }

    // MARK: Fetched properties

    /// A fetched property from a `<fetchedProperty>` element; its request is set by
    /// `resolveFetchedProperties(of:element:requests:)`.
    func fetchedProperty(_ element: ModelXMLElement, entity: String?) throws -> NSFetchedPropertyDescription {
        let name = try propertyName(element, entity: entity)
        let location = ModelFileError.Location(file: file, line: element.line, entity: entity, property: name)
        let property = NSFetchedPropertyDescription()
        property.name = name
        try applyCommonFlags(element, to: property, location: location)
        return property
    }

    /// Sets the fetch request of every fetched property `entity` declares.
    func resolveFetchedProperties(
        of entity: NSEntityDescription, element: ModelXMLElement,
        requests: FetchRequestMapping
    ) throws {
        let own = Dictionary(entity.properties.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for child in element.children(named: "fetchedProperty") {
            guard let name = child["name"], let property = own[name] as? NSFetchedPropertyDescription else { continue }
            let location = ModelFileError.Location(file: file, line: child.line, entity: entity.name, property: name)
            guard let requestElement = child.child(named: "fetchRequest") else {
                throw ModelFileError.invalid("the fetched property has no <fetchRequest>", at: location)
            }
            property.fetchRequest = try requests.request(requestElement, location: location)
        }
    }

    // MARK: Shared

    /// Reads the flags every property kind has: optional, transient, modifiers, identifiers, user info.
    private func applyCommonFlags(
        _ element: ModelXMLElement, to property: NSPropertyDescription,
        location: ModelFileError.Location
    ) throws {
        property.isOptional = element.flag("optional")
        property.isTransient = element.flag("transient")
        property.versionHashModifier = nonEmpty(element["versionHashModifier"])
        property.renamingIdentifier = nonEmpty(element["elementID"])
        property.userInfo = try UserInfoMapping.userInfo(of: element, file: file, entity: location.entity, property: location.property)
        property.isIndexedBySpotlight = element.flag("spotlightIndexingEnabled")
        property._isIndexed = element.flag("indexed")
        property._isStoredInExternalRecord = element.flag("storedInTruthFile")
    }

    private func propertyName(_ element: ModelXMLElement, entity: String?) throws -> String {
        guard let name = element["name"], !name.isEmpty else {
            throw ModelFileError.invalid("an <\(element.name)> element has no name", at: .init(file: file, line: element.line, entity: entity))
        }
        guard ModelNameRules.isValid(name) else {
            throw ModelFileError.invalid(
                ModelNameRules.problem(with: name, kind: "property"),
                at: .init(file: file, line: element.line, entity: entity))
        }
        return name
    }

    private func count(_ element: ModelXMLElement, _ key: String, location: ModelFileError.Location) throws -> Int? {
        guard let text = element[key] else { return nil }
        guard let value = Int(text.trimmingCharacters(in: .whitespaces)), value >= 0 else {
            throw ModelFileError.invalid("\(key) \"\(text)\" is not a non-negative integer", at: location)
        }
        return value
    }

    private func deleteRule(_ text: String?, location: ModelFileError.Location) throws -> NSDeleteRule {
        switch text {
        case nil, "Nullify": return .nullifyDeleteRule
        case "Cascade": return .cascadeDeleteRule
        case "Deny": return .denyDeleteRule
        case "No Action": return .noActionDeleteRule
        case let other?:
            throw ModelFileError.invalid("unknown deletionRule \"\(other)\" (known: Nullify, Cascade, Deny, No Action)", at: location)
        }
    }

    private func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return text
    }
}
