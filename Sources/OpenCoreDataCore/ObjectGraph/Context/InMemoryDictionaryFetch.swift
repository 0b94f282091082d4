/// A dictionary fetch computed in memory from the stored objects, for stores that do not compute it
/// themselves (the in-memory store, or an entity spread over several stores): the same results a
/// SQLite store computes in SQL.
struct InMemoryDictionaryFetch<ResultType> {
    let request: NSFetchRequest<ResultType>
    let entity: NSEntityDescription

    /// One fetched or grouped property.
    private struct Term {
        let key: String
        /// The per-object value (for an aggregate, the value aggregated).
        let value: (NSManagedObject) -> Any?
        /// The aggregate function (`sum:`, `average:`, …), `nil` for a per-object value.
        let aggregate: String?
        let resultType: NSAttributeType?
        /// Whether the per-object value is a collection whose elements are aggregated one by one.
        var spreads = false
    }

    /// Runs the fetch against the store's objects (pending changes ignored).
    func run(in context: NSManagedObjectContext) throws -> [[String: Any]] {
        let requested: [Any] = request.propertiesToFetch ?? SQLiteFetchCompiler.storedAttributes(of: entity)
        let terms = try requested.map(term)
        let groups = try (request.propertiesToGroupBy ?? []).map(term)
        if !groups.isEmpty {
            let grouped = Set(groups.map(\.key))
            for term in terms where term.aggregate == nil && !grouped.contains(term.key) {
                throw Self.error(
                    "the fetched property \"\(term.key)\" is neither an aggregate nor in propertiesToGroupBy; every fetched property of a grouped fetch must be one or the other"
                )
            }
        } else if request.havingPredicate != nil {
            throw Self.error("a havingPredicate needs propertiesToGroupBy")
        }
        let objectRequest = NSFetchRequest<NSManagedObject>()
        objectRequest._affectedStores = request._affectedStores
        objectRequest._entity = entity
        objectRequest._entityName = entity.name
        objectRequest._predicate = request.predicate
        objectRequest._includesSubentities = request.includesSubentities
        objectRequest._includesPendingChanges = false
        objectRequest._returnsObjectsAsFaults = false
        let objects = try context.fetch(objectRequest)

        let aggregates = terms.contains { $0.aggregate != nil }
        var buckets: [[NSManagedObject]]
        if !groups.isEmpty {
            var order: [NSDictionary] = []
            var members: [NSDictionary: [NSManagedObject]] = [:]
            for object in objects {
                let values = groups.map { ($0.key, Self.normalized($0.value(object)) ?? NSNull()) }
                let key = NSDictionary(dictionary: Dictionary(values, uniquingKeysWith: { first, _ in first }))
                if members[key] == nil { order.append(key) }
                members[key, default: []].append(object)
            }
            buckets = order.map { members[$0] ?? [] }
        } else if aggregates {
            buckets = [objects]
        } else {
            buckets = objects.map { [$0] }
        }

        var rows: [[String: Any]] = buckets.map { bucket in
            var row: [String: Any] = [:]
            for term in terms {
                let value =
                    term.aggregate.map { name in
                        Self.aggregate(
                            name,
                            bucket.flatMap { object -> [Any] in
                                let value = term.value(object)
                                guard term.spreads else { return Self.normalized(value).map { [$0] } ?? [] }
                                return (EvaluationValues.elements(of: value) ?? []).compactMap { Self.normalized(EvaluationValues.flatten($0)) }
                            })
                    }
                    ?? bucket.first.flatMap { Self.normalized(term.value($0)) }
                if let value = value.map({ Self.converted($0, to: term.resultType) }), !(value is NSNull) {
                    row[term.key] = value
                }
            }
            return row
        }
        if let having = request.havingPredicate {
            rows = rows.filter { having.evaluate(with: $0 as NSDictionary, substitutionVariables: $0) }
        }
        if let descriptors = request.sortDescriptors, !descriptors.isEmpty {
            rows.sort { a, b in
                for descriptor in descriptors {
                    // Keys are looked up whole: "author.name" is a key of the dictionaries, not a path.
                    let key = descriptor.key ?? ""
                    var order = SortComparison.compareValues(a[key], b[key], selector: descriptor.selector ?? "compare:")
                    if !descriptor.ascending, order != .orderedSame {
                        order = order == .orderedAscending ? .orderedDescending : .orderedAscending
                    }
                    if order != .orderedSame { return order == .orderedAscending }
                }
                return false
            }
        }
        if request.returnsDistinctResults {
            var seen: [NSDictionary] = []
            rows = rows.filter { row in
                let dictionary = row as NSDictionary
                if seen.contains(where: { $0.isEqual(dictionary) }) { return false }
                seen.append(dictionary)
                return true
            }
        }
        let start = min(max(request.fetchOffset, 0), rows.count)
        var window = Array(rows[start...])
        if request.fetchLimit > 0 { window = Array(window.prefix(request.fetchLimit)) }
        return window
    }

