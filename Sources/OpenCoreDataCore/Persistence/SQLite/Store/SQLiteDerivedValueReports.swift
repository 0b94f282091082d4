import GRDB

/// What a store's derived-attribute triggers report during a save (see ``SQLiteDerivedAttributeTriggers``):
/// the row and attribute each trigger changed and the value it left, the last report of a row and
/// attribute winning.
///
/// Reports are kept only between ``begin()`` and ``end()``, which a save calls around its writes on the
/// store's one writer connection; what triggers report at other times (a batch request) is dropped.
final class SQLiteDerivedValueReports: Sendable {
    /// One call of a reporting function.
    struct Report: Sendable {
        let table: String
        let entityNumber: Int64
        let primaryKey: Int64
        let attribute: String
        let value: DatabaseValue
    }

    /// The reports of the save being written, `nil` when no save is.
    private let reports = LockedValue<[Report]?>(nil)

    /// Starts keeping reports.
    func begin() {
        reports.value = []
    }

    /// Stops keeping reports and returns those since ``begin()``.
    func end() -> [Report] {
        reports.withLock { current in
            defer { current = nil }
            return current ?? []
        }
    }

    /// Keeps a report when a save is being written.
    func record(_ report: Report) {
        reports.withLock { current in current?.append(report) }
    }
}
