import Foundation
import GRDB

/// Writing what a SQLite connection runs to the SQL debug log, through SQLite's statement trace.
extension SQLDebugLog {
    /// Traces every statement the connection runs from now on: its SQL, and from level 2 its
    /// execution time, from level 3 its bound values. Query-plan statements the log runs itself are
    /// not traced.
    func trace(_ db: Database) {
        guard level > 0 else { return }
        var options: Database.TracingOptions = .statement
        if shows(.timing) { options.insert(.profile) }
        let log = self
        db.trace(options: options) { event in log.record(event) }
    }

    private func record(_ event: Database.TraceEvent) {
        switch event {
        case let .statement(statement):
            let sql = statement.sql
            guard let kind = Self.kind(ofStatement: sql) else { return }
            write(kind, "CoreData: sql: \(sql)")
            if shows(.boundValues) && shows(kind) && sql.contains("?") {
                let expanded = statement.expandedSQL
                if expanded != sql {
                    write(.boundValues, "CoreData: details: SQLite bound values: \(expanded)")
                }
            }
        case let .profile(statement, duration):
            let sql = statement.sql
            guard let kind = Self.kind(ofStatement: sql), shows(kind) else { return }
            write(.timing, "CoreData: annotation: sql execution time: \(Self.seconds(duration)) for \(sql)")
        }
    }

    /// The kind of a traced statement, or `nil` for the query-plan statements the log runs itself.
    static func kind(ofStatement sql: String) -> MessageKind? {
        let head = sql.prefix(while: { !$0.isWhitespace && $0 != ";" }).uppercased()
        switch head {
        case "EXPLAIN":
            return nil
        case "BEGIN", "COMMIT", "END", "ROLLBACK", "SAVEPOINT", "RELEASE":
            return .transaction
        case "PRAGMA":
            return .connection
        default:
            // The probes GRDB runs to open a connection and to start a read snapshot, and the
            // scratch table it creates and drops once to set up WAL.
            if sql.hasSuffix("FROM sqlite_master LIMIT 1") && head == "SELECT" { return .connection }
            if sql.contains("grdb_issue_102") { return .connection }
            return .statement
        }
    }

    /// A duration written as Core Data writes it: seconds with four decimals and an `s`.
    static func seconds(_ duration: TimeInterval) -> String {
        String(format: "%.4fs", duration)
    }

    /// Logs the query plan of a fetch statement, one message per plan line. A statement whose plan
    /// cannot be read is skipped: the fetch itself reports any error.
    func writeQueryPlan(of sql: String, arguments: StatementArguments, in db: Database) {
        guard shows(.queryPlan) else { return }
        guard let rows = try? Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments) else { return }
        write(.queryPlan, "CoreData: details: query plan for: \(sql)")
        for row in rows {
            let detail: String = row["detail"] ?? ""
            let id: Int64 = row["id"] ?? 0
            let parent: Int64 = row["parent"] ?? 0
            write(.queryPlan, "CoreData: details: query plan: \(id) \(parent) \(detail)")
        }
    }

    /// Starts timing work whose time the log reports; `nil` when the log would not show it.
    func startTiming(_ kind: MessageKind) -> DispatchTime? {
        shows(kind) ? DispatchTime.now() : nil
    }

    /// The seconds since a start returned by ``startTiming(_:)``.
    static func elapsed(since start: DispatchTime) -> TimeInterval {
        TimeInterval(DispatchTime.now().uptimeNanoseconds &- start.uptimeNanoseconds) / 1e9
    }
}
