import Foundation
import Testing

@testable import OpenCoreDataCore

/// An app's `NSSecureCoding` class, as stored in transformable attributes.
final class SecurePaint: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    let level: Double
    init(level: Double) { self.level = level }
    func encode(with coder: NSCoder) { coder.encode(level, forKey: "level") }
    required init?(coder: NSCoder) { level = coder.decodeDouble(forKey: "level") }
}

/// An `NSCoding` class that does not support secure coding.
final class InsecurePaint: NSObject, NSCoding {
    override init() {}
    func encode(with coder: NSCoder) {}
    required init?(coder: NSCoder) {}
}

/// The transformer an app registers for its own class, as Apple's documentation shows.
final class SecurePaintTransformer: NSSecureUnarchiveFromDataTransformer {
    override class var allowedTopLevelClasses: [AnyClass] { [SecurePaint.self, NSArray.self] }
}

/// A transformer that allows a class which does not support secure coding.
final class InsecurePaintTransformer: NSSecureUnarchiveFromDataTransformer {
    override class var allowedTopLevelClasses: [AnyClass] { [InsecurePaint.self] }
}

/// An `NSCoding` class whose objects refer to each other.
final class ArchivedNode: NSObject, NSCoding {
    var next: ArchivedNode?
    let label: String
    init(_ label: String) { self.label = label }
    func encode(with coder: NSCoder) {
        coder.encode(next, forKey: "next")
        coder.encode(label, forKey: "label")
    }
    required init?(coder: NSCoder) {
        next = coder.decodeObject(forKey: "next") as? ArchivedNode
        label = coder.decodeObject(forKey: "label") as? String ?? ""
    }
}

/// Which keyed archives a transformable attribute reads: those Foundation's unarchiver can decode without
/// stopping the program, which on Linux it does where Apple's fails the decode. Through
/// `NSSecureUnarchiveFromDataTransformer`, those whose objects are of its allowed classes; any other
/// archive gives `nil` there, and reads as its bytes without a transformer.
@Suite("Keyed archive reading")
struct KeyedArchiveReadingTests {
    static func archive(_ value: Any, secure: Bool = true) throws -> Data {
        try NSKeyedArchiver.archivedData(withRootObject: value, requiringSecureCoding: secure)
    }

    @Test("an archive of the default classes, and of their subclasses, decodes")
    func defaultClasses() throws {
        let transformer = NSSecureUnarchiveFromDataTransformer()
        let value: NSDictionary = [
            "names": ["a", "b"], "count": 2, "when": Date(timeIntervalSince1970: 0),
            "bytes": Data([1, 2]), "tags": NSSet(array: ["x"]),
        ]
        #expect(transformer.transformedValue(try Self.archive(value)) as? NSDictionary == value)
        #expect(transformer.transformedValue(try Self.archive(NSMutableString(string: "m"))) as? String == "m")
    }

    @Test(
        "a class outside the allowed ones gives nil: at the top, in an array, a set or a dictionary, nested",
        arguments: ["top", "array", "set", "ordered set", "counted set", "dictionary key", "dictionary value", "nested"])
    func classOutsideAllowed(_ place: String) throws {
        let paint = SecurePaint(level: 0.5)
        let value: Any =
            switch place {
            case "top": paint
            case "array": ["fine", paint] as NSArray
            case "set": NSSet(array: ["fine", paint])
            case "ordered set": NSOrderedSet(array: ["fine", paint])
            case "counted set": NSCountedSet(array: ["fine", paint])
            case "dictionary key": NSDictionary(dictionary: [paint: "fine"])
            case "dictionary value": ["fine": paint] as NSDictionary
            default: [["fine": [paint]] as NSDictionary] as NSArray
            }
        let data = try Self.archive(value)
        #expect(NSSecureUnarchiveFromDataTransformer().transformedValue(data) == nil)
        // With ordered sets allowed too (they are not by default), the refusal is the paint's.
        let allowed = NSSecureUnarchiveFromDataTransformer.allowedTopLevelClasses + [NSOrderedSet.self]
        #expect(KeyedArchiveCheck.refusal(of: data, allowed: allowed)?.contains("SecurePaint") == true)
    }

