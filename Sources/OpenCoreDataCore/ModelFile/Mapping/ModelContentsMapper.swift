import Foundation

/// Builds a managed object model from the XML tree of a model file's `contents`.
///
/// The mapping follows what Xcode's model compiler produces from the same file: entities with their
/// properties, inheritance, relationship destinations and inverses resolved by name, fetch indexes,
/// uniqueness constraints, fetched properties, fetch request templates, configurations and the model's
/// version identifier. Elements and XML attributes the reader does not know (layout `<elements>`,
/// `syncable`, `codeGenerationType`, tool versions, …) are ignored.
struct ModelContentsMapper {
    /// The `contents` file the tree came from, for error messages.
    let file: URL
    /// The root `<model>` element.
    let root: ModelXMLElement

    /// Fills `model`, which must be empty and editable, from the tree.
    func populate(_ model: NSManagedObjectModel) throws {
        guard root.name == "model" else {
            throw ModelFileError.invalid(
                "the root element is <\(root.name)>, expected <model>; not a Core Data model file",
                at: .init(file: file, line: root.line))
        }
        let properties = PropertyMapping(file: file, composites: try compositeDefinitions())
        var entities: [NSEntityDescription] = []
        var elementsByEntity: [(element: ModelXMLElement, entity: NSEntityDescription)] = []
        var seen: [String: Int] = [:]
        for element in root.children(named: "entity") {
            let entity = try makeEntity(element, properties: properties)
            guard let name = entity.name else { continue }
            if let firstLine = seen[name] {
                throw ModelFileError.invalid(
                    "duplicate entity name (first declared on line \(firstLine))",
                    at: .init(file: file, line: element.line, entity: name))
            }
            seen[name] = element.line
            entities.append(entity)
            elementsByEntity.append((element, entity))
        }
        model.entities = entities
        let entitiesByName = model.entitiesByName

        try linkSuperentities(elementsByEntity, entitiesByName: entitiesByName)
        let requests = FetchRequestMapping(file: file, entitiesByName: entitiesByName)
        for (element, entity) in elementsByEntity {
            try properties.resolveRelationships(of: entity, element: element, entitiesByName: entitiesByName)
            try properties.resolveFetchedProperties(of: entity, element: element, requests: requests)
            try EntityIndexMapping(file: file).apply(to: entity, element: element)
        }
        for element in root.children(named: "fetchRequest") {
            let (name, request) = try requests.template(element)
            model.setFetchRequestTemplate(request, forName: name)
        }
        for element in root.children(named: "configuration") {
            try addConfiguration(element, to: model, entitiesByName: entitiesByName)
        }
        if let identifier = root["userDefinedModelVersionIdentifier"], !identifier.isEmpty {
            model.versionIdentifiers = [AnyHashable(identifier)]
        }
    }

    /// The `<composite name=…>` definitions, by name.
    private func compositeDefinitions() throws -> [String: ModelXMLElement] {
        var result: [String: ModelXMLElement] = [:]
        for element in root.children(named: "composite") {
            guard let name = element["name"], !name.isEmpty else {
                throw ModelFileError.invalid("a <composite> element has no name", at: .init(file: file, line: element.line))
            }
            if result[name] != nil {
                throw ModelFileError.invalid("duplicate composite name '\(name)'", at: .init(file: file, line: element.line))
            }
            result[name] = element
        }
        return result
    }

    /// An entity with its own properties; relationships are resolved later, once every entity exists.
    private func makeEntity(_ element: ModelXMLElement, properties: PropertyMapping) throws -> NSEntityDescription {
        guard let name = element["name"], !name.isEmpty else {
            throw ModelFileError.invalid("an <entity> element has no name", at: .init(file: file, line: element.line))
        }
        guard ModelNameRules.isValid(name) else {
            throw ModelFileError.invalid(ModelNameRules.problem(with: name, kind: "entity"), at: .init(file: file, line: element.line))
        }
        let entity = NSEntityDescription()
        entity.name = name
        if let className = element["representedClassName"], !className.isEmpty {
            entity.managedObjectClassName = className
        }
        entity.isAbstract = element.flag("isAbstract")
        entity.versionHashModifier = nonEmpty(element["versionHashModifier"])
        entity.renamingIdentifier = nonEmpty(element["elementID"])
        entity.userInfo = try UserInfoMapping.userInfo(of: element, file: file, entity: name)
        var own: [NSPropertyDescription] = []
        var lines: [String: Int] = [:]
        for child in element.children {
            let property: NSPropertyDescription
            switch child.name {
            case "attribute": property = try properties.attribute(child, entity: name)
            case "relationship": property = try properties.relationship(child, entity: name)
            case "fetchedProperty": property = try properties.fetchedProperty(child, entity: name)
            default: continue
            }
            if let firstLine = lines[property.name] {
                throw ModelFileError.invalid(
                    "duplicate property name (first declared on line \(firstLine))",
                    at: .init(file: file, line: child.line, entity: name, property: property.name))
            }
            lines[property.name] = child.line
            own.append(property)
        }
        entity.properties = own
        return entity
    }

