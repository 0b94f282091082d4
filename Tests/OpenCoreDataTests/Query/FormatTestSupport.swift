import OpenCoreData

/// Helpers shared by the predicate format tests (parsing, printing, seeds, bad input).
enum FormatTest {
    /// Parses a predicate through the throwing entry point.
    static func predicate(_ format: String, _ arguments: Any?...) throws -> NSPredicate {
        try NSPredicate(validatingFormat: format, argumentArray: arguments.map { $0 as Any })
    }

    /// Parses a predicate expected to be a comparison.
    static func comparison(_ format: String, _ arguments: Any?...) throws -> NSComparisonPredicate {
        let parsed = try NSPredicate(validatingFormat: format, argumentArray: arguments.map { $0 as Any })
        guard let comparison = parsed as? NSComparisonPredicate else {
            throw FormatTestFailure(message: "\(format) parsed to \(type(of: parsed))")
        }
        return comparison
    }

    /// Parses a predicate expected to be a compound predicate.
    static func compound(_ format: String, _ arguments: Any?...) throws -> NSCompoundPredicate {
        let parsed = try NSPredicate(validatingFormat: format, argumentArray: arguments.map { $0 as Any })
        guard let compound = parsed as? NSCompoundPredicate else {
            throw FormatTestFailure(message: "\(format) parsed to \(type(of: parsed))")
        }
        return compound
    }

    /// Parses an expression through the throwing entry point.
    static func expression(_ format: String, _ arguments: Any?...) throws -> NSExpression {
        try NSExpression(validatingFormat: format, argumentArray: arguments.map { $0 as Any })
    }

    /// The subpredicates of a compound predicate, typed.
    static func subpredicates(_ compound: NSCompoundPredicate) -> [NSPredicate] {
        compound.subpredicates.compactMap { $0 as? NSPredicate }
    }

    /// Parses the predicate's own format text again.
    static func reparsed(_ predicate: NSPredicate) throws -> NSPredicate {
        try NSPredicate(validatingFormat: predicate.predicateFormat)
    }
}

/// A test precondition that did not hold.
struct FormatTestFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// An object with key-value access for predicate evaluation in the format tests.
final class FormatTestObject: NSObject, KeyValueCoding {
    let values: [String: Any]

    init(_ values: [String: Any]) {
        self.values = values
    }

    func value(forKey key: String) -> Any? { values[key] }
}
