import Foundation

/// Predicates, expressions and sort descriptors as compiled models and model caches archive them
/// (Docs/StoreFormat.md, "Compiled models"): the forms Apple's archives hold are read and written as
/// they are; the others are written in the same style and read back here.
///
/// - `NSComparisonPredicate`: `NSLeftExpression`, `NSRightExpression` and an `NSPredicateOperator` object
///   with `NSOperatorType` (the `NSComparisonPredicate.Operator` raw value) and `NSModifier`; equality
///   operators add `NSNegate` and `NSOptions`, order operators `NSVariant` and `NSOptions`, string
///   operators `NSFlags` (the options).
/// - `NSCompoundPredicate`: `NSCompoundPredicateType`, `NSSubpredicates`.
/// - Expressions carry `NSExpressionType`. A key path is an `NSKeyPathExpression` archived as a function:
///   `NSOperand` (`SELF` or a variable), `NSSelectorName` `valueForKey:`/`valueForKeyPath:` and one
///   `NSKeyPathSpecifierExpression` (`NSKeyPath`) argument. A built-in function's operand is the class
///   constant `_NSPredicateUtilities`.
enum ArchivedPredicates {
    /// The operand of built-in functions.
    static let predicateUtilitiesClassName = "_NSPredicateUtilities"
}

// MARK: - Reading

/// Decodes archived predicates and expressions.
struct ArchivedPredicateDecoder {
    let reader: KeyedArchiveReader
    var values: KeyedArchiveValueDecoder
    /// The predicates and expressions being decoded: one that contains itself is refused.
    private var inProgress = Set<Int>()

    init(reader: KeyedArchiveReader) {
        self.reader = reader
        values = KeyedArchiveValueDecoder(reader: reader)
    }

    typealias Failure = KeyedArchiveReader.Failure

    /// The predicate archived as object `uid`, or `nil` for `$null`.
    mutating func predicate(_ uid: Int, depth: Int = 0) throws(Failure) -> NSPredicate? {
        guard let object = try reader.instance(uid) else { return nil }
        guard depth < KeyedArchiveReader.maximumDepth else { throw Failure("the archive nests predicates too deeply") }
        guard inProgress.insert(uid).inserted else { throw Failure("the archived predicate \(uid) contains itself") }
        defer { inProgress.remove(uid) }
        let what = "the archived \(object.className) (object \(uid))"
        if object.isKind(of: "NSComparisonPredicate") {
            return try comparison(object, depth: depth, what)
        }
        if object.isKind(of: "NSCompoundPredicate") {
            guard let raw = try reader.integer("NSCompoundPredicateType", of: object, in: 0...2),
                let type = NSCompoundPredicate.LogicalType(rawValue: UInt(raw))
            else {
                throw Failure("\(what) has no compound predicate type")
            }
            var subpredicates: [NSPredicate] = []
            if let list = try reader.reference("NSSubpredicates", of: object) {
                for element in try reader.elements(ofObject: list, what) {
                    guard let predicate = try predicate(element, depth: depth + 1) else { throw Failure("\(what) has a $null subpredicate") }
                    subpredicates.append(predicate)
                }
            }
            guard type != .not || subpredicates.count == 1 else { throw Failure("\(what) is a NOT of \(subpredicates.count) predicates") }
            return NSCompoundPredicate(type: type, subpredicates: subpredicates)
        }
        switch object.className {
        case "NSTruePredicate": return NSPredicate(value: true)
        case "NSFalsePredicate": return NSPredicate(value: false)
        default: throw Failure("\(what) is not a predicate this program reads")
        }
    }