    @Test("a transformer that allows the app's class decodes it, alone and in an array")
    func appClassAllowed() throws {
        let transformer = SecurePaintTransformer()
        #expect((transformer.transformedValue(try Self.archive(SecurePaint(level: 0.25))) as? SecurePaint)?.level == 0.25)
        let many = transformer.transformedValue(try Self.archive([SecurePaint(level: 1), SecurePaint(level: 2)] as NSArray))
        #expect((many as? [SecurePaint])?.map(\.level) == [1, 2])
        // A string is not among its classes.
        #expect(transformer.transformedValue(try Self.archive("text" as NSString)) == nil)
    }

    @Test("an allowed class that does not support secure coding gives nil")
    func insecureClass() throws {
        let data = try Self.archive(InsecurePaint(), secure: false)
        #expect(InsecurePaintTransformer().transformedValue(data) == nil)
        #expect(KeyedArchiveCheck.refusal(of: data, allowed: [InsecurePaint.self])?.contains("secure coding") == true)
    }

    @Test("an archive that refers to itself, names a missing object, or is not an archive gives nil")
    func damagedArchives() throws {
        let transformer = NSSecureUnarchiveFromDataTransformer()
        #expect(transformer.transformedValue(Data("not an archive".utf8)) == nil)
        #expect(transformer.transformedValue(PropertyListKit.arrayInDictionary) == nil)
        // The archive of a one-element array: `$objects` holds `$null`, the array (1), its element (2) and
        // the array's class, and the element is referred to once, by the UID 0x80 0x02.
        let archive = [UInt8](try Self.archive(["only"] as NSArray))
        #expect(transformer.transformedValue(Data(archive)) as? [String] == ["only"])
        let element = try #require(archive.indices.first { archive[$0] == 0x80 && $0 + 1 < archive.count && archive[$0 + 1] == 2 })
        for (reference, problem) in [(UInt8(1), "contains itself"), (0x7F, "does not hold")] {
            var bytes = archive
            bytes[element + 1] = reference
            #expect(transformer.transformedValue(Data(bytes)) == nil)
            let refusal = KeyedArchiveCheck.refusal(of: Data(bytes), allowed: NSSecureUnarchiveFromDataTransformer.allowedTopLevelClasses)
            #expect(refusal?.contains(problem) == true, "\(refusal ?? "no refusal")")
        }
    }

    @Test("a stored value of a class outside the allowed ones reads as nil, and the row's other values as they are")
    func storedValue() throws {
        let stack = try GraphStack(model: TransformableAttributeTests.model())
        let writer = stack.context()
        writer.make("Swatch", ["name": "painted", "tags": ["warm"]])
        try writer.save()
        let foreign = try Self.archive([SecurePaint(level: 1)] as NSArray)
        let hex = foreign.map { String(format: "%02X", $0) }.joined()
        try RobustnessKit.execute("UPDATE ZSWATCH SET ZTAGS = x'\(hex)'", on: stack.storeURL)
        #expect(try TransformableAttributeTests.reread(stack, "tags") == nil)
        #expect(try TransformableAttributeTests.reread(stack, "name") as? String == "painted")
    }

    @Test("archives of Foundation values, of the app's classes, and of objects shared by others decode without a transformer")
    func plainArchivesDecode() throws {
        let shared = ArchivedNode("shared")
        let first = ArchivedNode("first"), second = ArchivedNode("second")
        first.next = shared
        second.next = shared
        let values: [Any] = [
            NSMutableString(string: "m"), ["a", "b"] as NSArray, ["k": 1] as NSDictionary,
            ArchivedMarker(number: 3), [first, second] as NSArray,
            NSURL(string: "b/c", relativeTo: URL(string: "https://example.com/a/"))!, NSUUID(),
            NSDate(timeIntervalSince1970: 5), NSOrderedSet(array: ["x", "y"]),
        ]
        for value in values {
            let data = try Self.archive(value, secure: false)
            #expect(KeyedArchiveCheck.refusal(of: data, allowed: nil) == nil)
            #expect(KeyedArchiving.unarchive(data) != nil)
        }
        let nodes = try #require(KeyedArchiving.unarchive(try Self.archive([first, second] as NSArray, secure: false)) as? [ArchivedNode])
        #expect(nodes.map { $0.next?.label } == ["shared", "shared"])
    }

