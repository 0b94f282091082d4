/// Checks that the key paths a fetch request's predicate and sort descriptors read from its objects
/// name properties of its entity.
///
/// A fetch evaluated in memory (by the in-memory store, or over a context's unsaved changes) reads those
/// key paths with Key-Value Coding, which stops the program on a key an object does not have, as on
/// Apple platforms. Checked first, such a request throws instead, as the SQLite store's does when it
/// translates the request: `NSPersistentStoreUnsupportedRequestTypeError` (134091), naming the key path
/// and the entity. A predicate from text the user typed reaches a fetch in one piece.
enum FetchRequestKeyPaths {
    /// Throws when a key path of the request's predicate or sort descriptors names no property of its
    /// entity (or of the destination entity of a relationship it goes through).
    static func check<Result>(_ request: NSFetchRequest<Result>, entity: NSEntityDescription) throws {
        if let predicate = request.predicate { try check(predicate, entity: entity) }
        for descriptor in request.sortDescriptors ?? [] {
            if let key = descriptor.key { try check(key, entity: entity) }
        }
    }

    private static func check(_ predicate: NSPredicate, entity: NSEntityDescription) throws {
        if let compound = predicate as? NSCompoundPredicate {
            for case let subpredicate as NSPredicate in compound.subpredicates { try check(subpredicate, entity: entity) }
        } else if let comparison = predicate as? NSComparisonPredicate {
            try check(comparison.leftExpression, entity: entity)
            try check(comparison.rightExpression, entity: entity)
        }
    }

    private static func check(_ expression: NSExpression, entity: NSEntityDescription) throws {
        switch expression.storage {
        case let .keyPath(path, operand):
            // Read from the evaluated object; otherwise from a variable (a subquery's) or another value.
            if case .evaluatedObject = operand.storage { return try check(path, entity: entity) }
            try check(operand, entity: entity)
        case let .function(_, arguments), let .aggregate(arguments):
            for argument in arguments { try check(argument, entity: entity) }
        case let .method(receiver, _, arguments):
            try check(receiver, entity: entity)
            for argument in arguments { try check(argument, entity: entity) }
        case let .unionSet(lhs, rhs), let .intersectSet(lhs, rhs), let .minusSet(lhs, rhs):
            try check(lhs, entity: entity)
            try check(rhs, entity: entity)
        case let .subquery(collection, _, _):
            // The subquery's own predicate reads its variable's objects.
            try check(collection, entity: entity)
        case let .conditional(predicate, whenTrue, whenFalse):
            try check(predicate, entity: entity)
            try check(whenTrue, entity: entity)
            try check(whenFalse, entity: entity)
        case .constant, .evaluatedObject, .variable, .anyKey, .block:
            break
        }
    }

    /// Follows a key path through the entity's relationships while it reads objects of the model.
    private static func check(_ keyPath: String, entity: NSEntityDescription) throws {
        var current = entity
        for key in keyPath.split(separator: ".", omittingEmptySubsequences: false) {
            if key == "self" || key == "SELF" { continue }
            let key = String(key)
            // A collection operator, or a key every object answers: what follows reads other values.
            if key.hasPrefix("@") || ManagedObjectBuiltInKeys.names.contains(key) { return }
            guard let property = current.propertiesByName[key] else {
                throw NSError(
                    domain: NSCocoaErrorDomain, code: NSPersistentStoreUnsupportedRequestTypeError,
                    userInfo: [
                        NSLocalizedDescriptionKey:
                            "keypath \"\(keyPath)\" not found in entity \"\(current.name ?? "")\": \"\(key)\" is not a property"
                    ])
            }
            // An attribute's value (a composite's elements, a transformable value's keys) is not checked.
            guard let destination = (property as? NSRelationshipDescription)?.destinationEntity else { return }
            current = destination
        }
    }
}