    /// Sets each entity's superentity from its `parentEntity`, keeping subentities in file order.
    private func linkSuperentities(
        _ elements: [(element: ModelXMLElement, entity: NSEntityDescription)],
        entitiesByName: [String: NSEntityDescription]
    ) throws {
        var children: [ObjectIdentifier: [NSEntityDescription]] = [:]
        var parents: [(NSEntityDescription, NSEntityDescription)] = []
        for (element, entity) in elements {
            guard let parentName = element["parentEntity"], !parentName.isEmpty else { continue }
            guard let parent = entitiesByName[parentName] else {
                throw ModelFileError.invalid(
                    "parentEntity '\(parentName)' is not an entity of the model",
                    at: .init(file: file, line: element.line, entity: entity.name))
            }
            children[ObjectIdentifier(parent), default: []].append(entity)
            parents.append((parent, entity))
        }
        // Refuse cycles before linking, so no entity ever becomes its own ancestor.
        var parentNames: [String: String] = [:]
        for (element, entity) in elements {
            if let name = entity.name, let parent = element["parentEntity"], !parent.isEmpty { parentNames[name] = parent }
        }
        for (element, entity) in elements {
            guard let start = entity.name else { continue }
            var visited: Set<String> = [start]
            var current = parentNames[start]
            while let ancestor = current {
                if !visited.insert(ancestor).inserted {
                    throw ModelFileError.invalid(
                        "parentEntity forms a cycle through '\(ancestor)'",
                        at: .init(file: file, line: element.line, entity: start))
                }
                current = parentNames[ancestor]
            }
        }
        var assigned = Set<ObjectIdentifier>()
        for (parent, _) in parents where !assigned.contains(ObjectIdentifier(parent)) {
            assigned.insert(ObjectIdentifier(parent))
            parent.subentities = children[ObjectIdentifier(parent)] ?? []
        }
    }

    /// Adds a `<configuration>` with its `<memberEntity>` elements.
    private func addConfiguration(
        _ element: ModelXMLElement, to model: NSManagedObjectModel,
        entitiesByName: [String: NSEntityDescription]
    ) throws {
        guard let name = element["name"], !name.isEmpty else {
            throw ModelFileError.invalid("a <configuration> element has no name", at: .init(file: file, line: element.line))
        }
        var members: [NSEntityDescription] = []
        for member in element.children(named: "memberEntity") {
            guard let entityName = member["name"], let entity = entitiesByName[entityName] else {
                throw ModelFileError.invalid(
                    "configuration '\(name)' lists '\(member["name"] ?? "")', which is not an entity of the model",
                    at: .init(file: file, line: member.line))
            }
            members.append(entity)
        }
        model.setEntities(members, forConfigurationName: name)
    }

    private func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return text
    }
}

/// Reads `<userInfo><entry key=… value=…/></userInfo>`.
enum UserInfoMapping {
    /// The element's user info dictionary, or `nil` when it has none.
    static func userInfo(of element: ModelXMLElement, file: URL, entity: String?, property: String? = nil) throws -> [AnyHashable: Any]? {
        guard let info = element.child(named: "userInfo") else { return nil }
        var result: [AnyHashable: Any] = [:]
        for entry in info.children(named: "entry") {
            guard let key = entry["key"] else {
                throw ModelFileError.invalid(
                    "a userInfo <entry> has no key",
                    at: .init(file: file, line: entry.line, entity: entity, property: property))
            }
            result[key] = entry["value"] ?? ""
        }
        return result
    }
}
