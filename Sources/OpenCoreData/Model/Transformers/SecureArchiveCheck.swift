import Foundation

/// Whether Foundation's secure unarchiver can be given a keyed archive without stopping the program.
///
/// On Linux, `NSKeyedUnarchiver.unarchivedObject(ofClasses:from:)` stops the program where Apple's
/// throws: when the archive's root object, or an element of an array, set, ordered set or dictionary
/// it decodes with the same classes, is of a class outside the allowed ones, or of a class that does not
/// support secure coding. A transformable value stored by another program or another version of the app
/// (or any damaged bytes) can be such an archive. The check reads the archive's objects and classes
/// first, as the unarchiver would find them, and names the first that would stop it.
///
/// What an allowed class of the app's own decodes inside its `init(coder:)` is up to that class, as on
/// Apple platforms: the check looks inside Foundation's collections only.
enum SecureArchiveCheck {
    /// Why `data` cannot be given to the secure unarchiver with `allowed` classes, or `nil` when it can
    /// (which includes data that is not a keyed archive: Foundation refuses it with an error).
    static func refusal(of data: Data, allowed: [AnyClass]) -> String? {
        data.withUnsafeBytes { bytes -> String? in
            guard let plist = BinaryPropertyList(bytes) else { return nil }
            var walk = Walk(plist: plist, allowed: allowed)
            return walk.refusal()
        }
    }

    /// The classes whose elements the unarchiver decodes with the classes it was given.
    private static let collectionClasses: [AnyClass] = [NSArray.self, NSSet.self, NSOrderedSet.self, NSDictionary.self]

    /// The deepest nesting of collections looked into; deeper archives are refused.
    private static let maximumDepth = 256

    /// One check of one archive.
    private struct Walk {
        let plist: BinaryPropertyList
        let allowed: [AnyClass]
        /// The archive's `$objects`, as positions in the object table.
        private var objects: [Int] = []
        /// The `$objects` already checked: an object several others refer to is checked once.
        private var checked = Set<Int>()
        /// The `$objects` being checked, from the root down to the current one. An object that refers to
        /// one of them makes a cycle, which the unarchiver follows until the stack overflows.
        private var inProgress = Set<Int>()

        init(plist: BinaryPropertyList, allowed: [AnyClass]) {
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
                  case let .uid(root)? = plist.object(at: rootIndex) else { return nil }
            self.objects = objects
            return refusal(ofArchived: root, depth: 0)
        }

        /// Why the archived object `index` (a position in `$objects`) would stop the unarchiver.
        private mutating func refusal(ofArchived index: Int, depth: Int) -> String? {
            // `$null` (object 0) decodes as nil, which every decode allows.
            guard index != 0 else { return nil }
            guard !inProgress.contains(index) else { return "the archive's object \(index) contains itself" }
            guard checked.insert(index).inserted else { return nil }
            inProgress.insert(index)
            defer { inProgress.remove(index) }
            guard depth < SecureArchiveCheck.maximumDepth else { return "the archive nests collections too deeply" }
            guard index < objects.count, let object = plist.object(at: objects[index]) else {
                return "the archive refers to object \(index), which it does not hold"
            }
            let objectClass: AnyClass
            switch object {
            case .string: objectClass = NSString.self
            case .integer, .real, .boolean: objectClass = NSNumber.self
            case .data: objectClass = NSData.self
            case .dictionary:
                guard let classReference = plist.value(forKey: "$class", in: object) else {
                    return "the archive's object \(index) names no class"
                }
                switch archivedClass(classReference) {
                case .success(let found): objectClass = found
                case .failure(let refusal): return refusal.reason
                }
            default:
                return "the archive's object \(index) is not an object the unarchiver reads"
            }
            let name = String(reflecting: objectClass)
            guard allowed.contains(where: { isClass(objectClass, kindOf: $0) }) else {
                return "the archive holds a \(name), which is not among the allowed classes"
            }
            guard let secure = objectClass as? NSSecureCoding.Type, secure.supportsSecureCoding else {
                return "the archive holds a \(name), which does not support secure coding"
            }
            guard SecureArchiveCheck.collectionClasses.contains(where: { isClass(objectClass, kindOf: $0) }) else {
                return nil
            }
            for key in ["NS.keys", "NS.objects"] {
                guard let elementsIndex = plist.value(forKey: key, in: object) else { continue }
                guard case let .array(elements)? = plist.object(at: elementsIndex) else {
                    return "the archive's \(name) has \(key) that is not an array"
                }
                for element in elements {
                    guard case let .uid(archived)? = plist.object(at: element) else {
                        return "the archive's \(name) has an element that is not a reference"
                    }
                    if let refusal = refusal(ofArchived: archived, depth: depth + 1) { return refusal }
                }
            }
            return nil
        }

        /// The class an archived object's `$class` reference names, as the unarchiver finds it.
        private func archivedClass(_ reference: Int) -> Result<AnyClass, Refusal> {
            guard case let .uid(index)? = plist.object(at: reference), index < objects.count,
                  let description = plist.object(at: objects[index]),
                  let nameIndex = plist.value(forKey: "$classname", in: description),
                  case let .string(name)? = plist.object(at: nameIndex) else {
                return .failure(Refusal(reason: "the archive's class description is damaged"))
            }
            // Names with a `$` or outside printable ASCII make the runtime's lookup read arbitrary memory.
            guard !name.isEmpty, name.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "$") }) else {
                return .failure(Refusal(reason: "the archive names a class that cannot exist"))
            }
            guard let found = NSKeyedUnarchiver.class(forClassName: name) ?? NSClassFromString(name) else {
                return .failure(Refusal(reason: "the archive holds a \(name), a class this program does not have"))
            }
            return .success(found)
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
