import OpenCoreData
import Testing

/// An attribute's minimum, maximum, length and pattern settings in a model file become validation
/// predicates with Core Data's warning codes, as Xcode's model compiler makes them.
@Suite("Model file validation rules")
struct ModelFileValidationRuleTests {
    /// The comparison behind a validation predicate: operator, left key path (nil for SELF), constant.
    func comparison(_ predicate: NSPredicate) throws -> (NSComparisonPredicate.Operator, String?, Any?) {
        let comparison = try #require(predicate as? NSComparisonPredicate)
        let left = comparison.leftExpression
        let key: String? = left.expressionType == .keyPath ? left.keyPath : nil
        #expect(left.expressionType == .keyPath || left.expressionType == .evaluatedObject)
        return (comparison.predicateOperatorType, key, comparison.rightExpression.constantValue)
    }

    func warningCodes(_ attribute: NSAttributeDescription?) -> [Int] {
        (attribute?.validationWarnings ?? []).compactMap { ($0 as? NSNumber)?.intValue }
    }

    @Test("numeric minimum and maximum become SELF >= / <= predicates with warnings 1620 and 1610")
    func numericValidation() throws {
        let model = try ModelFileKit.load(
            """
            <entity name="E">
                <attribute name="age" attributeType="Integer 16" minValueString="5" maxValueString="120" defaultValueString="5"/>
                <attribute name="ratio" optional="YES" attributeType="Double" minValueString="-3.5"/>
                <attribute name="price" optional="YES" attributeType="Decimal" maxValueString="99.99"/>
            </entity>
            """)
        let a = try #require(model.entitiesByName["E"]?.attributesByName)
        let age = try #require(a["age"])
        #expect(age.validationPredicates.count == 2)
        #expect(warningCodes(age) == [NSValidationNumberTooSmallError, NSValidationNumberTooLargeError])
        #expect(warningCodes(age) == [1620, 1610])
        let (minOp, minKey, minValue) = try comparison(age.validationPredicates[0])
        #expect(minOp == .greaterThanOrEqualTo && minKey == nil && (minValue as? NSNumber)?.intValue == 5)
        let (maxOp, _, maxValue) = try comparison(age.validationPredicates[1])
        #expect(maxOp == .lessThanOrEqualTo && (maxValue as? NSNumber)?.intValue == 120)
        #expect(age.validationPredicates[0].evaluate(with: NSNumber(value: 5)))
        #expect(!age.validationPredicates[0].evaluate(with: NSNumber(value: 4)))
        #expect(!age.validationPredicates[1].evaluate(with: NSNumber(value: 121)))
        let ratio = try #require(a["ratio"])
        #expect(warningCodes(ratio) == [1620])
        #expect((try comparison(ratio.validationPredicates[0]).2 as? NSNumber)?.doubleValue == -3.5)
        #expect(warningCodes(a["price"]) == [1610])
    }

    @Test("date minimum and maximum become predicates against dates with warnings 1640 and 1630")
    func dateValidation() throws {
        let model = try ModelFileKit.load(
            """
            <entity name="E">
                <attribute name="when" optional="YES" attributeType="Date" minDateTimeInterval="284000400" minValueString="2010-01-01 01:00:00" maxDateTimeInterval="602395200" maxValueString="2020-02-03 04:00"/>
            </entity>
            """)
        let when = try #require(model.entitiesByName["E"]?.attributesByName["when"])
        #expect(warningCodes(when) == [NSValidationDateTooSoonError, NSValidationDateTooLateError])
        let (minOp, _, minValue) = try comparison(when.validationPredicates[0])
        #expect(minOp == .greaterThanOrEqualTo && minValue as? Date == Date(timeIntervalSinceReferenceDate: 284_000_400))
        let (maxOp, _, maxValue) = try comparison(when.validationPredicates[1])
        #expect(maxOp == .lessThanOrEqualTo && maxValue as? Date == Date(timeIntervalSinceReferenceDate: 602_395_200))
        #expect(when.validationPredicates[0].evaluate(with: Date(timeIntervalSinceReferenceDate: 300_000_000)))
        #expect(!when.validationPredicates[1].evaluate(with: Date(timeIntervalSinceReferenceDate: 700_000_000)))
    }

    @Test("string length and pattern become length and MATCHES predicates with warnings 1670, 1660, 1680")
    func stringValidation() throws {
        let model = try ModelFileKit.load(
            """
            <entity name="E">
                <attribute name="code" attributeType="String" minValueString="2" maxValueString="8" regularExpressionString="[A-Z]+"/>
            </entity>
            """)
        let code = try #require(model.entitiesByName["E"]?.attributesByName["code"])
        #expect(
            warningCodes(code) == [
                NSValidationStringTooShortError, NSValidationStringTooLongError,
                NSValidationStringPatternMatchingError,
            ])
        #expect(warningCodes(code) == [1670, 1660, 1680])
        let (minOp, minKey, minValue) = try comparison(code.validationPredicates[0])
        #expect(minOp == .greaterThanOrEqualTo && minKey == "length" && (minValue as? NSNumber)?.intValue == 2)
        let (maxOp, maxKey, maxValue) = try comparison(code.validationPredicates[1])
        #expect(maxOp == .lessThanOrEqualTo && maxKey == "length" && (maxValue as? NSNumber)?.intValue == 8)
        let (patternOp, patternKey, pattern) = try comparison(code.validationPredicates[2])
        #expect(patternOp == .matches && patternKey == nil && pattern as? String == "[A-Z]+")
        #expect(code.validationPredicates[2].evaluate(with: "ABC"))
        #expect(!code.validationPredicates[2].evaluate(with: "abc"))
    }

    @Test("real file: momdec's min and max values become validation predicates")
    func realMinMax() throws {
        let model = try NSManagedObjectModel.load(from: ModelFileKit.fixture("atomicbird__momdec__momdecTests.xcdatamodeld"))
        let a = try #require(model.entitiesByName["Entity"]?.attributesByName)
        for name in ["int16Attribute", "int32Attribute", "int64Attribute", "decimalAttribute", "doubleAttribute", "floatAttribute"] {
            #expect(warningCodes(a[name]) == [1620, 1610], "\(name)")
        }
        #expect(warningCodes(a["dateAttribute"]) == [1640, 1630])
        #expect((a["dateAttribute"]?.defaultValue as? Date) == Date(timeIntervalSinceReferenceDate: 388_411_200))
        #expect(a["stringAttribute"]?.validationPredicates.isEmpty == true)
    }
}
