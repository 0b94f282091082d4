import GRDB

/// One operator applied to two operands, with Apple's predicate rules: numbers compare by value,
/// `nil` equals only `nil` and is ordered with nothing, values of different kinds are never equal,
/// strings fold case and diacritics under `[c]` and `[d]`.
extension SQLiteFetchCompiler {
    /// What a constant becomes when compared with values of a category.
    private enum Binding {
        case null
        case value(DatabaseValue)
        /// The constant can never equal a value of the category.
        case mismatch
    }

    /// Compiles `left op right`.
    func compare(
        _ left: SQLiteOperand, _ right: SQLiteOperand, _ op: Operator,
        _ options: NSComparisonPredicate.Options, _ predicate: NSPredicate
    ) throws -> SQLFragment {
        switch (left, right) {
        case (.constant(let a), .constant(let b)):
            return .constant(ComparisonEvaluation.compare(a, b, op, options))
        case (.constant, _):
            if let flipped = Self.flipped(op) { return try compare(right, left, flipped, options, predicate) }
            return try compareConstantLeft(left, right, op, options, predicate)
        case (.object(let sql, let entity), _):
            return try objectComparison(sql, entity, right, op, predicate)
        case (_, .object(let sql, let entity)):
            guard let flipped = Self.flipped(op) else {
                throw Self.unsupported("\(predicate) applies \(op) to an object")
            }
            return try objectComparison(sql, entity, left, flipped, predicate)
        case (.scalar(let sql, let category), .constant(let value)):
            return try scalarWithConstant(sql, category, value, op, options, predicate)
        case (.scalar(let a, let ca), .scalar(let b, let cb)):
            return try scalars(a, ca, b, cb, op, options, predicate)
        case (.collection(let rows), _), (_, .collection(let rows)):
            throw Self.unsupported("the to-many key path \(rows.description) in \(predicate) needs ANY, ALL, NONE or a collection operator")
        }
    }

    /// The operator with its operands swapped, when it has one.
    static func flipped(_ op: Operator) -> Operator? {
        switch op {
        case .equalTo, .notEqualTo: return op
        case .lessThan: return .greaterThan
        case .lessThanOrEqualTo: return .greaterThanOrEqualTo
        case .greaterThan: return .lessThan
        case .greaterThanOrEqualTo: return .lessThanOrEqualTo
        default: return nil
        }
    }

    /// Whether string comparisons under these options fold case or diacritics.
    private static func folds(_ options: NSComparisonPredicate.Options) -> Bool {
        !options.contains(.normalized) && !options.intersection([.caseInsensitive, .diacriticInsensitive]).isEmpty
    }

    /// The option bits passed to the string functions.
    private static func bits(_ options: NSComparisonPredicate.Options) -> String {
        String(options.rawValue & 0x7)
    }

    /// A constant bound for comparison with values of `category`.
    private func binding(_ value: Any?, for category: SQLiteValueCategory?) -> Binding {
        guard let value = EvaluationValues.flatten(value) else { return .null }
        if category == .objectURI {
            if let id = value as? NSManagedObjectID { return .value(id.uriRepresentation().absoluteString.databaseValue) }
            if let url = value as? URL { return .value(url.absoluteString.databaseValue) }
            return .mismatch
        }
        guard let (kind, encoded) = SQLiteValueCategory.encode(value) else { return .mismatch }
        if let category, category != kind { return .mismatch }
        return .value(encoded)
    }

    // MARK: - Scalars

    /// A column or computed value compared with a constant.
    private func scalarWithConstant(
        _ sql: SQLFragment, _ category: SQLiteValueCategory?, _ value: Any?,
        _ op: Operator, _ options: NSComparisonPredicate.Options,
        _ predicate: NSPredicate
    ) throws -> SQLFragment {
        let foldsText = Self.folds(options) && (category == .string || category == nil)
        switch op {
        case .equalTo, .notEqualTo:
            let equal: SQLFragment
            switch binding(value, for: category) {
            case .null: return sql + (op == .equalTo ? " IS NULL" : " IS NOT NULL")
            case .mismatch: return .constant(op == .notEqualTo)
            case .value(let v):
                if foldsText, case .string = v.storage {
                    equal = "\(SQLiteFunctions.compare)(" + sql + ", ?, \(Self.bits(options))) = 0"
                    return op == .equalTo
                        ? SQLFragment(equal.sql, equal.arguments + [v]) : Self.negated(SQLFragment(equal.sql, equal.arguments + [v]))
                }
                return sql + (op == .equalTo ? " = ?" : " IS NOT ?") + SQLFragment("", [v])
            }
        case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
            guard case .value(let v) = binding(value, for: category) else { return .constant(false) }
            let symbol = Self.symbol(op)
            if foldsText, case .string = v.storage {
                return "\(SQLiteFunctions.compare)(" + sql + ", ?, \(Self.bits(options))) \(symbol) 0" + SQLFragment("", [v])
            }
            return sql + " \(symbol) ?" + SQLFragment("", [v])
        case .matches, .like, .beginsWith, .endsWith, .contains:
            if op == .contains, category != .string, category != nil { return .constant(false) }
            guard category == .string || category == nil, let text = value.flatMap(ValueComparison.string) else {
                return .constant(false)
            }
            return Self.stringFunction(op, sql, .bound(text.databaseValue), options)
        case .in:
            return try membership(sql, category, in: value, options, predicate)
        case .between:
            guard let bounds = EvaluationValues.elements(of: value), bounds.count == 2 else { return .constant(false) }
            let low = try scalarWithConstant(sql, category, bounds[0], .greaterThanOrEqualTo, options, predicate)
            let high = try scalarWithConstant(sql, category, bounds[1], .lessThanOrEqualTo, options, predicate)
            return low.parenthesized + " AND " + high.parenthesized
        case .customSelector:
            throw Self.unsupported("the custom selector comparison \(predicate) has no SQL form")
        }
    }