    /// The term for an entry of `propertiesToFetch` or `propertiesToGroupBy`.
    private func term(_ property: Any) throws -> Term {
        switch property {
        case let description as NSExpressionDescription:
            guard let expression = description.expression else {
                throw Self.error("the expression description \"\(description.name)\" has no expression")
            }
            if case .function(let name, let arguments) = expression.storage,
                SQLiteFetchCompiler.aggregateFunctions[name] != nil, arguments.count == 1,
                Self.isToMany(arguments[0], in: entity), request.propertiesToGroupBy?.isEmpty == false
            {
                // Grouped: an aggregate over a to-many relationship (`count:(employees)`,
                // `sum:(employees.salary)`) aggregates the related values of every object of the group.
                let argument = arguments[0]
                return Term(
                    key: description.name, value: { argument.expressionValue(with: $0, context: nil) },
                    aggregate: name, resultType: description.expressionResultType, spreads: true)
            }
            if case .function(let name, let arguments) = expression.storage,
                SQLiteFetchCompiler.aggregateFunctions[name] != nil, arguments.count == 1,
                !Self.isToMany(arguments[0], in: entity)
            {
                let argument = arguments[0]
                return Term(
                    key: description.name, value: { argument.expressionValue(with: $0, context: nil) },
                    aggregate: name, resultType: description.expressionResultType)
            }
            if case .keyPath(let path, _) = expression.storage, let (name, rest) = Self.rootAggregate(path) {
                return Term(
                    key: description.name, value: { object -> Any? in rest.isEmpty ? object : object.value(forKeyPath: rest) },
                    aggregate: name, resultType: description.expressionResultType)
            }
            return Term(
                key: description.name, value: { expression.expressionValue(with: $0, context: nil) },
                aggregate: nil, resultType: description.expressionResultType)
        case let description as NSPropertyDescription:
            return try keyPathTerm(description.name)
        case let path as String:
            return try keyPathTerm(path)
        default:
            throw Self.error("\(property) is not a property name, key path or property description")
        }
    }

    private func keyPathTerm(_ path: String) throws -> Term {
        if let (name, rest) = Self.rootAggregate(path) {
            return Term(
                key: path, value: { object -> Any? in rest.isEmpty ? object : object.value(forKeyPath: rest) }, aggregate: name, resultType: nil)
        }
        var current = entity
        for key in path.split(separator: ".").map(String.init) {
            if current.attributesByName[key] != nil { break }
            guard let relationship = current.relationshipsByName[key], let destination = relationship.destinationEntity else {
                throw Self.error("keypath \"\(path)\" not found in entity \"\(entity.name ?? "")\"")
            }
            if relationship.isToMany {
                throw Self.error("\"\(path)\" crosses a to-many relationship; fetch it with an NSExpressionDescription (for example \(path).@count)")
            }
            current = destination
        }
        return Term(key: path, value: { $0.value(forKeyPath: path) }, aggregate: nil, resultType: nil)
    }

