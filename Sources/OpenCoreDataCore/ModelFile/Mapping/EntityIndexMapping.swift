import Foundation

/// Reads an entity's indexes and uniqueness constraints.
///
/// - `<fetchIndex name=…>` with `<fetchIndexElement property= type= order=>` becomes an
///   `NSFetchIndexDescription` (`type` "Binary" or "RTree"; `order` "ascending" or "descending"). An
///   element written as `expression="…" expressionType="…"` instead of `property=` indexes an expression:
///   its property is an `NSExpressionDescription` named by the expression text.
/// - The older `<compoundIndexes><compoundIndex><index value=…/>` form becomes one binary, ascending
///   fetch index per compound index, named `compoundIndex` followed by its 1-based position.
/// - `<uniquenessConstraints><uniquenessConstraint><constraint value=…/>` becomes one tuple of property
///   names per constraint in `uniquenessConstraints`.
struct EntityIndexMapping {
    let file: URL

    /// Sets `entity`'s indexes and uniqueness constraints from its element.
    func apply(to entity: NSEntityDescription, element: ModelXMLElement) throws {
        let properties = entity.propertiesByName
        var indexes: [NSFetchIndexDescription] = []
        for indexElement in element.children(named: "fetchIndex") {
            indexes.append(try fetchIndex(indexElement, entity: entity, properties: properties))
        }
        var position = 0
        for group in element.children(named: "compoundIndexes") {
            for compound in group.children(named: "compoundIndex") {
                position += 1
                var elements: [NSFetchIndexElementDescription] = []
                for item in compound.children(named: "index") {
                    let property = try lookup(item["value"], in: properties, element: item, entity: entity, what: "compound index")
                    elements.append(NSFetchIndexElementDescription(property: property, collationType: .binary))
                }
                indexes.append(NSFetchIndexDescription(name: "compoundIndex\(position)", elements: elements))
            }
        }
        if !indexes.isEmpty {
            entity.indexes = indexes
        }
        var constraints: [[Any]] = []
        for group in element.children(named: "uniquenessConstraints") {
            for constraint in group.children(named: "uniquenessConstraint") {
                var tuple: [Any] = []
                for item in constraint.children(named: "constraint") {
                    let property = try lookup(item["value"], in: properties, element: item, entity: entity, what: "uniqueness constraint")
                    tuple.append(property.name)
                }
                if !tuple.isEmpty { constraints.append(tuple) }
            }
        }
        if !constraints.isEmpty {
            entity.uniquenessConstraints = constraints
        }
    }

    private func fetchIndex(
        _ element: ModelXMLElement, entity: NSEntityDescription,
        properties: [String: NSPropertyDescription]
    ) throws -> NSFetchIndexDescription {
        guard let name = element["name"], !name.isEmpty else {
            throw ModelFileError.invalid("a <fetchIndex> has no name", at: .init(file: file, line: element.line, entity: entity.name))
        }
        var elements: [NSFetchIndexElementDescription] = []
        for item in element.children(named: "fetchIndexElement") {
            let location = ModelFileError.Location(file: file, line: item.line, entity: entity.name, property: item["property"])
            let property: NSPropertyDescription
            if item["property"] == nil, let text = item["expression"] {
                property = try expressionElement(text, type: item["expressionType"], index: name, location: location)
            } else {
                property = try lookup(item["property"], in: properties, element: item, entity: entity, what: "fetch index '\(name)'")
            }
            let collation: NSFetchIndexElementType
            switch item["type"]?.lowercased() {
            case nil, "binary": collation = .binary
            case "rtree", "r-tree": collation = .rTree
            case let other?:
                throw ModelFileError.invalid("fetch index '\(name)': unknown element type \"\(other)\" (known: Binary, RTree)", at: location)
            }
            let description = NSFetchIndexElementDescription(property: property, collationType: collation)
            switch item["order"]?.lowercased() {
            case nil, "ascending": description.isAscending = true
            case "descending": description.isAscending = false
            case let other?:
                throw ModelFileError.invalid("fetch index '\(name)': unknown order \"\(other)\" (known: ascending, descending)", at: location)
            }
            elements.append(description)
        }
        return NSFetchIndexDescription(name: name, elements: elements)
    }

    /// An expression index element (`expression="…" expressionType="…"`): an expression description named
    /// by its expression text, with the expression's result type.
    private func expressionElement(
        _ text: String, type: String?, index: String,
        location: ModelFileError.Location
    ) throws -> NSExpressionDescription {
        let description = NSExpressionDescription()
        description.name = text
        description.expression = try ModelPredicateText.expression(text, at: location, what: "fetch index '\(index)' expression")
        if let type {
            guard let resultType = AttributeTypeNames.typesByName[type] else {
                throw ModelFileError.invalid("fetch index '\(index)': unknown expressionType \"\(type)\"", at: location)
            }
            description.expressionResultType = resultType
        }
        return description
    }

    private func lookup(
        _ name: String?, in properties: [String: NSPropertyDescription], element: ModelXMLElement,
        entity: NSEntityDescription, what: String
    ) throws -> NSPropertyDescription {
        guard let name, !name.isEmpty else {
            throw ModelFileError.invalid("\(what): an element names no property", at: .init(file: file, line: element.line, entity: entity.name))
        }
        guard let property = properties[name] else {
            throw ModelFileError.invalid(
                "\(what) names '\(name)', which is not a property of the entity",
                at: .init(file: file, line: element.line, entity: entity.name, property: name))
        }
        return property
    }
}
