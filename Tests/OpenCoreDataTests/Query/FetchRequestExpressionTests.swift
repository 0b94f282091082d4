import OpenCoreData
import Testing

/// `NSFetchRequestExpression`: an expression that executes a fetch request in a context when evaluated,
/// made with `expression(forFetch:context:countOnly:)` or parsed from `FETCH(request, context, countOnly)`.
@Suite("Fetch request expressions")
struct FetchRequestExpressionTests {
    @Test("evaluating the expression fetches the request's objects, or counts them when count-only")
    func evaluation() throws {
        let stack = try GraphStack()
        let context = stack.context()
        try context.performAndWait {
            for name in ["Ann", "Bob", "Cy"] { context.make("Author", ["name": name]) }
            try context.save()
            let request = NSFetchRequest<NSManagedObject>(entityName: "Author")
            request.predicate = NSPredicate(format: "name != 'Bob'")
            let objects = NSFetchRequestExpression.expression(
                forFetch: NSExpression(forConstantValue: request),
                context: NSExpression(forConstantValue: context), countOnly: false)
            let fetch = try #require(objects as? NSFetchRequestExpression)
            #expect(fetch.expressionType == NSFetchRequestExpressionType)
            #expect(!fetch.isCountOnlyRequest)
            #expect(fetch.requestExpression.constantValue as? NSFetchRequest<NSManagedObject> === request)
            #expect(fetch.contextExpression.constantValue as? NSManagedObjectContext === context)
            let found = try #require(fetch.expressionValue(with: nil, context: nil) as? [NSManagedObject])
            #expect(Set(found.compactMap { $0.value(forKey: "name") as? String }) == ["Ann", "Cy"])

            let count = NSFetchRequestExpression.expression(
                forFetch: NSExpression(forConstantValue: request),
                context: NSExpression(forConstantValue: context), countOnly: true)
            #expect((count as? NSFetchRequestExpression)?.isCountOnlyRequest == true)
            #expect((count.expressionValue(with: nil, context: nil) as? Int) == 2)
        }
    }

    @Test("FETCH(…) in predicate text is a fetch request expression whose variables are substituted")
    func parsed() throws {
        let stack = try GraphStack()
        let context = stack.context()
        try context.performAndWait {
            context.make("Author", ["name": "Ann"])
            try context.save()
            let predicate = NSPredicate(format: "FETCH($request, $context, YES) == 1")
            let comparison = try #require(predicate as? NSComparisonPredicate)
            #expect(comparison.leftExpression is NSFetchRequestExpression)
            #expect(comparison.leftExpression.expressionType == NSFetchRequestExpressionType)
            #expect(
                comparison.leftExpression.description == "FETCH($request, $context, 1)"
                    || comparison.leftExpression.description == "FETCH($request, $context, YES)")
            let request = NSFetchRequest<NSManagedObject>(entityName: "Author")
            #expect(predicate.evaluate(with: nil, substitutionVariables: ["request": request, "context": context]))
        }
    }
}
