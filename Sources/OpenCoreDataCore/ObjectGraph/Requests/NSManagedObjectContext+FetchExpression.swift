/// `FETCH(request, $context, countOnly)` expressions executed in a managed object context.
extension NSManagedObjectContext: ExpressionFetchPerformer {
    /// Executes a fetch request for a `FETCH` expression: the objects found, or their number when
    /// `countOnly` is true; `nil` when `request` is not a fetch request or the fetch fails.
    func _expressionFetch(_ request: Any?, countOnly: Bool) -> Any? {
        func run<T>(_ request: NSFetchRequest<T>) -> Any? {
            if countOnly { return try? count(for: request) }
            return try? fetch(request)
        }
        switch request {
        case let request as NSFetchRequest<NSManagedObject>: return run(request)
        case let request as NSFetchRequest<NSFetchRequestResult>: return run(request)
        case let request as NSFetchRequest<NSManagedObjectID>: return run(request)
        case let request as NSFetchRequest<NSDictionary>: return run(request)
        case let request as NSFetchRequest<NSNumber>: return run(request)
        default: return nil
        }
    }
}
