/// The consistency checks a model must pass before a persistent store coordinator uses it: entity
/// names present and unique, superentities in the model and no inheritance cycles, no abstract entity
/// without a concrete subentity, property names unique along each inheritance chain, relationships with
/// a destination in the model, a consistent inverse and a minimum count not above the maximum, and
/// uniqueness constraints and indexes that name properties of their entity.
///
/// Problems are reported as `NSError`s in `NSCocoaErrorDomain` with code ``NSCoreDataError`` (134060,
/// "general Core Data error"): Core Data documents no error code for an inconsistent model (Apple raises
/// an exception when such a model is used), and this is the closest documented code. The message names
/// the entity and the property; the userInfo also carries them under ``ModelValidation/entityKey`` and
/// ``ModelValidation/propertyKey``. When a model has several problems, the error describes the first and
/// lists every problem's error under ``NSDetailedErrorsKey``.
enum ModelValidation {
    /// The userInfo key of the name of the entity at fault.
    static let entityKey = "NSEntityName"
    /// The userInfo key of the name of the property at fault.
    static let propertyKey = "NSPropertyName"

    /// Checks the model; throws an error describing every problem found.
    static func validate(_ model: NSManagedObjectModel) throws {
        var problems: [NSError] = []
        func report(_ message: String, entity: String?, property: String? = nil) {
            var userInfo: [String: Any] = [NSLocalizedDescriptionKey: message]
            if let entity { userInfo[entityKey] = entity }
            if let property { userInfo[propertyKey] = property }
            problems.append(NSError(domain: NSCocoaErrorDomain, code: NSCoreDataError, userInfo: userInfo))
        }

        let entities = model._entities
        var seenNames = Set<String>()
        for (position, entity) in entities.enumerated() {
            guard let name = entity._name, !name.isEmpty else {
                report("The entity at position \(position) of the model has no name.", entity: nil)
                continue
            }
            if !seenNames.insert(name).inserted {
                report("The model has more than one entity named \(name).", entity: name)
            }
        }

        for entity in entities {
            let entityName = entity._name ?? ""
            checkInheritance(of: entity, named: entityName, in: model, report: report)
            checkPropertyNames(of: entity, named: entityName, report: report)
            checkConstraintsAndIndexes(of: entity, named: entityName, report: report)
            for case let relationship as NSRelationshipDescription in entity._properties {
                checkRelationship(relationship, of: entity, named: entityName, in: model, report: report)
            }
        }

        for configuration in model._configurationOrder {
            for member in model._configurations[configuration] ?? [] where !entities.contains(where: { $0 === member }) {
                report(
                    "The configuration \(configuration) includes the entity \(member._name ?? "(unnamed)"), which is not in the model.",
                    entity: member._name)
            }
        }

        guard let first = problems.first else { return }
        if problems.count == 1 { throw first }
        var userInfo = first.userInfo
        userInfo[NSLocalizedDescriptionKey] =
            "\(first.localizedDescription) (and \(problems.count - 1) more model problem\(problems.count == 2 ? "" : "s"))"
        userInfo[NSDetailedErrorsKey] = problems
        throw NSError(domain: NSCocoaErrorDomain, code: NSCoreDataError, userInfo: userInfo)
    }

    private static func checkInheritance(
        of entity: NSEntityDescription, named name: String,
        in model: NSManagedObjectModel,
        report: (String, String?, String?) -> Void
    ) {
        if let parent = entity._superentity, !model._entities.contains(where: { $0 === parent }) {
            report("The superentity \(parent._name ?? "(unnamed)") of the entity \(name) is not in the model.", name, nil)
        }
        var visited: [NSEntityDescription] = [entity]
        var ancestor = entity._superentity
        while let current = ancestor {
            if visited.contains(where: { $0 === current }) {
                report("The entity \(name) inherits from itself.", name, nil)
                break
            }
            visited.append(current)
            ancestor = current._superentity
        }
        if entity._isAbstract && !hasConcreteDescendant(entity) {
            report("The abstract entity \(name) has no concrete subentity, so it can have no instances.", name, nil)
        }
    }

