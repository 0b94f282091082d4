import Foundation

extension NSManagedObject {
    /// The value of a fetched property: the objects its fetch request returns, with `$FETCH_SOURCE`
    /// standing for this object and `$FETCHED_PROPERTY` for the property's description. The request runs
    /// the first time the property is read and its result is kept until the object is refreshed.
    /// Returns an empty array when the request fails or the object has no context.
    func _fetchedPropertyValue(_ property: NSFetchedPropertyDescription) -> [Any] {
        if let cached = fetchedPropertyValues[property.name] { return cached }
        guard let context = _context, let template = property.fetchRequest else { return [] }
        let results = (try? FetchedPropertyRequest.run(template, source: self, property: property, in: context)) ?? []
        fetchedPropertyValues[property.name] = results
        return results
    }
}

/// Runs the fetch request of a fetched property for one source object.
enum FetchedPropertyRequest {
    static func run(
        _ template: NSFetchRequest<NSFetchRequestResult>, source: NSManagedObject,
        property: NSFetchedPropertyDescription, in context: NSManagedObjectContext
    ) throws -> [Any] {
        guard let request = template.copy() as? NSFetchRequest<NSFetchRequestResult> else { return [] }
        request._isImmutableTemplate = false
        if request._entity == nil, let name = request.entityName {
            request._entity = context.persistentStoreCoordinator?.managedObjectModel.entitiesByName[name]
        }
        let variables: [String: Any] = ["FETCH_SOURCE": source, "FETCHED_PROPERTY": property]
        if let predicate = request.predicate {
            request.predicate = ConstantFolding.fold(predicate.withSubstitutionVariables(variables))
        }
        return try context.fetch(request)
    }
}

/// Turns the parts of a predicate that do not depend on the evaluated object — key paths read from a
/// constant, such as `$FETCHED_PROPERTY.userInfo.minimum` once substituted — into constants, so that a
/// store can run the predicate.
enum ConstantFolding {
    static func fold(_ predicate: NSPredicate) -> NSPredicate {
        switch predicate {
        case let compound as NSCompoundPredicate:
            return NSCompoundPredicate(
                type: compound.compoundPredicateType,
                subpredicates: compound.subpredicates.compactMap { ($0 as? NSPredicate).map(fold) })
        case let comparison as NSComparisonPredicate where comparison.customSelector == nil:
            return NSComparisonPredicate(
                leftExpression: fold(comparison.leftExpression),
                rightExpression: fold(comparison.rightExpression),
                modifier: comparison.comparisonPredicateModifier,
                type: comparison.predicateOperatorType, options: comparison.options)
        default:
            return predicate
        }
    }

    static func fold(_ expression: NSExpression) -> NSExpression {
        guard case .keyPath(_, let operand) = expression.storage, isConstant(operand) else { return expression }
        return NSExpression(forConstantValue: expression.expressionValue(with: nil, context: nil))
    }

    private static func isConstant(_ expression: NSExpression) -> Bool {
        switch expression.storage {
        case .constant: return true
        case .keyPath(_, let operand): return isConstant(operand)
        default: return false
        }
    }
}
