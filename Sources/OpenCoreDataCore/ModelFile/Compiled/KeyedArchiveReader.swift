import Foundation

/// A keyed archive (the binary property list `NSKeyedArchiver` writes) read without Foundation's
/// unarchiver: its objects, their classes and their fields, every reference and count checked.
///
/// Compiled models and model caches archive Core Data's own classes (`NSEntityDescription`,
/// `NSAttributeDescription`, …), which no unarchiver on this platform decodes, and whose objects refer to
/// each other in cycles by design (an entity and its model, a relationship and its inverse). The reader
/// materializes the property list once; the model decoder walks it by reference.
struct KeyedArchiveReader {
    /// Why an archive cannot be read.
    struct Failure: Error, CustomStringConvertible {
        let reason: String
        init(_ reason: String) { self.reason = reason }
        var description: String { reason }
    }

    /// One object of the property list's object table.
    enum Node {
        case null
        case boolean(Bool)
        case integer(Int64)
        case real(Double)
        case date(Double)
        case data(Data)
        case string(String)
        /// A reference to an archived object: a position in `$objects`.
        case uid(Int)
        /// The positions of the elements in the object table.
        case array([Int])
        /// String keys and the positions of the values in the object table.
        case dictionary([String: Int])
    }

    /// An archived instance of a class: a dictionary of `$objects` with a `$class`.
    struct Instance {
        /// Its position in `$objects`.
        let uid: Int
        /// The class it was archived as, and that class's superclasses, as the archive names them.
        let className: String
        let classes: [String]
        /// Its fields: the positions of the values in the object table.
        let fields: [String: Int]

        /// Whether the archive names `name` among the instance's classes.
        func isKind(of name: String) -> Bool { className == name || classes.contains(name) }
    }

    /// The objects of the property list.
    let nodes: [Node]
    /// `$objects`: positions in ``nodes``.
    let objects: [Int]
    /// The root object's position in `$objects`.
    let root: Int

    /// The deepest nesting of values the decoders follow (predicates, expressions, collections).
    static let maximumDepth = 512

    /// Reads the keyed archive in `data`.
    init(_ data: Data) throws(Failure) {
        let read: Result<([Node], Int), Failure> = data.withUnsafeBytes { bytes in
            guard let plist = BinaryPropertyList(bytes) else {
                return .failure(Failure("the data is not a binary property list"))
            }
            return Self.materialize(plist).map { ($0, plist.topObject) }
        }
        let (nodes, top) = try read.get()
        guard top >= 0, top < nodes.count, case let .dictionary(container) = nodes[top] else {
            throw Failure("the property list's top object is not a dictionary")
        }
        guard let archiver = container["$archiver"], case .string("NSKeyedArchiver") = nodes[archiver] else {
            throw Failure("the property list is not a keyed archive (no $archiver NSKeyedArchiver)")
        }
        guard let objectsIndex = container["$objects"], case let .array(objects) = nodes[objectsIndex] else {
            throw Failure("the keyed archive has no $objects array")
        }
        guard let topIndex = container["$top"], case let .dictionary(topFields) = nodes[topIndex],
            let rootIndex = topFields["root"], case let .uid(root) = nodes[rootIndex]
        else {
            throw Failure("the keyed archive has no root object ($top.root)")
        }
        guard root > 0, root < objects.count else {
            throw Failure("the keyed archive's root refers to object \(root), which it does not hold")
        }
        self.nodes = nodes
        self.objects = objects
        self.root = root
    }

    /// Every object of the table, with dictionary keys resolved to strings.
    private static func materialize(_ plist: BinaryPropertyList) -> Result<[Node], Failure> {
        let count = plist.objectCount
        var raw: [BinaryPropertyList.Object] = []
        raw.reserveCapacity(count)
        for index in 0..<count {
            guard let object = plist.object(at: index) else {
                return .failure(Failure("the property list's object \(index) cannot be read"))
            }
            raw.append(object)
        }
        var nodes: [Node] = []
        nodes.reserveCapacity(count)
        for index in 0..<count {
            let node: Node
            switch raw[index] {
            case .null: node = .null
            case .boolean:
                guard let value = plist.booleanValue(at: index) else { return .failure(Failure("object \(index) is a damaged boolean")) }
                node = .boolean(value)
            case .integer:
                guard let value = plist.integerValue(at: index) else { return .failure(Failure("object \(index) is a damaged integer")) }
                node = .integer(value)
            case .real:
                guard let value = plist.realValue(at: index) else { return .failure(Failure("object \(index) is a damaged number")) }
                node = .real(value)
            case .date:
                guard let value = plist.realValue(at: index) else { return .failure(Failure("object \(index) is a damaged date")) }
                node = .date(value)
            case .data:
                guard let value = plist.dataValue(at: index) else { return .failure(Failure("object \(index) is damaged data")) }
                node = .data(value)
            case let .string(value): node = .string(value)
            case let .uid(value): node = .uid(value)
            case let .array(elements):
                guard elements.allSatisfy({ $0 >= 0 && $0 < count }) else {
                    return .failure(Failure("the array at object \(index) refers to an object the property list does not hold"))
                }
                node = .array(elements)
            case .set:
                return .failure(Failure("the property list holds a set (object \(index)), which no keyed archive holds"))
            case let .dictionary(keys, values):
                var fields: [String: Int] = [:]
                for (key, value) in zip(keys, values) {
                    guard key >= 0, key < count, value >= 0, value < count, case let .string(name) = raw[key] else {
                        return .failure(Failure("the dictionary at object \(index) has a key that is not a string, or a damaged reference"))
                    }
                    fields[name] = value
                }
                node = .dictionary(fields)
            }
            nodes.append(node)
        }
        return .success(nodes)
    }

