import Foundation

/// Renders a managed object model as an indented, readable tree: entities with their superentity and
/// abstractness, attributes with type names and flags, relationships with cardinality, inverse and delete
/// rule, fetched properties, indexes, uniqueness constraints, then the fetch request templates and the
/// configurations.
///
/// Entities are printed in the model's order; each entity lists only the properties it declares itself.
struct ModelTreePrinter {
    let model: NSManagedObjectModel

    /// The whole tree, ending with a newline.
    func render() -> String {
        var lines: [String] = []
        let entities = model.entities
        var header = "model: \(entities.count) \(entities.count == 1 ? "entity" : "entities")"
        let identifiers = model.versionIdentifiers.map { "\($0.base)" }.sorted()
        if !identifiers.isEmpty { header += ", version identifiers: \(identifiers.joined(separator: ", "))" }
        lines.append(header)
        for entity in entities {
            lines.append(contentsOf: render(entity))
        }
        let templates = model.fetchRequestTemplatesByName.sorted { $0.key < $1.key }
        if !templates.isEmpty {
            lines.append("fetch request templates:")
            for (name, request) in templates {
                lines.append("  \(name): \(describe(request))")
            }
        }
        let configurations = model.configurations
        if !configurations.isEmpty {
            lines.append("configurations:")
            for name in configurations {
                let members = (model.entities(forConfigurationName: name) ?? []).map { $0.name ?? "?" }
                lines.append("  \(name): \(members.isEmpty ? "(no entities)" : members.joined(separator: ", "))")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func render(_ entity: NSEntityDescription) -> [String] {
        var title = "entity \(entity.name ?? "(unnamed)")"
        if let superentity = entity.superentity { title += " : \(superentity.name ?? "(unnamed)")" }
        var notes: [String] = []
        if entity.isAbstract { notes.append("abstract") }
        if let className = entity.managedObjectClassName, className != "NSManagedObject" { notes.append("class \(className)") }
        if !notes.isEmpty { title += " (\(notes.joined(separator: ", ")))" }
        var lines = [title]
        let attributes = entity.properties.compactMap { $0 as? NSAttributeDescription }
        if !attributes.isEmpty {
            lines.append("  attributes:")
            for attribute in attributes {
                lines.append(contentsOf: render(attribute, indent: "    "))
            }
        }
        let relationships = entity.properties.compactMap { $0 as? NSRelationshipDescription }
        if !relationships.isEmpty {
            lines.append("  relationships:")
            for relationship in relationships {
                lines.append("    " + describe(relationship))
            }
        }
        let fetched = entity.properties.compactMap { $0 as? NSFetchedPropertyDescription }
        if !fetched.isEmpty {
            lines.append("  fetched properties:")
            for property in fetched {
                lines.append("    \(property.name): \(property.fetchRequest.map(describe) ?? "(no fetch request)")")
            }
        }
        if !entity.indexes.isEmpty {
            lines.append("  indexes:")
            for index in entity.indexes {
                let elements = index.elements.map { element -> String in
                    var text = "\(element.propertyName ?? "?") \(element.isAscending ? "ascending" : "descending")"
                    if element.collationType == .rTree { text += " (R-tree)" }
                    return text
                }
                lines.append("    \(index.name): \(elements.joined(separator: ", "))")
            }
        }
        let constraints = entity._uniquenessConstraintNames
        if !constraints.isEmpty {
            lines.append("  uniqueness constraints:")
            for tuple in constraints {
                lines.append("    (\(tuple.joined(separator: ", ")))")
            }
        }
        return lines
    }

    private func render(_ attribute: NSAttributeDescription, indent: String) -> [String] {
        var flags: [String] = []
        if attribute.isOptional { flags.append("optional") }
        if attribute.isTransient { flags.append("transient") }
        if attribute._isIndexed { flags.append("indexed") }
        if attribute.isIndexedBySpotlight { flags.append("spotlight") }
        if attribute.allowsExternalBinaryDataStorage { flags.append("external storage") }
        if attribute.allowsCloudEncryption { flags.append("cloud encrypted") }
        if attribute.preservesValueInHistoryOnDeletion { flags.append("preserved after deletion") }
        if let value = attribute.defaultValue { flags.append("default \(describe(value, type: attribute.attributeType))") }
        if let transformer = attribute.valueTransformerName { flags.append("transformer \(transformer)") }
        if let derived = attribute as? NSDerivedAttributeDescription, let expression = derived.derivationExpression {
            flags.append("derived \(expression.description)")
        }
        for predicate in attribute.validationPredicates {
            flags.append("validates \(predicate.predicateFormat)")
        }
        var type = AttributeTypeNames.name(of: attribute.attributeType)
        if attribute._attributeValueClassName != nil, let className = attribute.attributeValueClassName {
            type += " (\(className))"
        }
        var line = "\(indent)\(attribute.name): \(type)"
        if !flags.isEmpty { line += ", " + flags.joined(separator: ", ") }
        var lines = [line]
        if let composite = attribute as? NSCompositeAttributeDescription {
            for element in composite.elements {
                lines.append(contentsOf: render(element, indent: indent + "  "))
            }
        }
        return lines
    }

    private func describe(_ relationship: NSRelationshipDescription) -> String {
        var cardinality = [relationship.isToMany ? "to-many" : "to-one"]
        if relationship.isOrdered { cardinality.append("ordered") }
        if relationship.isOptional { cardinality.append("optional") }
        if relationship.isTransient { cardinality.append("transient") }
        let isDefaultMax = relationship.maxCount == (relationship.isToMany ? 0 : 1)
        if relationship.minCount != 0 || !isDefaultMax {
            let upper = relationship.maxCount == 0 ? "*" : "\(relationship.maxCount)"
            cardinality.append("\(relationship.minCount)...\(upper)")
        }
        var text = "\(relationship.name) -> \(relationship.destinationEntity?.name ?? "?") (\(cardinality.joined(separator: ", ")))"
        if let inverse = relationship.inverseRelationship {
            text += ", inverse \(inverse.name)"
        } else {
            text += ", no inverse"
        }
        text += ", delete rule \(describe(relationship.deleteRule))"
        return text
    }

    private func describe(_ rule: NSDeleteRule) -> String {
        switch rule {
        case .noActionDeleteRule: return "no action"
        case .nullifyDeleteRule: return "nullify"
        case .cascadeDeleteRule: return "cascade"
        case .denyDeleteRule: return "deny"
        }
    }

    private func describe(_ request: NSFetchRequest<NSFetchRequestResult>) -> String {
        var text = request.entityName ?? "?"
        if let predicate = request.predicate { text += " where \(predicate.predicateFormat)" }
        var options: [String] = []
        if request.fetchLimit > 0 { options.append("limit \(request.fetchLimit)") }
        if request.fetchBatchSize > 0 { options.append("batch \(request.fetchBatchSize)") }
        switch request.resultType {
        case .managedObjectIDResultType: options.append("object IDs")
        case .dictionaryResultType: options.append("dictionaries")
        case .countResultType: options.append("count")
        default: break
        }
        if request.returnsDistinctResults { options.append("distinct") }
        if !options.isEmpty { text += " [\(options.joined(separator: ", "))]" }
        return text
    }

    private func describe(_ value: Any, type: NSAttributeType) -> String {
        switch value {
        case let string as String:
            return "\"\(string)\""
        case let date as Date:
            let formatter = ISO8601DateFormatter()
            formatter.timeZone = TimeZone(secondsFromGMT: 0)
            return formatter.string(from: date)
        case let uuid as UUID:
            return uuid.uuidString
        case let url as URL:
            return url.absoluteString
        case let number as NSNumber where type == .booleanAttributeType:
            return number.boolValue ? "YES" : "NO"
        case let number as NSNumber:
            return number.description
        default:
            return "\(value)"
        }
    }
}

extension NSManagedObjectModel {
    /// A readable, indented description of the model: its entities with their attributes (type and
    /// flags), relationships (cardinality, inverse, delete rule), fetched properties, indexes and
    /// uniqueness constraints, followed by the fetch request templates and configurations.
    ///
    /// `ocd model print` prints this text. This property is an OpenCoreData addition.
    public var treeDescription: String {
        ModelTreePrinter(model: self).render()
    }
}
