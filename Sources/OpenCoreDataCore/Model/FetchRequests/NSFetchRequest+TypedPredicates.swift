import Foundation

extension NSFetchRequest where ResultType: NSObject {
    /// Creates a fetch request for the entity with the given name, filtered by a type-safe predicate and
    /// ordered by type-safe sort descriptors.
    ///
    /// This initializer is an OpenCoreData addition; on Apple platforms, convert with
    /// `NSPredicate(_:)` and `NSSortDescriptor(_:)` and set ``predicate`` and ``sortDescriptors``.
    ///
    /// ```swift
    /// let request = try NSFetchRequest<Trip>(entityName: "Trip",
    ///                                        predicate: #Predicate { $0.nights > 2 },
    ///                                        sortBy: [SortDescriptor(\.startDate, order: .reverse)])
    /// ```
    ///
    /// - Throws: An `NSError` in `NSCocoaErrorDomain` with code `NSFormattingError` when the predicate
    ///   has no `NSPredicate` counterpart or a sort descriptor's key path names no property; the error
    ///   names the expression or key path.
    public convenience init(
        entityName: String, predicate: Foundation.Predicate<ResultType>?,
        sortBy sortDescriptors: [SortDescriptor<ResultType>] = []
    ) throws {
        self.init(entityName: entityName)
        try setPredicate(predicate)
        if !sortDescriptors.isEmpty { try setSortDescriptors(sortDescriptors) }
    }

    /// Sets ``predicate`` to the equivalent of a type-safe predicate, or to `nil`.
    ///
    /// This method is an OpenCoreData addition. It throws where `NSPredicate(_:)` returns `nil`: an
    /// `NSError` in `NSCocoaErrorDomain` with code `NSFormattingError` that names the expression or key
    /// path with no counterpart; the request is then left unchanged.
    public func setPredicate(_ predicate: Foundation.Predicate<ResultType>?) throws {
        self.predicate = try predicate.map { try NSPredicate(converting: $0) }
    }

    /// Sets ``sortDescriptors`` to the equivalents of type-safe sort descriptors.
    ///
    /// This method is an OpenCoreData addition. It throws an `NSError` in `NSCocoaErrorDomain` with code
    /// `NSFormattingError` when a sort descriptor's key path names no property (where Apple platforms
    /// stop the program); the request is then left unchanged.
    public func setSortDescriptors(_ sortDescriptors: [SortDescriptor<ResultType>]) throws {
        var converted: [NSSortDescriptor] = []
        for descriptor in sortDescriptors {
            let object = NSSortDescriptor(descriptor)
            guard object.key != nil else {
                let keyPath = descriptor.keyPath.map { String(describing: $0) } ?? "(none)"
                throw NSError(
                    domain: NSCocoaErrorDomain, code: NSFormattingError,
                    userInfo: [
                        NSLocalizedDescriptionKey: "The sort descriptor's key path \(keyPath) names no persistent property of \(ResultType.self)"
                    ])
            }
            converted.append(object)
        }
        self.sortDescriptors = converted
    }
}
