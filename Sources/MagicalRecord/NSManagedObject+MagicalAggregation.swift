import OpenCoreData

extension NSManagedObject {
    // MARK: Counting

    /// Returns the number of objects of the class's entity, as a number.
    public class func mr_numberOfEntities() -> NSNumber {
        mr_numberOfEntities(with: NSManagedObjectContext.mr_currentThreadContext())
    }

    /// Returns the number of objects of the class's entity in `context`, as a number.
    public class func mr_numberOfEntities(with context: NSManagedObjectContext) -> NSNumber {
        NSNumber(value: mr_countOfEntities(with: nil, in: context))
    }

    /// Returns the number of objects that match `searchTerm`, as a number.
    public class func mr_numberOfEntities(with searchTerm: NSPredicate?) -> NSNumber {
        mr_numberOfEntities(with: searchTerm, in: NSManagedObjectContext.mr_currentThreadContext())
    }

    /// Returns the number of objects in `context` that match `searchTerm`, as a number.
    public class func mr_numberOfEntities(with searchTerm: NSPredicate?, in context: NSManagedObjectContext) -> NSNumber {
        NSNumber(value: mr_countOfEntities(with: searchTerm, in: context))
    }

    /// Returns the number of objects of the class's entity.
    public class func mr_countOfEntities() -> UInt {
        mr_countOfEntities(with: NSManagedObjectContext.mr_currentThreadContext())
    }

    /// Returns the number of objects of the class's entity in `context`.
    public class func mr_countOfEntities(with context: NSManagedObjectContext) -> UInt {
        mr_countOfEntities(with: nil, in: context)
    }

    /// Returns the number of objects that match `searchFilter`.
    public class func mr_countOfEntities(with searchFilter: NSPredicate?) -> UInt {
        mr_countOfEntities(with: searchFilter, in: NSManagedObjectContext.mr_currentThreadContext())
    }

    /// Returns the number of objects in `context` that match `searchFilter`, counting the context's
    /// unsaved changes; 0 (the error handed to ``MagicalRecord/handleErrors(_:)``) when the count fails.
    public class func mr_countOfEntities(with searchFilter: NSPredicate?, in context: NSManagedObjectContext) -> UInt {
        let request = mr_createFetchRequest(in: context)
        if let searchFilter { request.predicate = searchFilter }
        return context.performAndWait { () -> UInt in
            do {
                return UInt(try context.count(for: request))
            } catch {
                MagicalRecord.handleErrors(error as NSError)
                return 0
            }
        }
    }

    /// Returns whether there is at least one object of the class's entity.
    public class func mr_hasAtLeastOneEntity() -> Bool {
        mr_hasAtLeastOneEntity(in: NSManagedObjectContext.mr_currentThreadContext())
    }

    /// Returns whether `context` has at least one object of the class's entity.
    public class func mr_hasAtLeastOneEntity(in context: NSManagedObjectContext) -> Bool {
        mr_numberOfEntities(with: context).intValue > 0
    }

    // MARK: Minimum and maximum

    /// Returns the smallest value of `property` among the objects of the receiver's entity in its
    /// context.
    public func mr_minValue(for property: String) -> Any? {
        mr_extremeValue(of: property, function: "min:")
    }

    /// Returns the largest value of `property` among the objects of the receiver's entity in its context.
    public func mr_maxValue(for property: String) -> Any? {
        mr_extremeValue(of: property, function: "max:")
    }

    /// The result of the aggregate `function` over `property` in the receiver's context.
    private func mr_extremeValue(of property: String, function: String) -> Any? {
        guard let context = managedObjectContext else { return nil }
        return Self.mr_aggregate(function, onAttribute: property, entity: entity, with: nil, in: context)
    }

    /// Returns the receiver when its `property` holds the smallest value of its entity, else `nil`.
    public func mr_objectWithMinValue(for property: String) -> Self? {
        guard let context = managedObjectContext else { return nil }
        return mr_objectWithMinValue(for: property, in: context)
    }