    // MARK: Objects

    /// The node of the archived object `uid`, or `nil` for `$null` (object 0).
    func node(ofObject uid: Int) throws(Failure) -> Node? {
        guard uid != 0 else { return nil }
        guard uid > 0, uid < objects.count else {
            throw Failure("the archive refers to object \(uid), which it does not hold")
        }
        let node = nodes[objects[uid]]
        if case .string("$null") = node { return nil }
        return node
    }

    /// The archived object `uid` as an instance of a class, or `nil` for `$null`; throws when it is a
    /// plain value (a string, a number) or its class description is damaged.
    func instance(_ uid: Int) throws(Failure) -> Instance? {
        guard let node = try node(ofObject: uid) else { return nil }
        guard case let .dictionary(fields) = node else {
            throw Failure("the archive's object \(uid) is a plain value where an object was expected")
        }
        guard let classIndex = fields["$class"], case let .uid(classUID) = nodes[classIndex],
            let description = try self.node(ofObject: classUID), case let .dictionary(classFields) = description,
            let nameIndex = classFields["$classname"], case let .string(name) = nodes[nameIndex]
        else {
            throw Failure("the archive's object \(uid) has a damaged class description")
        }
        var classes: [String] = []
        if let chainIndex = classFields["$classes"], case let .array(chain) = nodes[chainIndex] {
            for element in chain {
                if case let .string(ancestor) = nodes[element] { classes.append(ancestor) }
            }
        }
        var own = fields
        own.removeValue(forKey: "$class")
        return Instance(uid: uid, className: name, classes: classes, fields: own)
    }

    /// The instance `uid`, which must exist and be of one of `classNames`; `what` names it in errors.
    func instance(_ uid: Int, of classNames: Set<String>, _ what: String) throws(Failure) -> Instance {
        guard let instance = try instance(uid) else { throw Failure("\(what) is missing") }
        guard classNames.contains(instance.className) || instance.classes.contains(where: classNames.contains) else {
            throw Failure("\(what) is an archived \(instance.className), not \(classNames.sorted().joined(separator: " or "))")
        }
        return instance
    }

    // MARK: Fields

    /// The node of a field, or `nil` when the instance has no such field.
    func field(_ key: String, of instance: Instance) -> Node? {
        instance.fields[key].map { nodes[$0] }
    }

    /// The object a field refers to (its position in `$objects`), or `nil` when the field is absent or
    /// `$null`; throws when the field holds a plain value.
    func reference(_ key: String, of instance: Instance) throws(Failure) -> Int? {
        guard let node = field(key, of: instance) else { return nil }
        guard case let .uid(uid) = node else {
            throw Failure("\(instance.className).\(key) is not a reference to an object")
        }
        return try self.node(ofObject: uid) == nil ? nil : uid
    }

    /// A string field: an archived string (a plain string object, or an `NSString` with `NS.string`),
    /// `nil` when the field is absent or `$null`.
    func string(_ key: String, of instance: Instance) throws(Failure) -> String? {
        guard let node = field(key, of: instance) else { return nil }
        if case let .string(value) = node { return value }
        guard case let .uid(uid) = node else { throw Failure("\(instance.className).\(key) is not a string") }
        return try string(ofObject: uid, "\(instance.className).\(key)")
    }

    /// The archived object `uid` as a string, or `nil` for `$null`.
    func string(ofObject uid: Int, _ what: String) throws(Failure) -> String? {
        guard let node = try node(ofObject: uid) else { return nil }
        switch node {
        case let .string(value): return value
        case .dictionary:
            let object = try instance(uid, of: ["NSString", "NSMutableString"], what)
            if let characters = object.fields["NS.string"] {
                switch nodes[characters] {
                case let .string(value): return value
                case let .uid(inner):
                    if case let .string(value)? = try self.node(ofObject: inner) { return value }
                default: break
                }
            }
            if case let .data(bytes)? = field("NS.bytes", of: object) { return String(decoding: bytes, as: UTF8.self) }
            throw Failure("\(what) is an NSString without its characters")
        default:
            throw Failure("\(what) is not a string")
        }
    }

