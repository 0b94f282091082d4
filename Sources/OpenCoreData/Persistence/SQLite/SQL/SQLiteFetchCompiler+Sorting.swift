/// Sort descriptors as `ORDER BY` terms.
extension SQLiteFetchCompiler {
    /// The collation each string comparison selector sorts strings with; `compare:` sorts by code point.
    static let sortCollations: [String: String] = [
        "caseInsensitiveCompare:": SQLiteFunctions.caseInsensitiveCollation,
        "localizedCompare:": SQLiteFunctions.localizedCollation,
        "localizedCaseInsensitiveCompare:": SQLiteFunctions.localizedCaseInsensitiveCollation,
        "localizedStandardCompare:": SQLiteFunctions.localizedStandardCollation,
    ]

    /// The `ORDER BY` term of a sort descriptor. A missing value sorts first in ascending order (SQLite
    /// orders NULL before every value), as in Core Data.
    func orderTerm(_ descriptor: NSSortDescriptor, in scope: SQLiteQueryScope) throws -> SQLFragment {
        guard let key = descriptor.key else {
            throw Self.unsupported("the sort descriptor \(descriptor) has no key")
        }
        guard let selector = descriptor.selector else {
            throw Self.unsupported("the sort descriptor on \"\(key)\" uses a comparator block, which SQL cannot run")
        }
        guard selector == "compare:" || Self.sortCollations[selector] != nil else {
            throw Self.unsupported("the sort descriptor on \"\(key)\" uses the selector \(selector), which SQL cannot run")
        }
        let term: SQLFragment
        switch try operand(NSExpression(forKeyPath: key), in: scope) {
        case .scalar(let sql, let category):
            if category == .string || category == nil, let collation = Self.sortCollations[selector] {
                term = sql + " COLLATE \(collation)"
            } else {
                term = sql
            }
        case .object, .collection, .constant:
            throw Self.unsupported("the sort key \"\(key)\" is not an attribute (relationships and to-many key paths cannot be sorted on)")
        }
        return term + (descriptor.ascending ? " ASC" : " DESC")
    }
}