    private mutating func comparison(_ object: KeyedArchiveReader.Instance, depth: Int, _ what: String) throws(Failure) -> NSPredicate {
        guard let leftUID = try reader.reference("NSLeftExpression", of: object),
            let left = try expression(leftUID, depth: depth + 1),
            let rightUID = try reader.reference("NSRightExpression", of: object),
            let right = try expression(rightUID, depth: depth + 1)
        else {
            throw Failure("\(what) lacks an expression")
        }
        guard let operatorUID = try reader.reference("NSPredicateOperator", of: object),
            let op = try reader.instance(operatorUID)
        else { throw Failure("\(what) has no operator") }
        let operatorWhat = "the archived \(op.className) (object \(operatorUID))"
        guard let rawType = try reader.integer("NSOperatorType", of: op, in: 0...1000) else {
            throw Failure("\(operatorWhat) has no operator type")
        }
        if rawType == Int(NSComparisonPredicate.Operator.customSelector.rawValue) {
            guard let selector = try reader.string("NSSelectorName", of: op), CustomSelectorComparison.isKnown(selector) else {
                throw Failure("\(operatorWhat) names a custom selector this program does not have")
            }
            return NSComparisonPredicate(leftExpression: left, rightExpression: right, customSelector: selector)
        }
        guard var type = NSComparisonPredicate.Operator(rawValue: UInt(rawType)) else {
            throw Failure("\(operatorWhat) has the unknown operator type \(rawType)")
        }
        if type == .equalTo, try reader.flag("NSNegate", of: op) { type = .notEqualTo }
        let rawModifier = try reader.integer("NSModifier", of: op, in: 0...2) ?? 0
        guard let modifier = NSComparisonPredicate.Modifier(rawValue: UInt(rawModifier)) else {
            throw Failure("\(operatorWhat) has an unknown modifier")
        }
        var options = try reader.integer("NSOptions", of: op, in: 0...0xFFFF) ?? 0
        if op.fields["NSOptions"] == nil { options = try reader.integer("NSFlags", of: op, in: 0...0xFFFF) ?? 0 }
        return NSComparisonPredicate(
            leftExpression: left, rightExpression: right, modifier: modifier, type: type,
            options: NSComparisonPredicate.Options(rawValue: UInt(options) & 0x07))
    }

    /// The expression archived as object `uid`, or `nil` for `$null`.
    mutating func expression(_ uid: Int, depth: Int = 0) throws(Failure) -> NSExpression? {
        guard let object = try reader.instance(uid) else { return nil }
        guard depth < KeyedArchiveReader.maximumDepth else { throw Failure("the archive nests expressions too deeply") }
        guard inProgress.insert(uid).inserted else { throw Failure("the archived expression \(uid) contains itself") }
        defer { inProgress.remove(uid) }
        let what = "the archived \(object.className) (object \(uid))"
        guard let rawType = try reader.integer("NSExpressionType", of: object, in: 0...1000) else {
            throw Failure("\(what) has no expression type")
        }
        func required(_ key: String) throws(Failure) -> NSExpression {
            guard let inner = try reader.reference(key, of: object), let expression = try expression(inner, depth: depth + 1) else {
                throw Failure("\(what) has no \(key)")
            }
            return expression
        }
        func argumentList(_ key: String) throws(Failure) -> [NSExpression] {
            guard let list = try reader.reference(key, of: object) else { return [] }
            var result: [NSExpression] = []
            for element in try reader.elements(ofObject: list, what) {
                guard let argument = try expression(element, depth: depth + 1) else { throw Failure("\(what) has a $null argument") }
                result.append(argument)
            }
            return result
        }
        switch rawType {
        case 0:
            if let className = try reader.string("NSConstantValueClassName", of: object), object.fields["NSConstantValue"] == nil {
                return NSExpression(storage: .constant(className))
            }
            guard let node = reader.field("NSConstantValue", of: object) else { return NSExpression(forConstantValue: nil) }
            switch node {
            case let .uid(valueUID): return NSExpression(forConstantValue: try values.value(ofObject: valueUID, depth: depth + 1))
            case let .integer(value): return NSExpression(forConstantValue: NSNumber(value: value))
            case let .real(value): return NSExpression(forConstantValue: NSNumber(value: value))
            case let .boolean(value): return NSExpression(forConstantValue: NSNumber(value: value))
            case let .string(value): return NSExpression(forConstantValue: value)
            default: throw Failure("\(what) has a constant that is not a value")
            }
        case 1:
            return NSExpression.expressionForEvaluatedObject()
        case 2:
            guard let name = try reader.string("NSVariable", of: object) else { throw Failure("\(what) names no variable") }
            return NSExpression(forVariable: name)
        case 3, 4:
            let selector = try reader.string("NSSelectorName", of: object) ?? ""
            let arguments = try argumentList("NSArguments")
            let operandUID = try reader.reference("NSOperand", of: object)
            if rawType == 3 || selector == "valueForKey:" || selector == "valueForKeyPath:" {
                guard let operandUID, let operand = try expression(operandUID, depth: depth + 1) else {
                    throw Failure("\(what) is a key path without an operand")
                }
                let path: String
                if case .keyPath(let text, _)? = arguments.first?.storage {
                    path = text
                } else if let direct = try reader.string("NSKeyPath", of: object) {
                    path = direct
                } else {
                    throw Failure("\(what) is a key path without its key")
                }
                return NSExpression(forKeyPath: path, operand: operand)
            }
            let operand = try operandUID.flatMap { inner throws(Failure) in try expression(inner, depth: depth + 1) }
            if let operand, case let .constant(value) = operand.storage, (value as? String) == ArchivedPredicates.predicateUtilitiesClassName {
                guard let arity = ExpressionFunctions.arity(of: selector) else {
                    throw Failure("\(what) calls the function \"\(selector)\", which this program does not have")
                }
                guard arity < 0 ? !arguments.isEmpty : arguments.count == arity else {
                    throw Failure("\(what) calls \"\(selector)\" with \(arguments.count) arguments")
                }
                return NSExpression(storage: .function(selector, arguments: arguments))
            }
            guard let operand, !selector.isEmpty else { throw Failure("\(what) is a function without a receiver or a selector") }
            return NSExpression(storage: .method(receiver: operand, selector: selector, arguments: arguments))
        case 5, 6, 7:
            let left = try required("NSLeftExpression"), right = try required("NSRightExpression")
            switch rawType {
            case 5: return NSExpression(forUnionSet: left, with: right)
            case 6: return NSExpression(forIntersectSet: left, with: right)
            default: return NSExpression(forMinusSet: left, with: right)
            }
        case 10:
            guard let path = try reader.string("NSKeyPath", of: object) else { throw Failure("\(what) has no key path") }
            return NSExpression(forKeyPath: path)
        case 13:
            let collection = try required("NSCollection")
            guard let variable = try reader.string("NSVariable", of: object) else { throw Failure("\(what) has no variable") }
            guard let predicateUID = try reader.reference("NSPredicate", of: object), let predicate = try predicate(predicateUID, depth: depth + 1)
            else {
                throw Failure("\(what) has no predicate")
            }
            return NSExpression(forSubquery: collection, usingIteratorVariable: variable, predicate: predicate)
        case 14:
            return NSExpression(storage: .aggregate(try argumentList("NSCollection")))
        case 15:
            return NSExpression.expressionForAnyKey()
        case 20:
            guard let predicateUID = try reader.reference("NSPredicate", of: object), let predicate = try predicate(predicateUID, depth: depth + 1)
            else {
                throw Failure("\(what) has no predicate")
            }
            return NSExpression(
                forConditional: predicate, trueExpression: try required("NSTrueExpression"),
                falseExpression: try required("NSFalseExpression"))
        default:
            throw Failure("\(what) is an expression of type \(rawType), which this program does not read")
        }
    }

