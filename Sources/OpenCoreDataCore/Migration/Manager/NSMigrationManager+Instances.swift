/// What the default entity migration policy does: source instances fetched, destination instances
/// created from attribute mappings, relationships set from relationship mappings.
extension NSMigrationManager {
    /// The source instances an entity mapping migrates: the result of its source expression, or every
    /// instance of its source entity (without subentities, which have mappings of their own).
    func _sourceInstances(for mapping: NSEntityMapping, policy: NSEntityMigrationPolicy) throws -> [NSManagedObject] {
        if mapping.mappingType == .addEntityMappingType || mapping.mappingType == .removeEntityMappingType { return [] }
        guard let expression = mapping.sourceExpression else {
            guard let name = mapping.sourceEntityName else { return [] }
            let request = NSFetchRequest<NSManagedObject>(entityName: name)
            request.includesSubentities = false
            return try _fetchSources(request, mapping: mapping)
        }
        let variables = _variables(mapping: mapping, propertyMapping: nil, policy: policy, source: nil, destination: nil)
        if case .function(let name, let arguments) = expression.storage, name == FetchExpression.functionName, arguments.count == 3 {
            let request = arguments[0].expressionValue(with: nil, context: variables)
            try _throwExpressionError(mapping, what: "the source expression")
            guard let request = request as? NSFetchRequest<NSManagedObject> else {
                throw Self._error(
                    NSMigrationError,
                    "The source expression of the entity mapping \(mapping.name ?? "?") does not give a fetch request: \(expression).", url: nil)
            }
            return try _fetchSources(request, mapping: mapping)
        }
        let value = expression.expressionValue(with: nil, context: variables)
        try _throwExpressionError(mapping, what: "the source expression")
        return Self._objects(in: value)
    }

    /// Fetches source instances, as a source store error when the fetch fails.
    private func _fetchSources(_ request: NSFetchRequest<NSManagedObject>, mapping: NSEntityMapping) throws -> [NSManagedObject] {
        do {
            return try _sourceContext.fetch(request)
        } catch {
            throw Self._error(
                NSMigrationManagerSourceStoreError,
                "The source instances of the entity mapping \(mapping.name ?? "?") cannot be fetched: \(error.localizedDescription)", url: nil,
                underlying: error)
        }
    }

    /// The default instance creation: one destination instance, attributes from the attribute mappings.
    func _createDefaultDestinationInstance(
        for source: NSManagedObject, mapping: NSEntityMapping,
        policy: NSEntityMigrationPolicy
    ) throws {
        guard let entity = destinationEntity(for: mapping), let entityName = entity.name else {
            throw Self._error(
                NSMigrationError, "The entity mapping \(mapping.name ?? "?") has no destination entity to create instances of.", url: nil)
        }
        let destination = NSEntityDescription.insertNewObject(forEntityName: entityName, into: _destinationContext)
        var propertyMappings = mapping.attributeMappings ?? []
        if propertyMappings.isEmpty, mapping.mappingType == .copyEntityMappingType {
            let sourceAttributes = source.entity.attributesByName
            propertyMappings = entity.attributesByName.keys.sorted().filter { sourceAttributes[$0] != nil }
                .map { NSPropertyMapping(copying: $0, into: $0) }
        }
        for propertyMapping in propertyMappings {
            guard let name = propertyMapping.name, let expression = propertyMapping.valueExpression else { continue }
            guard let attribute = entity.attributesByName[name] else {
                throw Self._error(
                    NSMigrationError,
                    "The attribute mapping \(name) of the entity mapping \(mapping.name ?? "?") names no attribute of \(entityName).", url: nil)
            }
            let value = try _evaluate(
                expression, mapping: mapping, propertyMapping: propertyMapping, policy: policy,
                source: source, destination: destination)
            try _setAttribute(value, attribute, on: destination, mapping: mapping)
        }
        associate(sourceInstance: source, withDestinationInstance: destination, for: mapping)
    }

