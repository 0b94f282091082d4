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
        if Self.namesWholeComposite(key, from: scope.entity) {
            throw Self.unsupported("the sort key \"\(key)\" is a whole composite attribute, which has no order (sort on one of its elements)")
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

    /// Whether `key`, read from `entity` through to-one relationships, ends at a composite attribute
    /// itself rather than at one of its elements. (The key path resolution gives a whole composite a
    /// present-or-absent value, for comparisons with `nil`; it has no order to sort by.)
    private static func namesWholeComposite(_ key: String, from entity: NSEntityDescription) -> Bool {
        var current = entity
        let components = key.split(separator: ".").map(String.init)
        for (index, name) in components.enumerated() {
            guard let property = current.propertiesByName[name] else { return false }
            if let relationship = property as? NSRelationshipDescription {
                guard !relationship.isToMany, let destination = relationship.destinationEntity else { return false }
                current = destination
                continue
            }
            return property is NSCompositeAttributeDescription && index == components.count - 1
        }
        return false
    }
}
