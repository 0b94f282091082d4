import OpenCoreData
import Testing

/// One `@Managed` property of every type the accessors have a typed overload for.
class TypedGauge: NSManagedObject {
    @Managed var big: Int64
    @Managed var plain: Int
    @Managed var medium: Int32
    @Managed var small: Int16
    @Managed var ratio: Double
    @Managed var bigOrNil: Int64?
    @Managed var plainOrNil: Int?
    @Managed var ratioOrNil: Double?
    @Managed var flag: Bool
    @Managed var label: String
    @Managed var labelOrNil: String?
    @Managed var stampOrNil: Date?
}

/// A subclass of a `@Managed` class: the accessors it inherits behave the same.
final class SpecialGauge: TypedGauge {}

/// The typed overloads of `managedValue(forKey:)` / `setManagedValue(_:forKey:)` must behave exactly as
/// the generic accessor: `nil` as zero, `false` or empty, model defaults, Key-Value Coding on both
/// sides, narrowing as `NSNumber` narrows, and key paths naming properties for sort descriptors.
@Suite("Typed @Managed accessors")
struct ManagedTypedAccessorTests {
    static func model() -> NSManagedObjectModel {
        func attribute(_ name: String, _ type: NSAttributeType, default value: Any? = nil) -> NSAttributeDescription {
            let attribute = ModelKit.attribute(name, type)
            attribute.defaultValue = value
            return attribute
        }
        let properties: [NSPropertyDescription] = [
            attribute("big", .integer64AttributeType), attribute("plain", .integer64AttributeType),
            attribute("medium", .integer32AttributeType), attribute("small", .integer16AttributeType, default: 5),
            attribute("ratio", .doubleAttributeType), attribute("bigOrNil", .integer64AttributeType),
            attribute("plainOrNil", .integer32AttributeType), attribute("ratioOrNil", .doubleAttributeType, default: 0.5),
            attribute("flag", .booleanAttributeType), attribute("label", .stringAttributeType),
            attribute("labelOrNil", .stringAttributeType, default: "none"), attribute("stampOrNil", .dateAttributeType),
        ]
        let gauge = ModelKit.entity("TypedGauge", properties)
        gauge.managedObjectClassName = NSStringFromClass(TypedGauge.self)
        let special = ModelKit.entity("SpecialGauge")
        special.managedObjectClassName = NSStringFromClass(SpecialGauge.self)
        gauge.subentities = [special]
        let model = NSManagedObjectModel()
        model.entities = [gauge, special]
        return model
    }

    @Test(
        "absent values read as zero, false, empty or nil; model defaults read through the typed accessors", arguments: ["TypedGauge", "SpecialGauge"])
    func absentAndDefaults(entityName: String) throws {
        let stack = try GraphStack(model: Self.model())
        let gauge = try #require(stack.context().make(entityName) as? TypedGauge)
        #expect(gauge.big == 0 && gauge.plain == 0 && gauge.medium == 0 && gauge.ratio == 0)
        #expect(gauge.small == 5)
        #expect(gauge.bigOrNil == nil && gauge.plainOrNil == nil)
        #expect(gauge.ratioOrNil == 0.5)
        #expect(gauge.flag == false)
        #expect(gauge.label == "")
        #expect(gauge.labelOrNil == "none")
        #expect(gauge.stampOrNil == nil)
    }

