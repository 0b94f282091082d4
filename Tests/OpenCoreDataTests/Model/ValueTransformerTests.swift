import OpenCoreData
import Testing

/// A user-style transformer: Fahrenheit temperatures to Celsius and back.
final class FahrenheitToCelsiusTransformer: ValueTransformer {
    override class func transformedValueClass() -> AnyClass { NSNumber.self }
    override class func allowsReverseTransformation() -> Bool { true }

    override func transformedValue(_ value: Any?) -> Any? {
        guard let fahrenheit = (value as? NSNumber)?.doubleValue else { return nil }
        return NSNumber(value: (fahrenheit - 32) * 5 / 9)
    }

    override func reverseTransformedValue(_ value: Any?) -> Any? {
        guard let celsius = (value as? NSNumber)?.doubleValue else { return nil }
        return NSNumber(value: celsius * 9 / 5 + 32)
    }
}

/// A transformer that only overrides the forward direction (and keeps the default reversibility).
final class UppercaseTransformer: ValueTransformer {
    override func transformedValue(_ value: Any?) -> Any? { (value as? String)?.uppercased() }
}

/// A secure-unarchive transformer restricted to strings.
final class StringsOnlyTransformer: NSSecureUnarchiveFromDataTransformer {
    override class var allowedTopLevelClasses: [AnyClass] { [NSString.self] }
}

@Suite("ValueTransformer")
struct ValueTransformerTests {
    @Test("a registered transformer is found by name as the same instance, and removed with nil")
    func registry() throws {
        let name = NSValueTransformerName("ValueTransformerTests.FahrenheitToCelsius")
        #expect(ValueTransformer(forName: name) == nil)
        let transformer = FahrenheitToCelsiusTransformer()
        ValueTransformer.setValueTransformer(transformer, forName: name)
        let found = try #require(ValueTransformer(forName: name))
        #expect(found === transformer)
        #expect(ValueTransformer.valueTransformerNames().contains(name))
        ValueTransformer.setValueTransformer(nil, forName: name)
        #expect(ValueTransformer(forName: name) == nil)
        #expect(!ValueTransformer.valueTransformerNames().contains(name))
    }

    @Test("a custom subclass transforms both ways and reports its class and reversibility")
    func customSubclass() throws {
        let transformer = FahrenheitToCelsiusTransformer()
        #expect((transformer.transformedValue(NSNumber(value: 212)) as? NSNumber)?.doubleValue == 100)
        #expect((transformer.reverseTransformedValue(NSNumber(value: 0)) as? NSNumber)?.doubleValue == 32)
        #expect(transformer.transformedValue("hot") == nil)
        #expect(ObjectIdentifier(FahrenheitToCelsiusTransformer.transformedValueClass()) == ObjectIdentifier(NSNumber.self))
        #expect(FahrenheitToCelsiusTransformer.allowsReverseTransformation())
    }

    @Test("the base class passes values through, and reverses by applying the forward transformation")
    func defaults() {
        let identity = ValueTransformer()
        #expect(identity.transformedValue("same") as? String == "same")
        #expect(identity.transformedValue(nil) == nil)
        #expect(ValueTransformer.allowsReverseTransformation())
        #expect(UppercaseTransformer().reverseTransformedValue("abc") as? String == "ABC")
    }

    @Test("the built-in transformers are registered under Apple's names")
    func builtInNames() {
        let names = ValueTransformer.valueTransformerNames()
        for raw in [
            "NSNegateBoolean", "NSIsNil", "NSIsNotNil", "NSUnarchiveFromData", "NSKeyedUnarchiveFromData",
            "NSSecureUnarchiveFromData",
        ] {
            #expect(names.contains(NSValueTransformerName(raw)), "\(raw)")
            #expect(ValueTransformer(forName: NSValueTransformerName(rawValue: raw)) != nil, "\(raw)")
        }
        #expect(NSValueTransformerName.negateBooleanTransformerName.rawValue == "NSNegateBoolean")
        #expect(NSValueTransformerName.isNilTransformerName.rawValue == "NSIsNil")
        #expect(NSValueTransformerName.isNotNilTransformerName.rawValue == "NSIsNotNil")
        #expect(NSValueTransformerName.secureUnarchiveFromDataTransformerName.rawValue == "NSSecureUnarchiveFromData")
        #expect(ValueTransformer(forName: .secureUnarchiveFromDataTransformerName) is NSSecureUnarchiveFromDataTransformer)
    }

    @Test("NSNegateBoolean negates both ways; NSIsNil and NSIsNotNil test for nil and cannot reverse")
    func booleanTransformers() throws {
        let negate = try #require(ValueTransformer(forName: .negateBooleanTransformerName))
        #expect(negate.transformedValue(true) as? Bool == false)
        #expect(negate.transformedValue(NSNumber(value: false)) as? Bool == true)
        #expect(negate.reverseTransformedValue(true) as? Bool == false)
        let isNil = try #require(ValueTransformer(forName: .isNilTransformerName))
        let isNotNil = try #require(ValueTransformer(forName: .isNotNilTransformerName))
        #expect(isNil.transformedValue(nil) as? Bool == true)
        #expect(isNil.transformedValue("x") as? Bool == false)
        #expect(isNotNil.transformedValue(nil) as? Bool == false)
        #expect(isNotNil.transformedValue(3) as? Bool == true)
        #expect(!type(of: isNil).allowsReverseTransformation())
        #expect(!type(of: isNotNil).allowsReverseTransformation())
    }

    @Test("NSSecureUnarchiveFromData archives in reverse and unarchives allowed classes forward")
    func secureUnarchive() throws {
        let transformer = try #require(ValueTransformer(forName: .secureUnarchiveFromDataTransformerName))
        let values: [String: Any] = ["name": "Ann", "scores": [1, 2, 3], "ratio": 0.5]
        let data = try #require(transformer.reverseTransformedValue(values) as? Data)
        let back = try #require(transformer.transformedValue(data) as? [String: Any])
        #expect(back["name"] as? String == "Ann")
        #expect(back["scores"] as? [Int] == [1, 2, 3])
        #expect(back["ratio"] as? Double == 0.5)
        #expect(transformer.transformedValue(Data("not an archive".utf8)) == nil)
    }

    @Test("NSSecureUnarchiveFromDataTransformer subclasses restrict the top-level classes")
    func allowedTopLevelClasses() throws {
        let transformer = StringsOnlyTransformer()
        let text = try #require(transformer.reverseTransformedValue("hello") as? Data)
        #expect(transformer.transformedValue(text) as? String == "hello")
        let number = try #require(transformer.reverseTransformedValue(NSNumber(value: 7)) as? Data)
        #expect(transformer.transformedValue(number) == nil)
    }

    @Test("values that are not NSSecureCoding objects are not archived")
    func unarchivableValue() throws {
        struct Point { var x = 1 }
        let transformer = try #require(ValueTransformer(forName: .secureUnarchiveFromDataTransformerName))
        #expect(transformer.reverseTransformedValue(Point()) == nil)
        #expect(transformer.reverseTransformedValue([Point()]) == nil)
    }

    @Test("NSKeyedUnarchiveFromData round-trips keyed archives")
    func keyedUnarchive() throws {
        let transformer = try #require(ValueTransformer(forName: NSValueTransformerName("NSKeyedUnarchiveFromData")))
        let data = try #require(transformer.reverseTransformedValue(["a", "b"]) as? Data)
        #expect(transformer.transformedValue(data) as? [String] == ["a", "b"])
    }
}
