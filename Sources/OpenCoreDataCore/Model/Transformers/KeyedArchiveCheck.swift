import Foundation

/// Whether Foundation's keyed unarchiver can be given an archive without stopping the program.
///
/// On Linux, `NSKeyedUnarchiver` stops the program on archives that Apple's refuses with an error, or
/// that no program writes, and a transformable value stored by another program, another version of the
/// app, or damaged on disk can be any of them:
/// - a binary property list holding a set (see ``PropertyListReading``);
/// - objects that contain themselves, directly or through others (the unarchiver recurses until the
///   stack overflows), or that refer to objects the archive does not hold;
/// - strings without their characters, URLs whose base is not a URL or whose string is missing, decimal
///   numbers with damaged digits, and a few Foundation classes
///   (errors, text-checking results, orthographies, URL query items) whose fields are not exactly as
///   Foundation writes them;
/// - for secure decoding (`NSSecureUnarchiveFromDataTransformer`): a root object, or an element of the
///   arrays, sets, ordered sets and dictionaries it decodes with the same classes, of a class outside the
///   allowed ones or that does not support secure coding.
///
/// The check reads the archive's objects and classes as the unarchiver would find them, and names the
/// first that would stop it. What a class of the app's own decodes in its `init(coder:)` is up to that
/// class, as on Apple platforms.
enum KeyedArchiveCheck {
    /// Why `data` cannot be given to the keyed unarchiver, or `nil` when it can (which includes data that
    /// is not a keyed archive: Foundation refuses it with an error). `allowed` are the classes of a secure
    /// decode; `nil` for one without class restrictions.
    static func refusal(of data: Data, allowed: [AnyClass]?) -> String? {
        data.withUnsafeBytes { bytes -> String? in
            guard let plist = BinaryPropertyList(bytes) else { return nil }
            if let offset = plist.firstSetObjectOffset() { return PropertyListReading.setRefusal(at: offset) }
            var walk = Walk(plist: plist, allowed: allowed)
            return walk.refusal()
        }
    }

    /// The classes whose elements a secure unarchiver decodes with the classes it was given.
    private static let collectionClasses: [AnyClass] = [NSArray.self, NSSet.self, NSOrderedSet.self, NSDictionary.self]

    /// Foundation classes whose decoding stops the program on Linux unless every field is exactly as
    /// Foundation writes it; no Core Data value holds them.
    private static let refusedClassNames: Set<String> = ["NSError", "NSOrthography", "NSTextCheckingResult", "NSURLQueryItem"]

    /// The deepest nesting of objects looked into; deeper archives are refused. (The check recurses once
    /// a level, as the unarchiver does.)
    private static let maximumDepth = 1_000

    /// One check of one archive.
    private struct Walk {
        let plist: BinaryPropertyList
        let allowed: [AnyClass]?
        /// The archive's `$objects`, as positions in the object table.
        private var objects: [Int] = []
        /// The `$objects` already checked, and those checked against the allowed classes too: an object
        /// several others refer to is checked once in each way.
        private var checked = Set<Int>()
        private var checkedWithClass = Set<Int>()
        /// The `$objects` being checked, from the root down to the current one. An object that refers to
        /// one of them makes a cycle.
        private var inProgress = Set<Int>()

        init(plist: BinaryPropertyList, allowed: [AnyClass]?) {
            self.plist = plist
            self.allowed = allowed
        }

        mutating func refusal() -> String? {
            guard let top = plist.object(at: plist.topObject),
                let objectsIndex = plist.value(forKey: "$objects", in: top),
                case let .array(objects)? = plist.object(at: objectsIndex),
                let topIndex = plist.value(forKey: "$top", in: top),
                let topDictionary = plist.object(at: topIndex),
                let rootIndex = plist.value(forKey: "root", in: topDictionary),
                case let .uid(root)? = plist.object(at: rootIndex)
            else { return nil }
            self.objects = objects
            return refusal(ofArchived: root, checkingClass: allowed != nil, depth: 0)
        }