    /// The default relationship creation: each relationship mapping's value, for the instance's source.
    func _createDefaultRelationships(
        for destination: NSManagedObject, mapping: NSEntityMapping,
        policy: NSEntityMigrationPolicy
    ) throws {
        guard let source = sourceInstances(forEntityMappingName: mapping.name ?? "", destinationInstances: [destination]).first else { return }
        let entity = destination.entity
        var propertyMappings = mapping.relationshipMappings ?? []
        if propertyMappings.isEmpty, mapping.mappingType == .copyEntityMappingType {
            let sourceRelationships = source.entity.relationshipsByName
            propertyMappings = entity.relationshipsByName.keys.sorted().filter { sourceRelationships[$0] != nil }.map { name in
                let copy = NSPropertyMapping()
                copy.name = name
                copy.valueExpression = NSExpression(
                    format: "FUNCTION($manager, \"destinationInstancesForSourceRelationshipNamed:sourceInstances:\" , %@, $source.\(name))", name)
                return copy
            }
        }
        for propertyMapping in propertyMappings {
            guard let name = propertyMapping.name, let expression = propertyMapping.valueExpression else { continue }
            guard let relationship = entity.relationshipsByName[name] else {
                throw Self._error(
                    NSMigrationError,
                    "The relationship mapping \(name) of the entity mapping \(mapping.name ?? "?") names no relationship of \(entity.name ?? "?").",
                    url: nil)
            }
            let value = try _evaluate(
                expression, mapping: mapping, propertyMapping: propertyMapping, policy: policy,
                source: source, destination: destination)
            let objects = Self._objects(in: value)
            for object in objects
            where object.managedObjectContext !== _destinationContext
                || !(relationship.destinationEntity.map { object.entity.isKindOf(entity: $0) } ?? true)
            {
                throw Self._error(
                    NSMigrationError,
                    "The relationship mapping \(name) of the entity mapping \(mapping.name ?? "?") gives \(object.objectID), which is not a destination instance of \(relationship.destinationEntity?.name ?? "?").",
                    url: nil)
            }
            if relationship.isToMany {
                destination.setValue(relationship.isOrdered ? NSOrderedSet(array: objects) : NSSet(array: objects), forKey: name)
            } else {
                destination.setValue(objects.first, forKey: name)
            }
        }
    }

    /// Evaluates a value expression with the migration's variables bound.
    func _evaluate(
        _ expression: NSExpression, mapping: NSEntityMapping, propertyMapping: NSPropertyMapping?,
        policy: NSEntityMigrationPolicy, source: NSManagedObject?, destination: NSManagedObject?
    ) throws -> Any? {
        if let source, let key = MigrationExpressionCheck.missingSourceKey(in: expression, entity: source.entity) {
            throw Self._error(
                NSMigrationError,
                "The value expression of \(propertyMapping?.name ?? "?") in the entity mapping \(mapping.name ?? "?") reads $source.\(key), which the source entity \(source.entity.name ?? "?") does not have: \(expression).",
                url: nil)
        }
        let variables = _variables(mapping: mapping, propertyMapping: propertyMapping, policy: policy, source: source, destination: destination)
        let value = expression.expressionValue(with: source, context: variables)
        try _throwExpressionError(mapping, what: "the value expression of \(propertyMapping?.name ?? "?")")
        return value
    }

    /// The variables of an expression: `$manager`, `$entityMapping`, `$propertyMapping`,
    /// `$entityPolicy`, `$source`, `$destination`.
    private func _variables(
        mapping: NSEntityMapping, propertyMapping: NSPropertyMapping?, policy: NSEntityMigrationPolicy,
        source: NSManagedObject?, destination: NSManagedObject?
    ) -> NSMutableDictionary {
        let variables = NSMutableDictionary()
        variables[NSMigrationManagerKey] = self
        variables[NSMigrationEntityMappingKey] = mapping
        variables[NSMigrationEntityPolicyKey] = policy
        if let propertyMapping { variables[NSMigrationPropertyMappingKey] = propertyMapping }
        if let source { variables[NSMigrationSourceObjectKey] = source }
        if let destination { variables[NSMigrationDestinationObjectKey] = destination }
        return variables
    }

    /// Throws the error a function called by an expression threw, as a policy error.
    private func _throwExpressionError(_ mapping: NSEntityMapping, what: String) throws {
        guard let error = _expressionError else { return }
        _expressionError = nil
        let nsError = error as NSError
        if nsError.domain == NSCocoaErrorDomain, Self._migrationCodes.contains(nsError.code), nsError.code != NSEntityMigrationPolicyError {
            throw error
        }
        throw Self._error(
            NSEntityMigrationPolicyError, "Evaluating \(what) of the entity mapping \(mapping.name ?? "?") failed: \(error.localizedDescription)",
            url: nil, underlying: error)
    }

    /// Sets an attribute, or fails with a migration error naming it when the value does not fit.
    private func _setAttribute(
        _ value: Any?, _ attribute: NSAttributeDescription, on destination: NSManagedObject,
        mapping: NSEntityMapping
    ) throws {
        guard let value = EvaluationValues.flatten(value), !(value is NSNull) else {
            destination.setValue(nil, forKey: attribute.name)
            return
        }
        guard ManagedValueCoercion.canonical(value, for: attribute.attributeType) != nil else {
            throw Self._error(
                NSMigrationError,
                "The value \(value) (\(type(of: value))) computed by the entity mapping \(mapping.name ?? "?") does not fit the attribute \(attribute.name) (\(attribute.attributeType)) of \(destination.entity.name ?? "?").",
                url: nil)
        }
        destination.setValue(value, forKey: attribute.name)
    }

    /// The managed objects in a value: the value itself, or the elements of a collection.
    static func _objects(in value: Any?) -> [NSManagedObject] {
        guard let value = EvaluationValues.flatten(value), !(value is NSNull) else { return [] }
        if let object = value as? NSManagedObject { return [object] }
        return EvaluationValues.elements(of: value)?.compactMap { $0 as? NSManagedObject } ?? []
    }
}