    /// An integer field (inline, or a reference to a number), or `nil` when absent.
    func integer(_ key: String, of instance: Instance) throws(Failure) -> Int64? {
        guard var node = field(key, of: instance) else { return nil }
        if case let .uid(uid) = node {
            guard let referenced = try self.node(ofObject: uid) else { return nil }
            node = referenced
        }
        switch node {
        case let .integer(value): return value
        case let .boolean(value): return value ? 1 : 0
        case let .real(value) where value.rounded() == value && abs(value) < 9.0e18: return Int64(value)
        default: throw Failure("\(instance.className).\(key) is not an integer")
        }
    }

    /// An integer field that must fit `range`; `nil` when absent.
    func integer(_ key: String, of instance: Instance, in range: ClosedRange<Int64>) throws(Failure) -> Int? {
        guard let value = try integer(key, of: instance) else { return nil }
        guard range.contains(value) else {
            throw Failure("\(instance.className).\(key) is \(value), outside \(range.lowerBound)...\(range.upperBound)")
        }
        return Int(value)
    }

    /// A Boolean field (a boolean or an integer), `false` when absent.
    func flag(_ key: String, of instance: Instance) throws(Failure) -> Bool {
        guard let value = try integer(key, of: instance) else { return false }
        return value != 0
    }

    /// The elements of an archived array, set or ordered set (`NS.objects`, or an ordered set's
    /// `NS.object.<i>`), as positions in `$objects`; `$null` elements are kept as 0.
    func elements(ofObject uid: Int, _ what: String) throws(Failure) -> [Int] {
        let object = try instance(uid, of: Self.collectionClassNames, what)
        return try elements(of: object, what)
    }

    /// The elements of a collection instance.
    func elements(of object: Instance, _ what: String) throws(Failure) -> [Int] {
        if let index = object.fields["NS.objects"] {
            guard case let .array(elements) = nodes[index] else { throw Failure("\(what) has NS.objects that is not an array") }
            return try elements.map { element throws(Failure) -> Int in
                guard case let .uid(uid) = nodes[element] else { throw Failure("\(what) has an element that is not a reference") }
                _ = try node(ofObject: uid)
                return uid
            }
        }
        // NSOrderedSet and NSCountedSet archive their elements one key each.
        var result: [Int] = []
        var position = 0
        while let index = object.fields["NS.object.\(position)"] ?? object.fields["NS.object\(position)"] {
            guard case let .uid(uid) = nodes[index] else { throw Failure("\(what) has an element that is not a reference") }
            _ = try node(ofObject: uid)
            result.append(uid)
            position += 1
        }
        return result
    }

    /// The keys and values of an archived dictionary (`NS.keys`, `NS.objects`), as positions in `$objects`.
    func entries(ofObject uid: Int, _ what: String) throws(Failure) -> [(key: Int, value: Int)] {
        let object = try instance(uid, of: Self.dictionaryClassNames, what)
        return try entries(of: object, what)
    }

    /// The keys and values of a dictionary instance.
    func entries(of object: Instance, _ what: String) throws(Failure) -> [(key: Int, value: Int)] {
        guard let keysIndex = object.fields["NS.keys"], let valuesIndex = object.fields["NS.objects"] else {
            // An empty dictionary may be archived without either.
            if object.fields["NS.keys"] == nil, object.fields["NS.objects"] == nil { return [] }
            throw Failure("\(what) has keys without values, or values without keys")
        }
        guard case let .array(keys) = nodes[keysIndex], case let .array(values) = nodes[valuesIndex], keys.count == values.count else {
            throw Failure("\(what) does not have as many keys as values")
        }
        var result: [(key: Int, value: Int)] = []
        result.reserveCapacity(keys.count)
        for (key, value) in zip(keys, values) {
            guard case let .uid(keyUID) = nodes[key], case let .uid(valueUID) = nodes[value] else {
                throw Failure("\(what) has a key or value that is not a reference")
            }
            _ = try node(ofObject: keyUID)
            _ = try node(ofObject: valueUID)
            result.append((keyUID, valueUID))
        }
        return result
    }

    /// The strings of an archived array or set of strings.
    func strings(ofObject uid: Int, _ what: String) throws(Failure) -> [String] {
        try elements(ofObject: uid, what).map { element throws(Failure) -> String in
            guard let text = try string(ofObject: element, what) else { throw Failure("\(what) holds a $null where a string was expected") }
            return text
        }
    }

    static let collectionClassNames: Set<String> = [
        "NSArray", "NSMutableArray", "NSSet", "NSMutableSet", "NSOrderedSet",
        "NSMutableOrderedSet", "NSCountedSet",
    ]
    static let dictionaryClassNames: Set<String> = ["NSDictionary", "NSMutableDictionary"]
}
