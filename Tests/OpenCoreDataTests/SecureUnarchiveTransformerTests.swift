import Foundation
import Testing
@testable import OpenCoreData

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

/// Which archives `NSSecureUnarchiveFromDataTransformer` decodes: those whose objects are of its allowed
/// classes. Any other archive gives `nil`, as on Apple platforms, where Foundation's unarchiver on Linux
/// stopped the program.
@Suite("Secure unarchive transformer")
struct SecureUnarchiveTransformerTests {
    static func archive(_ value: Any, secure: Bool = true) throws -> Data {
        try NSKeyedArchiver.archivedData(withRootObject: value, requiringSecureCoding: secure)
    }

    @Test("an archive of the default classes, and of their subclasses, decodes")
    func defaultClasses() throws {
        let transformer = NSSecureUnarchiveFromDataTransformer()
        let value: NSDictionary = ["names": ["a", "b"], "count": 2, "when": Date(timeIntervalSince1970: 0),
                                   "bytes": Data([1, 2]), "tags": NSSet(array: ["x"])]
        #expect(transformer.transformedValue(try Self.archive(value)) as? NSDictionary == value)
        #expect(transformer.transformedValue(try Self.archive(NSMutableString(string: "m"))) as? String == "m")
    }

    @Test("a class outside the allowed ones gives nil: at the top, in an array, a set or a dictionary, nested",
          arguments: ["top", "array", "set", "dictionary key", "dictionary value", "nested"])
    func classOutsideAllowed(_ place: String) throws {
        let paint = SecurePaint(level: 0.5)
        let value: Any = switch place {
        case "top": paint
        case "array": ["fine", paint] as NSArray
        case "set": NSSet(array: ["fine", paint])
        case "dictionary key": NSDictionary(dictionary: [paint: "fine"])
        case "dictionary value": ["fine": paint] as NSDictionary
        default: [["fine": [paint]] as NSDictionary] as NSArray
        }
        let data = try Self.archive(value)
        #expect(NSSecureUnarchiveFromDataTransformer().transformedValue(data) == nil)
        #expect(SecureArchiveCheck.refusal(of: data, allowed: NSSecureUnarchiveFromDataTransformer.allowedTopLevelClasses)?
            .contains("SecurePaint") == true)
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
        #expect(SecureArchiveCheck.refusal(of: data, allowed: [InsecurePaint.self])?.contains("secure coding") == true)
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
            let refusal = SecureArchiveCheck.refusal(of: Data(bytes), allowed: NSSecureUnarchiveFromDataTransformer.allowedTopLevelClasses)
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
}