    /// The sort descriptors of the array archived as object `uid`.
    mutating func sortDescriptors(_ uid: Int) throws(Failure) -> [NSSortDescriptor] {
        var result: [NSSortDescriptor] = []
        for element in try reader.elements(ofObject: uid, "the archived sort descriptors") {
            let object = try reader.instance(element, of: ["NSSortDescriptor"], "a sort descriptor")
            let key = try reader.string("NSKey", of: object)
            let ascending = try reader.flag("NSAscending", of: object)
            let selector = try reader.string("NSSelector", of: object) ?? "compare:"
            guard
                [
                    "compare:", "caseInsensitiveCompare:", "localizedCompare:", "localizedCaseInsensitiveCompare:",
                    "localizedStandardCompare:",
                ].contains(selector)
            else {
                throw Failure("a sort descriptor compares with \"\(selector)\", which this program does not have")
            }
            result.append(NSSortDescriptor(key: key, ascending: ascending, selector: selector))
        }
        return result
    }
}

// MARK: - Writing

/// Encodes predicates and expressions into a keyed archive.
struct ArchivedPredicateEncoder {
    let writer: KeyedArchiveWriter
    let values: KeyedArchiveValueEncoder

    /// Why a predicate or expression cannot be archived (a block, a fetch request expression).
    struct Refusal: Error {
        let reason: String
    }

    private static let predicateClasses = ["NSPredicate", "NSObject"]