        /// Why the archived object `index` (a position in `$objects`) would stop the unarchiver.
        /// `checkingClass`: whether the object is decoded with the allowed classes.
        private mutating func refusal(ofArchived index: Int, checkingClass: Bool, depth: Int) -> String? {
            // `$null` (object 0) decodes as nil, which every decode allows.
            guard index != 0 else { return nil }
            guard !inProgress.contains(index) else { return "the archive's object \(index) contains itself" }
            guard !checkedWithClass.contains(index) else { return nil }
            guard checkingClass || !checked.contains(index) else { return nil }
            if checkingClass { checkedWithClass.insert(index) }
            checked.insert(index)
            guard depth < KeyedArchiveCheck.maximumDepth else { return "the archive nests objects too deeply" }
            guard index < objects.count, let object = plist.object(at: objects[index]) else {
                return "the archive refers to object \(index), which it does not hold"
            }
            inProgress.insert(index)
            defer { inProgress.remove(index) }
            let objectClass: AnyClass?
            let name: String
            switch object {
            case .string: (objectClass, name) = (NSString.self, "NSString")
            case .integer, .real, .boolean: (objectClass, name) = (NSNumber.self, "NSNumber")
            case .data: (objectClass, name) = (NSData.self, "NSData")
            case .dictionary:
                guard let classReference = plist.value(forKey: "$class", in: object) else {
                    return "the archive's object \(index) names no class"
                }
                switch archivedClass(classReference) {
                case .success(let found): (objectClass, name) = found
                case .failure(let refusal): return refusal.reason
                }
            default:
                return "the archive's object \(index) is not an object the unarchiver reads"
            }
            if checkingClass, let refusal = classRefusal(objectClass, named: name) { return refusal }
            guard case .dictionary = object, let objectClass else { return nil }
            if let refusal = fieldRefusal(of: object, named: name) { return refusal }
            // Every object the fields refer to; with the allowed classes for every field of a collection
            // (`NS.objects`, `NS.keys`, an ordered set's `NS.object.<i>`, a counted set's `NS.object<i>`).
            let isCollection = KeyedArchiveCheck.collectionClasses.contains { isClass(objectClass, kindOf: $0) }
            guard case let .dictionary(keys, values) = object else { return nil }
            for (keyIndex, valueIndex) in zip(keys, values) {
                guard case let .string(key)? = plist.object(at: keyIndex), key != "$class" else { continue }
                let elementsChecked = checkingClass && isCollection
                switch plist.object(at: valueIndex) {
                case let .uid(archived)?:
                    if let refusal = refusal(ofArchived: archived, checkingClass: elementsChecked, depth: depth + 1) { return refusal }
                case let .array(elements)?:
                    for element in elements {
                        guard case let .uid(archived)? = plist.object(at: element) else {
                            if isCollection { return "the archive's \(name) has an element that is not a reference" }
                            continue
                        }
                        if let refusal = refusal(ofArchived: archived, checkingClass: elementsChecked, depth: depth + 1) {
                            return refusal
                        }
                    }
                default:
                    if isCollection, key == "NS.objects" || key == "NS.keys" {
                        return "the archive's \(name) has \(key) that is not an array"
                    }
                }
            }
            return nil
        }

        /// Why an object of `objectClass`, named `name` in the archive (`nil`: a class this program does
        /// not have), cannot be decoded with the allowed classes.
        private func classRefusal(_ objectClass: AnyClass?, named name: String) -> String? {
            guard let allowed else { return nil }
            guard let objectClass else { return "the archive holds a \(name), a class this program does not have" }
            guard allowed.contains(where: { isClass(objectClass, kindOf: $0) }) else {
                return "the archive holds a \(name), which is not among the allowed classes"
            }
            guard let secure = objectClass as? NSSecureCoding.Type, secure.supportsSecureCoding else {
                return "the archive holds a \(name), which does not support secure coding"
            }
            return nil
        }