    private static func hasConcreteDescendant(_ entity: NSEntityDescription) -> Bool {
        var pending = entity._subentities
        var visited: [NSEntityDescription] = [entity]
        while let next = pending.popLast() {
            if visited.contains(where: { $0 === next }) { continue }
            visited.append(next)
            if !next._isAbstract { return true }
            pending.append(contentsOf: next._subentities)
        }
        return false
    }

    private static func checkPropertyNames(
        of entity: NSEntityDescription, named name: String,
        report: (String, String?, String?) -> Void
    ) {
        var own = Set<String>()
        for property in entity._properties {
            if property._name.isEmpty {
                report("A property of the entity \(name) has no name.", name, nil)
            } else if !own.insert(property._name).inserted {
                report("The entity \(name) has more than one property named \(property._name).", name, property._name)
            }
        }
        var ancestor = entity._superentity
        var visited: [NSEntityDescription] = [entity]
        while let current = ancestor, !visited.contains(where: { $0 === current }) {
            visited.append(current)
            for property in current._properties where own.contains(property._name) {
                report(
                    "The property \(property._name) of the entity \(name) has the same name as a property of its superentity \(current._name ?? "(unnamed)").",
                    name, property._name)
            }
            ancestor = current._superentity
        }
    }

    private static func checkConstraintsAndIndexes(
        of entity: NSEntityDescription, named name: String,
        report: (String, String?, String?) -> Void
    ) {
        let known = entity.propertiesByName
        for tuple in entity._uniquenessConstraintNames {
            for property in tuple where known[property] == nil {
                report(
                    "A uniqueness constraint of the entity \(name) names \(property), which is not a property of the entity.",
                    name, property)
            }
        }
        for index in entity._indexes {
            for element in index._elements {
                if let property = element._property {
                    if known[property._name] !== property {
                        report(
                            "The index \(index._name) of the entity \(name) uses the property \(property._name), which is not a property of the entity.",
                            name, property._name)
                    }
                } else if let property = element._propertyName, known[property] == nil {
                    report(
                        "The index \(index._name) of the entity \(name) names \(property), which is not a property of the entity.",
                        name, property)
                }
            }
        }
    }

    private static func checkRelationship(
        _ relationship: NSRelationshipDescription, of entity: NSEntityDescription,
        named name: String, in model: NSManagedObjectModel,
        report: (String, String?, String?) -> Void
    ) {
        let property = relationship._name
        if relationship._minCount < 0 || relationship._maxCount < 0 {
            report(
                "The relationship \(property) of the entity \(name) has a negative count (minimum \(relationship._minCount), maximum \(relationship._maxCount)).",
                name, property)
        }
        if relationship._maxCount > 0 && relationship._minCount > relationship._maxCount {
            report(
                "The relationship \(property) of the entity \(name) has a minimum count (\(relationship._minCount)) above its maximum count (\(relationship._maxCount)).",
                name, property)
        }
        guard let destination = relationship._destinationEntity else {
            report("The relationship \(property) of the entity \(name) has no destination entity.", name, property)
            return
        }
        let destinationName = destination._name ?? "(unnamed)"
        if !model._entities.contains(where: { $0 === destination }) {
            report(
                "The destination entity \(destinationName) of the relationship \(property) of the entity \(name) is not in the model.",
                name, property)
        }
        guard let inverse = relationship._inverseRelationship else { return }
        let inverseName = inverse._name
        if let inverseEntity = inverse._entity, !destination.isKindOf(entity: inverseEntity) {
            report(
                "The inverse relationship \(inverseName) of the relationship \(property) of the entity \(name) belongs to \(inverseEntity._name ?? "(unnamed)"), not to the destination entity \(destinationName).",
                name, property)
        }
        if let back = inverse._inverseRelationship, back !== relationship {
            report(
                "The relationship \(property) of the entity \(name) names \(inverseName) as its inverse, but the inverse of \(inverseName) is \(back._name).",
                name, property)
        }
        if let inverseDestination = inverse._destinationEntity, !entity.isKindOf(entity: inverseDestination) {
            report(
                "The inverse relationship \(inverseName) of the relationship \(property) of the entity \(name) leads to \(inverseDestination._name ?? "(unnamed)"), which is neither \(name) nor one of its superentities.",
                name, property)
        }
    }
}