    func predicate(_ predicate: NSPredicate?) throws(Refusal) -> KeyedArchiveWriter.ArchiveValue {
        guard let predicate else { return KeyedArchiveWriter.null }
        switch predicate {
        case let comparison as NSComparisonPredicate:
            return writer.instance(
                classes: ["NSComparisonPredicate"] + Self.predicateClasses,
                fields: [
                    ("NSLeftExpression", try expression(comparison.leftExpression)),
                    ("NSRightExpression", try expression(comparison.rightExpression)),
                    ("NSPredicateOperator", operatorObject(comparison)),
                ])
        case let compound as NSCompoundPredicate:
            var subpredicates: [KeyedArchiveWriter.ArchiveValue] = []
            for subpredicate in compound.typedSubpredicates {
                subpredicates.append(try self.predicate(subpredicate))
            }
            return writer.instance(
                classes: ["NSCompoundPredicate"] + Self.predicateClasses,
                fields: [
                    ("NSCompoundPredicateType", .integer(Int64(compound.compoundPredicateType.rawValue))),
                    ("NSSubpredicates", writer.instance(classes: ["NSArray", "NSObject"], fields: [("NS.objects", .array(subpredicates))])),
                ])
        default:
            if predicate.predicateFormat == "TRUEPREDICATE" {
                return writer.instance(classes: ["NSTruePredicate"] + Self.predicateClasses, fields: [])
            }
            if predicate.predicateFormat == "FALSEPREDICATE" {
                return writer.instance(classes: ["NSFalsePredicate"] + Self.predicateClasses, fields: [])
            }
            throw Refusal(reason: "the predicate \(predicate.predicateFormat) cannot be archived (a block predicate)")
        }
    }

    /// The operator object of a comparison, as Apple's archives spell the operators seen in them.
    private func operatorObject(_ comparison: NSComparisonPredicate) -> KeyedArchiveWriter.ArchiveValue {
        let type = comparison.predicateOperatorType
        let modifier = KeyedArchiveWriter.ArchiveValue.integer(Int64(comparison.comparisonPredicateModifier.rawValue))
        let options = KeyedArchiveWriter.ArchiveValue.integer(Int64(comparison.options.rawValue))
        let base = ["NSPredicateOperator", "NSObject"]
        switch type {
        case .equalTo, .notEqualTo:
            return writer.instance(
                classes: ["NSEqualityPredicateOperator"] + base,
                fields: [
                    ("NSOperatorType", .integer(Int64(type.rawValue))), ("NSModifier", modifier),
                    ("NSNegate", .boolean(type == .notEqualTo)), ("NSOptions", options),
                ])
        case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
            return writer.instance(
                classes: ["NSComparisonPredicateOperator"] + base,
                fields: [
                    ("NSOperatorType", .integer(Int64(type.rawValue))), ("NSModifier", modifier),
                    ("NSVariant", .integer(Int64(type.rawValue))), ("NSOptions", options),
                ])
        case .customSelector:
            return writer.instance(
                classes: ["NSCustomPredicateOperator"] + base,
                fields: [
                    ("NSOperatorType", .integer(Int64(type.rawValue))), ("NSModifier", modifier),
                    ("NSSelectorName", writer.string(comparison.customSelector ?? "")),
                ])
        case .between:
            return writer.instance(
                classes: ["NSBetweenPredicateOperator"] + base,
                fields: [
                    ("NSOperatorType", .integer(Int64(type.rawValue))), ("NSModifier", modifier), ("NSOptions", options),
                ])
        case .matches, .like, .beginsWith, .endsWith, .in, .contains:
            let name: String
            switch type {
            case .matches: name = "NSMatchingPredicateOperator"
            case .like: name = "NSLikePredicateOperator"
            case .beginsWith: name = "NSBeginsWithPredicateOperator"
            case .endsWith: name = "NSEndsWithPredicateOperator"
            default: name = "NSInPredicateOperator"
            }
            return writer.instance(
                classes: [name] + base,
                fields: [
                    ("NSOperatorType", .integer(Int64(type.rawValue))), ("NSModifier", modifier), ("NSFlags", options),
                ])
        }
    }

    private static let expressionClasses = ["NSExpression", "NSObject"]

