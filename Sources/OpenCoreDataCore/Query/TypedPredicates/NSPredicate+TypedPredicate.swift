import Foundation

extension PredicateFormatInitializable where Self: NSPredicate {
    /// Creates a predicate equivalent to a type-safe `Predicate`, or returns `nil` when one of its
    /// expressions has no counterpart: an unsupported operation, a constant a store cannot compare, or a
    /// key path that names no persistent property.
    ///
    /// ```swift
    /// request.predicate = NSPredicate(#Predicate<Trip> { $0.name.contains("birthday") })
    /// ```
    public init?<Input: NSObject>(_ predicate: Foundation.Predicate<Input>) {
        guard let converted = try? NSPredicate.converted(predicate) as? Self else { return nil }
        self = converted
    }

    /// Creates a predicate equivalent to a type-safe `Predicate`, throwing an error that names the
    /// expression or key path that has no counterpart.
    ///
    /// This initializer is an OpenCoreData addition; Apple platforms offer only the failable
    /// ``init(_:)``. The error is an `NSError` in `NSCocoaErrorDomain` with code `NSFormattingError`.
    public init<Input: NSObject>(converting predicate: Foundation.Predicate<Input>) throws {
        let converted = try NSPredicate.converted(predicate)
        guard let result = converted as? Self else {
            throw NSError(
                domain: NSCocoaErrorDomain, code: NSFormattingError,
                userInfo: [
                    NSLocalizedDescriptionKey: "The predicate converts to \(type(of: converted)), not \(Self.self)"
                ])
        }
        self = result
    }
}

extension NSPredicate {
    static func converted<Input>(_ predicate: Foundation.Predicate<Input>) throws -> NSPredicate {
        let conversion = TypedPredicateConversion(input: predicate.variable.key)
        do {
            return try conversion.predicate(predicate.expression)
        } catch let error as TypedPredicateConversionError {
            throw error.nsError
        }
    }
}