    /// `@sum.height` → (`sum:`, `height`); `@count` → (`count:`, "").
    private static func rootAggregate(_ path: String) -> (String, String)? {
        let components = path.split(separator: ".").map(String.init)
        let names = ["@sum": "sum:", "@avg": "average:", "@min": "min:", "@max": "max:", "@count": "count:"]
        guard let first = components.first, let name = names[first] else { return nil }
        return (name, components.dropFirst().joined(separator: "."))
    }

    /// Whether an expression names a to-many relationship (whose aggregate is per object, not per group).
    private static func isToMany(_ expression: NSExpression, in entity: NSEntityDescription) -> Bool {
        guard case .keyPath(let path, _) = expression.storage else { return false }
        var current = entity
        for key in path.split(separator: ".").map(String.init) {
            guard let relationship = current.relationshipsByName[key] else { return false }
            if relationship.isToMany { return true }
            guard let destination = relationship.destinationEntity else { return false }
            current = destination
        }
        return false
    }

    /// Values as the dictionaries hold them: objects as their IDs.
    private static func normalized(_ value: Any?) -> Any? {
        guard let value, !(value is NSNull) else { return nil }
        if let object = value as? NSManagedObject { return object.objectID }
        return value
    }

    /// An aggregate of the non-nil values of a group.
    private static func aggregate(_ name: String, _ values: [Any]) -> Any {
        if name == "count:" { return NSNumber(value: values.count) }
        if name == "min:" || name == "max:" {
            let sorted = values.sorted { SortComparison.compareValues($0, $1, selector: "compare:") == .orderedAscending }
            return (name == "min:" ? sorted.first : sorted.last) ?? NSNull()
        }
        let numbers = values.compactMap { NumericValue(flattened: $0) }
        let allIntegers = numbers.allSatisfy { if case .integer = $0 { return true } else { return false } }
        if name == "sum:", allIntegers {
            return NSNumber(
                value: numbers.reduce(Int64(0)) { total, value in
                    if case .integer(let v) = value { return total &+ v }
                    return total
                })
        }
        let doubles = numbers.map(\.doubleValue)
        let sum = doubles.reduce(0, +)
        if name == "sum:" { return NSNumber(value: sum) }
        guard !doubles.isEmpty else { return NSNull() }
        return NSNumber(value: sum / Double(doubles.count))
    }

    /// A value converted to an expression description's result type.
    private static func converted(_ value: Any, to type: NSAttributeType?) -> Any {
        guard let type, type != .undefinedAttributeType, let number = NumericValue(flattened: value) else { return value }
        let double = number.doubleValue
        switch type {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType:
            guard double.isFinite, abs(double) < 9.2e18 else { return value }
            return NSNumber(value: Int64(double.rounded(.towardZero)))
        case .doubleAttributeType: return NSNumber(value: double)
        case .floatAttributeType: return NSNumber(value: Float(double))
        case .decimalAttributeType:
            if case .decimal(let decimal) = number { return NSDecimalNumber(decimal: decimal) }
            if case .integer(let integer) = number { return NSDecimalNumber(value: integer) }
            return NSDecimalNumber(string: "\(double)")
        case .booleanAttributeType: return NSNumber(value: double != 0)
        case .dateAttributeType:
            return value is Date ? value : Date(timeIntervalSinceReferenceDate: double)
        default: return value
        }
    }

    private static func error(_ message: String) -> NSError {
        NSError(
            domain: NSCocoaErrorDomain, code: NSPersistentStoreUnsupportedRequestTypeError,
            userInfo: [
                NSLocalizedDescriptionKey: "The dictionary fetch cannot run: \(message)",
                NSLocalizedFailureReasonErrorKey: message,
            ])
    }
}