    func expression(_ expression: NSExpression) throws(Refusal) -> KeyedArchiveWriter.ArchiveValue {
        func typed(_ classes: [String], _ fields: [(String, KeyedArchiveWriter.ArchiveValue)]) -> KeyedArchiveWriter.ArchiveValue {
            writer.instance(
                classes: classes + Self.expressionClasses,
                fields: fields + [("NSExpressionType", .integer(Int64(expression.expressionType.rawValue)))])
        }
        func list(_ expressions: [NSExpression]) throws(Refusal) -> KeyedArchiveWriter.ArchiveValue {
            var elements: [KeyedArchiveWriter.ArchiveValue] = []
            for element in expressions { elements.append(try self.expression(element)) }
            return writer.instance(classes: ["NSMutableArray", "NSArray", "NSObject"], fields: [("NS.objects", .array(elements))])
        }
        switch expression.storage {
        case let .constant(value):
            return typed(["NSConstantValueExpression"], [("NSConstantValue", values.value(value))])
        case .evaluatedObject:
            return typed(["NSSelfExpression"], [])
        case let .variable(name):
            return typed(["NSVariableExpression"], [("NSVariable", writer.string(name))])
        case let .keyPath(path, operand):
            let isSelf: Bool
            if case .evaluatedObject = operand.storage { isSelf = true } else { isSelf = false }
            let specifier = writer.instance(
                classes: ["NSKeyPathSpecifierExpression"] + Self.expressionClasses,
                fields: [
                    ("NSKeyPath", writer.string(path)), ("NSExpressionType", .integer(10)),
                ])
            return typed(
                ["NSKeyPathExpression", "NSFunctionExpression"],
                [
                    ("NSOperand", try self.expression(operand)),
                    ("NSSelectorName", writer.string(isSelf && !path.contains(".") ? "valueForKey:" : "valueForKeyPath:")),
                    (
                        "NSArguments",
                        writer.instance(classes: ["NSMutableArray", "NSArray", "NSObject"], fields: [("NS.objects", .array([specifier]))])
                    ),
                ])
        case let .function(name, arguments):
            guard name != FetchExpression.functionName else {
                throw Refusal(reason: "a fetch request expression cannot be archived")
            }
            let operand = writer.instance(
                classes: ["NSConstantValueExpression"] + Self.expressionClasses,
                fields: [
                    ("NSConstantValueClassName", writer.string(ArchivedPredicates.predicateUtilitiesClassName)),
                    ("NSExpressionType", .integer(0)),
                ])
            return typed(
                ["NSFunctionExpression"],
                [
                    ("NSOperand", operand), ("NSSelectorName", writer.string(name)), ("NSArguments", try list(arguments)),
                ])
        case let .method(receiver, selector, arguments):
            return typed(
                ["NSFunctionExpression"],
                [
                    ("NSOperand", try self.expression(receiver)), ("NSSelectorName", writer.string(selector)),
                    ("NSArguments", try list(arguments)),
                ])
        case let .unionSet(left, right), let .intersectSet(left, right), let .minusSet(left, right):
            return typed(["NSSetExpression"], [("NSLeftExpression", try self.expression(left)), ("NSRightExpression", try self.expression(right))])
        case let .subquery(collection, variable, predicate):
            return typed(
                ["NSSubqueryExpression"],
                [
                    ("NSCollection", try self.expression(collection)), ("NSVariable", writer.string(variable)),
                    ("NSPredicate", try self.predicate(predicate)),
                ])
        case let .aggregate(elements):
            return typed(["NSAggregateExpression"], [("NSCollection", try list(elements))])
        case .anyKey:
            return typed(["NSAnyKeyExpression"], [])
        case let .conditional(predicate, whenTrue, whenFalse):
            return typed(
                ["NSTernaryExpression"],
                [
                    ("NSPredicate", try self.predicate(predicate)), ("NSTrueExpression", try self.expression(whenTrue)),
                    ("NSFalseExpression", try self.expression(whenFalse)),
                ])
        case .block:
            throw Refusal(reason: "a block expression cannot be archived")
        }
    }

    /// An array of sort descriptors.
    func sortDescriptors(_ descriptors: [NSSortDescriptor]?) -> KeyedArchiveWriter.ArchiveValue {
        guard let descriptors else { return KeyedArchiveWriter.null }
        let elements = descriptors.map { descriptor in
            writer.instance(
                classes: ["NSSortDescriptor", "NSObject"],
                fields: [
                    ("NSKey", writer.string(descriptor.key)), ("NSAscending", .boolean(descriptor.ascending)),
                    ("NSSelector", writer.string(descriptor.selector ?? "compare:")), ("NSReverseNullOrder", .boolean(false)),
                ])
        }
        return writer.instance(classes: ["NSArray", "NSObject"], fields: [("NS.objects", .array(elements))])
    }
}
