import Foundation

/// The shape of the workloads, taken from GRDB's public performance suite: rows of ten 64-bit
/// integers, 50,000 inserted in one transaction, 200,000 fetched and every value read.
public enum Shape {
    /// Rows inserted by the insert workload.
    public static let insertCount = 50_000
    /// Rows read by the fetch workload.
    public static let fetchCount = 200_000
    /// Rows read by each fetch of the small-fetch workload.
    public static let smallFetchCount = 100
    /// Fetches the small-fetch workload runs over one connection or context.
    public static let smallFetchRepeats = 1_000
    /// Integer columns per row.
    public static let columnCount = 10

    /// The value of a column of a row: distinct per cell, cheap to compute.
    @inline(__always)
    public static func value(row: Int, column: Int) -> Int64 {
        Int64(row &* columnCount &+ column)
    }

    /// The sum of every value of `rows` rows: what a fetch workload returns when it read everything.
    public static func checksum(rows: Int) -> Int64 {
        var sum: Int64 = 0
        for row in 0..<rows {
            for column in 0..<columnCount { sum &+= value(row: row, column: column) }
        }
        return sum
    }
}

/// A fresh directory under the temporary directory, removed with its files when released.
public final class ScratchDirectory {
    /// The directory.
    public let url: URL

    public init(_ prefix: String = "ocd-bench") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A file in the directory.
    public func file(_ name: String) -> URL {
        url.appendingPathComponent(name)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}

/// A workload that failed in a way that says the contenders did not do the same work.
public struct WorkloadError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
