import Foundation
import GRDBSQLite
import OpenCoreData

/// The typed-predicate workloads (issue 49): what a `#Predicate` costs beside the format string that
/// says the same, converting alone and converting then fetching.
public enum TypedPredicateShape {
    /// Readings in the fetch fixture.
    public static let rows = 10_000
    /// Fetches (and conversions) a run makes.
    public static let repeats = 1_000
    /// The lower bound on `amount`: fetch `i` reads the 50 readings of bucket `i % 100` with an amount of
    /// at least this.
    public static let threshold: Int64 = 5_000

    static func bucket(_ iteration: Int) -> Int64 { Int64(iteration % ReadingModel.buckets) }

    /// Σ over the fetches of the amounts they read.
    public static var expectedSum: Int64 {
        var total: Int64 = 0
        for iteration in 0..<repeats {
            let wanted = Self.bucket(iteration)
            for row in Int(threshold)..<rows where ReadingModel.bucket(row) == wanted { total += ReadingModel.amount(row) }
        }
        return total
    }

    /// The typed predicate of fetch `iteration`, converted.
    static func converted(_ iteration: Int) throws -> OpenCoreData.NSPredicate {
        let wanted = Self.bucket(iteration), least = Self.threshold
        return try NSPredicate(converting: #Predicate<Reading> { $0.bucket == wanted && $0.amount >= least })
    }

    /// The format-string predicate of fetch `iteration`.
    static func parsed(_ iteration: Int) -> OpenCoreData.NSPredicate {
        NSPredicate(format: "bucket == %lld AND amount >= %lld", bucket(iteration), threshold)
    }

    /// Fetches with `predicate(i)` for every `i`, reading every amount.
    static func fetchAll(_ context: NSManagedObjectContext, _ predicate: (Int) throws -> OpenCoreData.NSPredicate) throws -> Int64 {
        try context.performAndWait {
            var total: Int64 = 0
            for iteration in 0..<repeats {
                let request = NSFetchRequest<Reading>(entityName: "Reading")
                request.predicate = try predicate(iteration)
                for reading in try context.fetch(request) { total += reading.amount }
            }
            return total
        }
    }
}

/// OpenCoreData: `NSPredicate(converting: #Predicate<Reading> { … })` then a fetch, every time.
public struct OpenCoreDataTypedPredicateFetch: Contender {
    public static let name = "OpenCoreData #Predicate"
    let context: NSManagedObjectContext
    public init(url: URL) throws { context = try ReadingModel.context(at: url) }
    public func run() throws -> Int64 { try TypedPredicateShape.fetchAll(context, TypedPredicateShape.converted) }
}

/// OpenCoreData: `NSPredicate(format: "bucket == %lld AND amount >= %lld", …)` then a fetch, every time.
public struct OpenCoreDataFormatPredicateFetch: Contender {
    public static let name = "OpenCoreData format string"
    let context: NSManagedObjectContext
    public init(url: URL) throws { context = try ReadingModel.context(at: url) }
    public func run() throws -> Int64 { try TypedPredicateShape.fetchAll(context, TypedPredicateShape.parsed) }
}

/// Raw SQLite: one prepared `SELECT ZAMOUNT FROM ZREADING WHERE ZBUCKET = ? AND ZAMOUNT >= ?`, bound and
/// stepped for every fetch.
public final class RawSQLitePredicateFetch: Contender {
    public static let name = "raw SQLite"
    let connection: RawConnection
    public init(url: URL) throws { connection = try RawConnection(url: url) }

    public func run() throws -> Int64 {
        let statement = try connection.prepare("SELECT ZAMOUNT FROM ZREADING WHERE ZBUCKET = ? AND ZAMOUNT >= ?")
        defer { sqlite3_finalize(statement) }
        var total: Int64 = 0
        for iteration in 0..<TypedPredicateShape.repeats {
            sqlite3_reset(statement)
            sqlite3_bind_int64(statement, 1, TypedPredicateShape.bucket(iteration))
            sqlite3_bind_int64(statement, 2, TypedPredicateShape.threshold)
            while sqlite3_step(statement) == SQLITE_ROW { total += sqlite3_column_int64(statement, 0) }
        }
        return total
    }
}

/// Converting alone: `TypedPredicateShape.repeats` typed predicates made and converted; returns the
/// number of comparisons the converted predicates hold (two each).
public struct TypedPredicateConverting: Contender {
    public static let name = "#Predicate converted"
    public init(url: URL) throws {}
    public func run() throws -> Int64 {
        var comparisons: Int64 = 0
        for iteration in 0..<TypedPredicateShape.repeats {
            comparisons += Int64((try TypedPredicateShape.converted(iteration) as? OpenCoreData.NSCompoundPredicate)?.subpredicates.count ?? 0)
        }
        return comparisons
    }
}

/// Parsing alone: the same number of format strings parsed; returns the comparisons they hold.
public struct FormatPredicateParsing: Contender {
    public static let name = "format string parsed"
    public init(url: URL) throws {}
    public func run() throws -> Int64 {
        var comparisons: Int64 = 0
        for iteration in 0..<TypedPredicateShape.repeats {
            comparisons += Int64((TypedPredicateShape.parsed(iteration) as? OpenCoreData.NSCompoundPredicate)?.subpredicates.count ?? 0)
        }
        return comparisons
    }
}