    @Test(
        "an archive whose objects contain themselves, or whose Foundation objects are damaged, is refused",
        arguments: [
            ("cycle", "contains itself"), ("string without characters", "without its characters"),
            ("string of a number", "without its characters"), ("string of $null", "without its characters"),
            ("error", "cannot decode"), ("array of a number", "not an array"), ("missing object", "does not hold"),
            ("decimal number of numbers", "digits are damaged"), ("url without its string", "without its string"),
            ("url based on a class description", "base is not a URL"),
        ])
    func damagedPlainArchives(_ damage: String, _ reason: String) throws {
        let data: Data
        switch damage {
        case "cycle":
            let one = ArchivedNode("one"), two = ArchivedNode("two")
            one.next = two
            two.next = one
            data = try Self.archive(one, secure: false)
        case "string without characters": data = KeyedArchiveKit.archive(className: "NSString", fields: [])
        case "string of a number": data = KeyedArchiveKit.archive(className: "NSMutableString", fields: [("NS.string", .integer(7))])
        case "string of $null": data = KeyedArchiveKit.archive(className: "NSString", fields: [("NS.string", .reference(0))])
        case "error": data = KeyedArchiveKit.archive(className: "NSError", fields: [("NSCode", .integer(1)), ("NSDomain", .string("d"))])
        case "decimal number of numbers":
            data = KeyedArchiveKit.archive(
                className: "NSDecimalNumber", fields: ["NS.mantissa", "NS.length", "NS.exponent"].map { ($0, .integer(-7)) })
        case "array of a number": data = KeyedArchiveKit.archive(className: "NSArray", fields: [("NS.objects", .integer(7))])
        case "url without its string": data = KeyedArchiveKit.archive(className: "NSURL", fields: [("NS.base", .reference(0))])
        case "url based on a class description":
            // Object 2 is the root's class description, which is no URL.
            data = KeyedArchiveKit.archive(className: "NSURL", fields: [("NS.base", .reference(2)), ("NS.relative", .string("a"))])
        default: data = KeyedArchiveKit.archive(className: "NSArray", fields: [("NS.objects", .references([9]))])
        }
        let refusal = KeyedArchiveCheck.refusal(of: data, allowed: nil)
        #expect(refusal?.contains(reason) == true, "\(refusal ?? "no refusal")")
        #expect(KeyedArchiving.unarchive(data) == nil)
        #expect(NSSecureUnarchiveFromDataTransformer().transformedValue(data) == nil)
    }

    @Test("an archive written byte by byte as Foundation writes it decodes: the check reads it as the unarchiver does")
    func handWrittenArchive() throws {
        let data = KeyedArchiveKit.archive(className: "NSMutableString", fields: [("NS.string", .string("hand"))])
        #expect(KeyedArchiveCheck.refusal(of: data, allowed: nil) == nil)
        #expect(KeyedArchiving.unarchive(data) as? String == "hand")
    }

    @Test("a stored value whose archive contains itself reads as its bytes, and a save keeps them")
    func storedCycle() throws {
        let one = ArchivedNode("one"), two = ArchivedNode("two")
        one.next = two
        two.next = one
        let stack = try GraphStack(model: TransformableAttributeTests.model())
        let writer = stack.context()
        writer.make("Swatch", ["name": "loop", "settings": one])
        try writer.save()
        let stored = try #require(try TransformableAttributeTests.reread(stack, "settings") as? Data)
        #expect(KeyedArchiveCheck.refusal(of: stored, allowed: nil)?.contains("contains itself") == true)
        let editor = stack.context(try stack.secondCoordinator())
        let swatch = try #require(try editor.fetch(NSFetchRequest<NSManagedObject>(entityName: "Swatch")).first)
        swatch.setValue("renamed", forKey: "name")
        try editor.save()
        #expect(try TransformableAttributeTests.reread(stack, "settings") as? Data == stored)
    }
}
