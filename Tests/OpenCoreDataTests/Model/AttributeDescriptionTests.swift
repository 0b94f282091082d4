import OpenCoreData
import Testing

@Suite("Attribute descriptions")
struct AttributeDescriptionTests {
    @Test("A new attribute is optional, persistent and of undefined type")
    func defaults() {
        let attribute = NSAttributeDescription()
        #expect(attribute.name == "")
        #expect(attribute.isOptional)
        #expect(!attribute.isTransient)
        #expect(!attribute.isReadOnly)
        #expect(attribute.attributeType == .undefinedAttributeType)
        #expect(attribute.defaultValue == nil)
        #expect(!attribute.allowsExternalBinaryDataStorage)
        #expect(!attribute.preservesValueInHistoryOnDeletion)
        #expect(!attribute.allowsCloudEncryption)
        #expect(attribute.validationPredicates.isEmpty)
        #expect(attribute.versionHash.count == 32)
    }

    @Test("Attribute types have Core Data's raw values")
    func rawValues() {
        let expected: [(NSAttributeType, UInt)] = [
            (.undefinedAttributeType, 0), (.integer16AttributeType, 100), (.integer32AttributeType, 200),
            (.integer64AttributeType, 300), (.decimalAttributeType, 400), (.doubleAttributeType, 500),
            (.floatAttributeType, 600), (.stringAttributeType, 700), (.booleanAttributeType, 800),
            (.dateAttributeType, 900), (.binaryDataAttributeType, 1000), (.UUIDAttributeType, 1100),
            (.URIAttributeType, 1200), (.transformableAttributeType, 1800), (.objectIDAttributeType, 2000),
            (.compositeAttributeType, 2100),
        ]
        for (type, raw) in expected {
            #expect(type.rawValue == raw)
        }
        #expect(NSAttributeType.allCases.count == expected.count)
    }

    @Test("attributeValueClassName follows the attribute type unless set")
    func valueClassNames() {
        let expected: [(NSAttributeType, String?)] = [
            (.integer16AttributeType, "NSNumber"), (.integer32AttributeType, "NSNumber"),
            (.integer64AttributeType, "NSNumber"), (.decimalAttributeType, "NSDecimalNumber"),
            (.doubleAttributeType, "NSNumber"), (.floatAttributeType, "NSNumber"),
            (.stringAttributeType, "NSString"), (.booleanAttributeType, "NSNumber"),
            (.dateAttributeType, "NSDate"), (.binaryDataAttributeType, "NSData"), (.UUIDAttributeType, "NSUUID"),
            (.URIAttributeType, "NSURL"), (.objectIDAttributeType, "NSManagedObjectID"),
            (.transformableAttributeType, nil), (.undefinedAttributeType, nil),
        ]
        for (type, className) in expected {
            let attribute = ModelKit.attribute("value", type)
            #expect(attribute.attributeValueClassName == className, "\(type)")
        }
        let custom = ModelKit.attribute("color", .transformableAttributeType)
        custom.attributeValueClassName = "UIColor"
        #expect(custom.attributeValueClassName == "UIColor")
    }

    @Test("type and attributeType are two views of the same value")
    func swiftType() {
        let attribute = NSAttributeDescription()
        attribute.type = .integer64
        #expect(attribute.attributeType == .integer64AttributeType)
        attribute.attributeType = .UUIDAttributeType
        #expect(attribute.type == .uuid)
        #expect(NSAttributeDescription.AttributeType.string.rawValue == .stringAttributeType)
    }

    @Test("Validation predicates and warnings are stored together")
    func validationRules() {
        let attribute = ModelKit.attribute("age", .integer16AttributeType)
        let minimum = NSPredicate(format: "SELF >= 0")
        let maximum = NSPredicate(format: "SELF <= 150")
        attribute.setValidationPredicates([minimum, maximum], withValidationWarnings: ["too small", "too large"])
        #expect(attribute.validationPredicates.count == 2)
        #expect(attribute.validationPredicates.first?.predicateFormat == "SELF >= 0")
        #expect(attribute.validationWarnings.compactMap { $0 as? String } == ["too small", "too large"])
        attribute.setValidationPredicates(nil, withValidationWarnings: nil)
        #expect(attribute.validationPredicates.isEmpty)
        #expect(attribute.validationWarnings.isEmpty)
    }

    @Test("Copies keep every setting")
    func copying() throws {
        let attribute = ModelKit.attribute("photo", .binaryDataAttributeType, optional: false)
        attribute.allowsExternalBinaryDataStorage = true
        attribute.preservesValueInHistoryOnDeletion = true
        attribute.allowsCloudEncryption = true
        attribute.defaultValue = Data([1, 2])
        attribute.renamingIdentifier = "image"
        attribute.versionHashModifier = "2"
        attribute.userInfo = ["k": "v"]
        let copy = try #require(attribute.copy() as? NSAttributeDescription)
        #expect(copy !== attribute)
        #expect(copy.name == "photo")
        #expect(!copy.isOptional)
        #expect(copy.attributeType == .binaryDataAttributeType)
        #expect(copy.allowsExternalBinaryDataStorage)
        #expect(copy.preservesValueInHistoryOnDeletion)
        #expect(copy.allowsCloudEncryption)
        #expect(copy.defaultValue as? Data == Data([1, 2]))
        #expect(copy.renamingIdentifier == "image")
        #expect(copy.userInfo?["k"] as? String == "v")
        #expect(copy.versionHash == attribute.versionHash)
    }

    @Test("Composite attributes hold nested elements and are always of composite type")
    func composite() throws {
        let street = ModelKit.attribute("street", .stringAttributeType)
        let lat = ModelKit.attribute("latitude", .doubleAttributeType)
        let position = NSCompositeAttributeDescription()
        position.name = "position"
        position.elements = [lat]
        let address = NSCompositeAttributeDescription()
        address.name = "address"
        address.elements = [street, position]
        #expect(address.attributeType == .compositeAttributeType)
        #expect(address.type == .composite)
        #expect(address.elements.map(\.name) == ["street", "position"])
        #expect((address.elements.last as? NSCompositeAttributeDescription)?.elements.first?.name == "latitude")
        let copy = try #require(address.copy() as? NSCompositeAttributeDescription)
        #expect(copy.elements.map(\.name) == ["street", "position"])
        #expect(copy.elements.first !== street)
        lat.name = "lat"
        #expect(address.versionHash != copy.versionHash, "element changes reach the composite's hash")
    }

    @Test("Derived attributes hold their expression and are read-only")
    func derived() {
        let derived = NSDerivedAttributeDescription()
        derived.name = "pagesCount"
        derived.attributeType = .integer64AttributeType
        derived.derivationExpression = NSExpression(format: "count:(pages)")
        #expect(derived.isReadOnly)
        #expect(derived.derivationExpression?.description == "count:(pages)")
    }

    @Test("Expression descriptions carry a named expression and its result type")
    func expressionDescription() {
        let description = NSExpressionDescription()
        description.name = "latest"
        description.expression = NSExpression(forFunction: "max:", arguments: [NSExpression(forKeyPath: "date")])
        description.expressionResultType = .dateAttributeType
        #expect(description.name == "latest")
        #expect(description.expression != nil)
        #expect(description.expressionResultType == .dateAttributeType)
        #expect(description.isReadOnly)
    }
}