    /// `value IN constant`: membership in a collection (a dictionary's values), or a substring.
    private func membership(
        _ sql: SQLFragment, _ category: SQLiteValueCategory?, in container: Any?,
        _ options: NSComparisonPredicate.Options, _ predicate: NSPredicate
    ) throws -> SQLFragment {
        guard let container = EvaluationValues.flatten(container) else { return .constant(false) }
        if let text = ValueComparison.string(container) {
            guard category == .string || category == nil else { return .constant(false) }
            return Self.stringFunction(.contains, .bound(text.databaseValue), sql, options)
        }
        var elements = EvaluationValues.elements(of: container)
        if elements == nil, let dictionary = container as? NSDictionary { elements = dictionary.allValues }
        if elements == nil, let dictionary = container as? [String: Any] { elements = Array(dictionary.values) }
        guard let elements else { return .constant(false) }
        var values: [DatabaseValue] = []
        var includesNil = false
        for element in elements {
            switch binding(element, for: category) {
            case .null: includesNil = true
            case .value(let v): values.append(v)
            case .mismatch: continue
            }
        }
        var parts: [SQLFragment] = []
        if !values.isEmpty {
            if Self.folds(options) && (category == .string || category == nil) {
                for value in values {
                    parts.append("\(SQLiteFunctions.compare)(" + sql + ", ?, \(Self.bits(options))) = 0" + SQLFragment("", [value]))
                }
            } else {
                let marks = Array(repeating: "?", count: values.count).joined(separator: ", ")
                parts.append(sql + " IN (\(marks))" + SQLFragment("", values))
            }
        }
        if includesNil { parts.append(sql + " IS NULL") }
        return parts.isEmpty ? .constant(false) : SQLFragment.joined(parts.map(\.parenthesized), separator: " OR ")
    }

    /// Two computed values or columns.
    private func scalars(
        _ a: SQLFragment, _ ca: SQLiteValueCategory?, _ b: SQLFragment, _ cb: SQLiteValueCategory?,
        _ op: Operator, _ options: NSComparisonPredicate.Options,
        _ predicate: NSPredicate
    ) throws -> SQLFragment {
        let bothNull = "(" + a + " IS NULL AND " + b + " IS NULL)"
        if let ca, let cb, ca != cb {
            switch op {
            case .equalTo: return bothNull
            case .notEqualTo: return "NOT " + bothNull
            default: return .constant(false)
            }
        }
        let text = ca == .string || cb == .string || (ca == nil && cb == nil)
        let foldsText = Self.folds(options) && text
        switch op {
        case .equalTo, .notEqualTo:
            let equal: SQLFragment =
                foldsText
                ? "(\(SQLiteFunctions.compare)(" + a + ", " + b + ", \(Self.bits(options))) = 0 OR " + bothNull + ")"
                : a + " IS " + b
            return op == .equalTo ? equal : Self.negated(equal)
        case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
            if foldsText {
                return "\(SQLiteFunctions.compare)(" + a + ", " + b + ", \(Self.bits(options))) \(Self.symbol(op)) 0"
            }
            return a + " \(Self.symbol(op)) " + b
        case .matches, .like, .beginsWith, .endsWith, .contains:
            return Self.stringFunction(op, a, b, options)
        case .in:
            return Self.stringFunction(.contains, b, a, options)
        case .between, .customSelector:
            throw Self.unsupported("\(predicate) compares with a value the store cannot compute")
        }
    }

    /// A constant on the left of an operator that has no mirror image (`"text" CONTAINS title`…).
    private func compareConstantLeft(
        _ left: SQLiteOperand, _ right: SQLiteOperand, _ op: Operator,
        _ options: NSComparisonPredicate.Options, _ predicate: NSPredicate
    ) throws -> SQLFragment {
        guard case .constant(let value) = left else { return .constant(false) }
        switch (op, right) {
        case (.matches, .scalar(let sql, let category)), (.like, .scalar(let sql, let category)),
            (.beginsWith, .scalar(let sql, let category)), (.endsWith, .scalar(let sql, let category)),
            (.contains, .scalar(let sql, let category)):
            guard category == .string || category == nil, let text = value.flatMap(ValueComparison.string) else {
                return .constant(false)
            }
            return Self.stringFunction(op, .bound(text.databaseValue), sql, options)
        case (.in, .scalar(let sql, let category)):
            guard category == .string || category == nil, let text = value.flatMap(ValueComparison.string) else {
                return .constant(false)
            }
            return Self.stringFunction(.contains, sql, .bound(text.databaseValue), options)
        case (.in, .object(let sql, let entity)):
            return try objectComparison(sql, entity, left, .equalTo, predicate)
        default:
            throw Self.unsupported("\(predicate) has a constant on the left of an operator the store cannot run that way")
        }
    }

