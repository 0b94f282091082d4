import Foundation
import GRDB

/// The SQL triggers with which Apple's Core Data keeps some derived attributes of a store up to date,
/// and the SQL functions those triggers call.
///
/// A store Apple's Core Data wrote can hold triggers named `Z_DA_<TABLE>_<Entity>_<attribute>_…` (for a
/// count of a to-many relationship: `_PARAMETER_INSERT`, `_PARAMETER_UPDATE_INCREMENT`,
/// `_PARAMETER_UPDATE_DECREMENT`, `_PARAMETER_DELETE` on the destination's table and `_SOURCE_INSERT` on
/// the entity's own). Their bodies change the derived column in SQL and then report the new value by
/// calling a function Core Data registers on its connections:
///
/// ```sql
/// SELECT NSCoreDataDATriggerUpdatedAffectedObjectValue('ZBOOK', Z_ENT, Z_PK, 'pagesCount', ZPAGESCOUNT) FROM ZBOOK WHERE …
/// ```
///
/// SQLite refuses a statement that fires such a trigger on a connection without those functions ("no
/// such function"), so every connection of the store registers them. They record what they are told
/// in the store's ``SQLiteDerivedValueReports`` while a save writes, and return NULL.
///
/// A column a trigger maintains is the trigger's alone: a save leaves it out of its `UPDATE`s (an
/// `INSERT`'s value is replaced by the `_SOURCE_INSERT` trigger at once), so that a value the context
/// derived and the trigger's increment are never both applied to it.
enum SQLiteDerivedAttributeTriggers {
    /// The function a trigger calls after changing a derived column of a row:
    /// `(table, Z_ENT, Z_PK, attribute name, new value)`.
    static let updatedAffectedObjectValue = "NSCoreDataDATriggerUpdatedAffectedObjectValue"
    /// The function an insert trigger calls after computing a new row's derived column (same arguments).
    static let insertUpdatedAffectedObjectValue = "NSCoreDataDATriggerInsertUpdatedAffectedObjectValue"
    /// The function other Apple-written triggers call with the same five arguments.
    static let updateAffectedObjectValue = "NSCoreDataTriggerUpdateAffectedObjectValue"
    /// The function a `now()` derivation's trigger calls: the current time in seconds since 2001-01-01 UTC,
    /// the way `TIMESTAMP` columns hold dates.
    static let now = "NSCoreDataNow"

    /// The prefix of the names of Apple's derived-attribute triggers.
    static let triggerNamePrefix = "Z_DA_"

    /// Registers the trigger functions on a connection; `reports` receives what they are told.
    static func register(in db: Database, reports: SQLiteDerivedValueReports?) {
        for name in [updatedAffectedObjectValue, insertUpdatedAffectedObjectValue, updateAffectedObjectValue] {
            db.add(
                function: DatabaseFunction(name, argumentCount: 5, pure: false) { arguments in
                    guard let reports,
                        case .string(let table) = arguments[0].storage,
                        case .int64(let entityNumber) = arguments[1].storage,
                        case .int64(let primaryKey) = arguments[2].storage,
                        case .string(let attribute) = arguments[3].storage
                    else { return nil }
                    reports.record(
                        SQLiteDerivedValueReports.Report(
                            table: table, entityNumber: entityNumber, primaryKey: primaryKey, attribute: attribute,
                            value: arguments[4]))
                    return nil
                })
        }
        db.add(
            function: DatabaseFunction(now, argumentCount: 0, pure: false) { _ in
                Date().timeIntervalSinceReferenceDate
            })
    }

    /// The columns the store's derived-attribute triggers maintain, by table: read from the reporting
    /// call of each `Z_DA_` trigger (its table, attribute name and column arguments).
    static func maintainedColumns(in db: Database) throws -> [String: Set<String>] {
        let bodies = try String.fetchAll(
            db, sql: "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND substr(name, 1, 5) = ? AND sql IS NOT NULL",
            arguments: [triggerNamePrefix])
        var result: [String: Set<String>] = [:]
        for body in bodies {
            for call in reportingCalls(in: body) {
                result[call.table, default: []].insert(call.column)
            }
        }
        return result
    }

    /// The `(table, attribute, column)` of each reporting call in a trigger's SQL:
    /// `<function>('<table>', Z_ENT, Z_PK, '<attribute>', <column>)`.
    static func reportingCalls(in sql: String) -> [(table: String, attribute: String, column: String)] {
        var result: [(String, String, String)] = []
        for function in [updatedAffectedObjectValue, insertUpdatedAffectedObjectValue, updateAffectedObjectValue] {
            var rest = sql[...]
            while let start = rest.range(of: function + "(") {
                rest = rest[start.upperBound...]
                guard let end = rest.firstIndex(of: ")") else { break }
                let arguments = rest[..<end].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                rest = rest[end...]
                guard arguments.count == 5, let table = quoted(arguments[0]), let attribute = quoted(arguments[3]),
                    isIdentifier(arguments[4])
                else { continue }
                result.append((table, attribute, arguments[4]))
            }
        }
        return result
    }

    /// The text of a single-quoted SQL string literal without quotes inside.
    private static func quoted(_ text: String) -> String? {
        guard text.count >= 2, text.first == "'", text.last == "'" else { return nil }
        let inner = text.dropFirst().dropLast()
        return inner.contains("'") ? nil : String(inner)
    }

    /// Whether a text is a bare SQL identifier (a column name).
    private static func isIdentifier(_ text: String) -> Bool {
        !text.isEmpty && text.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || $0 == "_" }
    }
}