        /// Why the fields of an object of a Foundation class named `name` would stop its decoding.
        private func fieldRefusal(of object: BinaryPropertyList.Object, named name: String) -> String? {
            if KeyedArchiveCheck.refusedClassNames.contains(name) {
                return "the archive holds a \(name), which Foundation cannot decode from an archive on this platform"
            }
            if name == "NSURL" {
                // Decoded as a URL (or nil) and a string, whatever classes the decode allows; another class
                // traps it.
                if let base = plist.value(forKey: "NS.base", in: object), !isArchived(base, ofClass: NSURL.self, allowingNull: true) {
                    return "the archive holds an NSURL whose base is not a URL"
                }
                guard let relative = plist.value(forKey: "NS.relative", in: object),
                    isArchived(relative, ofClass: NSString.self, allowingNull: false)
                else {
                    return "the archive holds an NSURL without its string"
                }
                return nil
            }
            if name == "NSDecimalNumber" {
                // Its digits are data, its length and exponent integers; other values trap the decode.
                guard isArchived(plist.value(forKey: "NS.mantissa", in: object), ofClass: NSData.self, allowingNull: false),
                    case .integer? = plist.value(forKey: "NS.length", in: object).flatMap(plist.object(at:)),
                    case .integer? = plist.value(forKey: "NS.exponent", in: object).flatMap(plist.object(at:))
                else {
                    return "the archive holds an NSDecimalNumber whose digits are damaged"
                }
                return nil
            }
            guard name == "NSString" || name == "NSMutableString" else { return nil }
            // Foundation writes a string's characters as `NS.string`, inline or as a reference to a string.
            if let characters = plist.value(forKey: "NS.string", in: object) {
                switch plist.object(at: characters) {
                case .string?: return nil
                case let .uid(archived)?:
                    // Object 0 is `$null`, a string in the table that decodes as nil.
                    if archived != 0, archived < objects.count, case .string? = plist.object(at: objects[archived]) { return nil }
                default: break
                }
            }
            return "the archive holds a \(name) without its characters"
        }

        /// Whether the field value at `index` (a position in the object table) is, inline or by reference,
        /// an object of `expected` or a subclass (`$null` too when `allowingNull`).
        private func isArchived(_ index: Int?, ofClass expected: AnyClass, allowingNull: Bool) -> Bool {
            guard let index, var object = plist.object(at: index) else { return false }
            if case let .uid(archived) = object {
                if archived == 0 { return allowingNull }
                guard archived < objects.count, let referenced = plist.object(at: objects[archived]) else { return false }
                object = referenced
            }
            switch object {
            case .string: return isClass(NSString.self, kindOf: expected)
            case .data: return isClass(NSData.self, kindOf: expected)
            case .integer, .real, .boolean: return isClass(NSNumber.self, kindOf: expected)
            case .dictionary:
                guard let reference = plist.value(forKey: "$class", in: object),
                    case .success((let found?, _)) = archivedClass(reference)
                else { return false }
                return isClass(found, kindOf: expected)
            default: return false
            }
        }

        /// The name of the class an archived object's `$class` reference names, and the class, as the
        /// unarchiver finds it; `nil` when the program has no such class (the unarchiver then reports an
        /// error).
        private func archivedClass(_ reference: Int) -> Result<(AnyClass?, String), Refusal> {
            guard case let .uid(index)? = plist.object(at: reference), index < objects.count,
                let description = plist.object(at: objects[index]),
                let nameIndex = plist.value(forKey: "$classname", in: description),
                case let .string(name)? = plist.object(at: nameIndex)
            else {
                return .failure(Refusal(reason: "the archive's class description is damaged"))
            }
            return .success((NSKeyedUnarchiver.class(forClassName: name) ?? NSClassFromString(name), name))
        }

        /// Whether `candidate` is `base` or a subclass of it.
        private func isClass(_ candidate: AnyClass, kindOf base: AnyClass) -> Bool {
            var current: AnyClass? = candidate
            while let type = current {
                if type == base { return true }
                current = _getSuperclass(type)
            }
            return false
        }
    }

    /// A reason to refuse an archive, as an error for `Result`.
    private struct Refusal: Error {
        let reason: String
    }
}