    /// `ocd_like(text, pattern, options)` and its siblings.
    private static func stringFunction(
        _ op: Operator, _ text: SQLFragment, _ other: SQLFragment,
        _ options: NSComparisonPredicate.Options
    ) -> SQLFragment {
        let name: String
        switch op {
        case .matches: name = SQLiteFunctions.matches
        case .like: name = SQLiteFunctions.like
        case .beginsWith: name = SQLiteFunctions.begins
        case .endsWith: name = SQLiteFunctions.ends
        default: name = SQLiteFunctions.contains
        }
        return "\(name)(" + text + ", " + other + ", \(bits(options)))"
    }

    private static func symbol(_ op: Operator) -> String {
        switch op {
        case .lessThan: return "<"
        case .lessThanOrEqualTo: return "<="
        case .greaterThan: return ">"
        default: return ">="
        }
    }

    // MARK: - Objects

    /// The primary key an object constant has in the table of `entity`, `nil` when it names no row
    /// there (a temporary ID, an object of another table or of another store).
    private func primaryKey(of value: Any, comparableWith entity: NSEntityDescription) throws -> Int64?? {
        guard let representable = value as? ObjectIDRepresentable else { return .none }
        let id = representable.objectIDForStore
        if let storeIdentifier, let other = id.storeIdentifier, other != storeIdentifier { return .some(nil) }
        guard let key = id.primaryKey, let table = try? layout(of: id.entity).table,
            table == (try layout(of: entity)).table
        else { return .some(nil) }
        return .some(key)
    }

    /// An object (`SELF`, a to-one relationship) compared with a constant or another object.
    private func objectComparison(
        _ sql: SQLFragment, _ entity: NSEntityDescription, _ other: SQLiteOperand,
        _ op: Operator, _ predicate: NSPredicate
    ) throws -> SQLFragment {
        switch other {
        case .constant(let raw):
            let value = EvaluationValues.flatten(raw)
            switch op {
            case .equalTo, .notEqualTo:
                guard let value else { return sql + (op == .equalTo ? " IS NULL" : " IS NOT NULL") }
                guard case .some(.some(let key)) = try primaryKey(of: value, comparableWith: entity) else {
                    // Not an object, a temporary object or one of another table: no stored row is it.
                    return .constant(op == .notEqualTo)
                }
                return sql + (op == .equalTo ? " = ?" : " IS NOT ?") + SQLFragment("", [key.databaseValue])
            case .in:
                guard let elements = value.flatMap({ EvaluationValues.elements(of: $0) }) else {
                    throw Self.unsupported("IN in \(predicate) needs a collection of objects on the right")
                }
                var keys: [DatabaseValue] = []
                var includesNil = false
                for element in elements {
                    guard let element = EvaluationValues.flatten(element) else {
                        includesNil = true
                        continue
                    }
                    if case .some(.some(let key)) = try primaryKey(of: element, comparableWith: entity) {
                        keys.append(key.databaseValue)
                    }
                }
                var parts: [SQLFragment] = []
                if !keys.isEmpty {
                    let marks = Array(repeating: "?", count: keys.count).joined(separator: ", ")
                    parts.append(sql + " IN (\(marks))" + SQLFragment("", keys))
                }
                if includesNil { parts.append(sql + " IS NULL") }
                return parts.isEmpty ? .constant(false) : SQLFragment.joined(parts.map(\.parenthesized), separator: " OR ")
            default:
                throw Self.unsupported("\(predicate) applies \(op) to an object")
            }
        case .object(let otherSQL, let otherEntity):
            let sameTable = try layout(of: entity).table == layout(of: otherEntity).table
            let equal: SQLFragment =
                sameTable
                ? sql + " IS " + otherSQL
                : "(" + sql + " IS NULL AND " + otherSQL + " IS NULL)"
            switch op {
            case .equalTo: return equal
            case .notEqualTo: return Self.negated(equal)
            default: throw Self.unsupported("\(predicate) applies \(op) to objects")
            }
        case .scalar(let otherSQL, _):
            switch op {
            case .equalTo: return "(" + sql + " IS NULL AND " + otherSQL + " IS NULL)"
            case .notEqualTo: return "NOT (" + sql + " IS NULL AND " + otherSQL + " IS NULL)"
            default: throw Self.unsupported("\(predicate) compares an object with a value")
            }
        case .collection(let rows):
            throw Self.unsupported("the to-many key path \(rows.description) in \(predicate) needs ANY, ALL, NONE or a collection operator")
        }
    }
}