    @Test("typed sets read back through Key-Value Coding, KVC sets read back typed, nil removes", arguments: ["TypedGauge", "SpecialGauge"])
    func keyValueCodingBothWays(entityName: String) throws {
        let stack = try GraphStack(model: Self.model())
        let context = stack.context()
        let gauge = try #require(context.make(entityName) as? TypedGauge)
        gauge.big = 9_007_199_254_740_993
        gauge.plain = -7
        gauge.medium = 70_000
        gauge.small = -300
        gauge.ratio = 0.1
        gauge.bigOrNil = 4
        gauge.plainOrNil = 3
        gauge.ratioOrNil = 2.5
        gauge.flag = true
        gauge.label = "text"
        gauge.labelOrNil = nil
        let stamp = Date(timeIntervalSinceReferenceDate: 1_000)
        gauge.stampOrNil = stamp
        #expect((gauge.value(forKey: "big") as? NSNumber)?.int64Value == 9_007_199_254_740_993)
        #expect((gauge.value(forKey: "plain") as? NSNumber)?.intValue == -7)
        #expect((gauge.value(forKey: "medium") as? NSNumber)?.int32Value == 70_000)
        #expect((gauge.value(forKey: "small") as? NSNumber)?.int16Value == -300)
        #expect((gauge.value(forKey: "ratio") as? NSNumber)?.doubleValue == 0.1)
        #expect((gauge.value(forKey: "flag") as? NSNumber)?.boolValue == true)
        #expect(gauge.value(forKey: "labelOrNil") == nil)
        #expect(gauge.value(forKey: "stampOrNil") as? Date == stamp)
        #expect(Set(gauge.changedValues().keys).isSuperset(of: ["big", "plain", "medium", "small", "ratio", "flag", "label", "stampOrNil"]))

        gauge.bigOrNil = nil
        gauge.plainOrNil = nil
        gauge.ratioOrNil = nil
        #expect(gauge.value(forKey: "bigOrNil") == nil && gauge.value(forKey: "plainOrNil") == nil && gauge.value(forKey: "ratioOrNil") == nil)
        #expect(gauge.bigOrNil == nil && gauge.plainOrNil == nil && gauge.ratioOrNil == nil)

        gauge.setValue(NSNumber(value: 12), forKey: "plainOrNil")
        gauge.setValue(NSNumber(value: 1.25), forKey: "ratioOrNil")
        gauge.setValue(NSNumber(value: false), forKey: "flag")
        gauge.setValue("kvc", forKey: "labelOrNil")
        gauge.setValue(NSNumber(value: 70_000), forKey: "small")
        #expect(gauge.plainOrNil == 12 && gauge.ratioOrNil == 1.25 && gauge.flag == false && gauge.labelOrNil == "kvc")
        // An Integer 16 attribute holding a wider number reads as NSNumber narrows it.
        #expect(gauge.small == NSNumber(value: 70_000).int16Value)
        try context.save()

        let reader = stack.context()
        let request = NSFetchRequest<TypedGauge>(entityName: entityName)
        request.predicate = NSPredicate(format: "big == %lld AND flag == NO", 9_007_199_254_740_993 as Int64)
        let read = try #require(try reader.fetch(request).first)
        #expect(read.big == 9_007_199_254_740_993 && read.plain == -7 && read.medium == 70_000 && read.ratio == 0.1)
        #expect(read.plainOrNil == 12 && read.ratioOrNil == 1.25 && read.bigOrNil == nil)
        #expect(read.label == "text" && read.labelOrNil == "kvc" && read.stampOrNil == stamp)
    }

    @Test("key paths to typed properties name them for sort descriptors")
    func keyPathNames() {
        #expect(NSSortDescriptor(keyPath: \TypedGauge.big, ascending: true).key == "big")
        #expect(NSSortDescriptor(keyPath: \TypedGauge.plain, ascending: true).key == "plain")
        #expect(NSSortDescriptor(keyPath: \TypedGauge.medium, ascending: true).key == "medium")
        #expect(NSSortDescriptor(keyPath: \TypedGauge.small, ascending: true).key == "small")
        #expect(NSSortDescriptor(keyPath: \TypedGauge.ratio, ascending: true).key == "ratio")
        #expect(NSSortDescriptor(keyPath: \TypedGauge.bigOrNil, ascending: true).key == "bigOrNil")
        #expect(NSSortDescriptor(keyPath: \TypedGauge.plainOrNil, ascending: true).key == "plainOrNil")
        #expect(NSSortDescriptor(keyPath: \TypedGauge.ratioOrNil, ascending: true).key == "ratioOrNil")
        #expect(NSSortDescriptor(keyPath: \TypedGauge.flag, ascending: false).key == "flag")
        #expect(NSSortDescriptor(keyPath: \TypedGauge.label, ascending: true).key == "label")
        #expect(NSSortDescriptor(keyPath: \TypedGauge.labelOrNil, ascending: true).key == "labelOrNil")
        #expect(NSSortDescriptor(keyPath: \TypedGauge.stampOrNil, ascending: true).key == "stampOrNil")
        #expect(NSSortDescriptor(keyPath: \SpecialGauge.ratioOrNil, ascending: true).key == "ratioOrNil")
    }
}