    /// Returns the object of `context` with the receiver's ID when its `property` holds the smallest
    /// value of its entity, else `nil`.
    public func mr_objectWithMinValue(for property: String, in context: NSManagedObjectContext) -> Self? {
        guard let minimum = Self.mr_aggregate("min:", onAttribute: property, entity: entity, with: nil, in: context) else { return nil }
        let request = NSFetchRequest<NSFetchRequestResult>()
        request.entity = entity
        request.predicate = NSPredicate(format: "SELF = %@ AND %K = %@", self, property, minimum)
        return Self.mr_executeFetchRequestAndReturnFirstObject(request, in: context)
    }

    // MARK: Aggregates

    /// Returns the result of the aggregate function `function` (`"sum:"`, `"average:"`, `"min:"`,
    /// `"max:"`, `"count:"`, …) over `attributeName` for the objects that match `predicate`.
    public class func mr_aggregateOperation(
        _ function: String, onAttribute attributeName: String,
        with predicate: NSPredicate?
    ) -> Any? {
        mr_aggregateOperation(function, onAttribute: attributeName, with: predicate, in: NSManagedObjectContext.mr_currentThreadContext())
    }

    /// Returns the result of `function` over `attributeName` for the objects in `context` that match
    /// `predicate`, computed by the store (a dictionary fetch with an expression).
    public class func mr_aggregateOperation(
        _ function: String, onAttribute attributeName: String,
        with predicate: NSPredicate?, in context: NSManagedObjectContext
    ) -> Any? {
        guard let entity = mr_entityDescription(in: context) else { return nil }
        return mr_aggregate(function, onAttribute: attributeName, entity: entity, with: predicate, in: context)
    }

    /// Returns one dictionary per value of `groupingKeyPath`: that value, and under `"result"` the
    /// result of `function` over `attributeName` for the group's objects that match `predicate`.
    public class func mr_aggregateOperation(
        _ function: String, onAttribute attributeName: String, with predicate: NSPredicate?,
        groupBy groupingKeyPath: String?
    ) -> [Any]? {
        mr_aggregateOperation(
            function, onAttribute: attributeName, with: predicate, groupBy: groupingKeyPath,
            in: NSManagedObjectContext.mr_currentThreadContext())
    }

    /// Returns one dictionary per value of `groupingKeyPath` in `context`, with the result of
    /// `function` over `attributeName` under `"result"`.
    public class func mr_aggregateOperation(
        _ function: String, onAttribute attributeName: String, with predicate: NSPredicate?,
        groupBy groupingKeyPath: String?, in context: NSManagedObjectContext
    ) -> [Any]? {
        guard let entity = mr_entityDescription(in: context) else { return nil }
        let request = mr_aggregateRequest(function, onAttribute: attributeName, entity: entity, with: predicate)
        if let groupingKeyPath {
            request.propertiesToFetch = [groupingKeyPath] + (request.propertiesToFetch ?? [])
            request.propertiesToGroupBy = [groupingKeyPath]
        }
        return mr_results(of: request, in: context)
    }

    /// The value under `"result"` of the aggregate request's one dictionary.
    static func mr_aggregate(
        _ function: String, onAttribute attributeName: String, entity: NSEntityDescription,
        with predicate: NSPredicate?, in context: NSManagedObjectContext
    ) -> Any? {
        let request = mr_aggregateRequest(function, onAttribute: attributeName, entity: entity, with: predicate)
        request.fetchLimit = 1
        guard let first = mr_results(of: request, in: context)?.first else { return nil }
        return (first as? [String: Any])?["result"] ?? (first as? NSDictionary)?["result"]
    }

    /// A dictionary request fetching `function(attributeName)` named `result`, typed as the attribute.
    static func mr_aggregateRequest(
        _ function: String, onAttribute attributeName: String, entity: NSEntityDescription,
        with predicate: NSPredicate?
    ) -> NSFetchRequest<NSFetchRequestResult> {
        let description = NSExpressionDescription()
        description.name = "result"
        description.expression = NSExpression(forFunction: function, arguments: [NSExpression(forKeyPath: attributeName)])
        description.expressionResultType = entity.attributesByName[attributeName]?.attributeType ?? .doubleAttributeType
        let request = NSFetchRequest<NSFetchRequestResult>()
        request.entity = entity
        request.predicate = predicate
        request.propertiesToFetch = [description]
        request.resultType = .dictionaryResultType
        return request
    }
}
