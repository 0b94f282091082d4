import Foundation

/// The model's checks of one property value, as `validateValue(_:forKey:)` makes them: a value for a
/// non-optional property (1570), the attribute's type (1550), a valid date (1650), the counts of a
/// to-many relationship (1580/1590) and the property's validation predicates, each reported with its
/// warning (an error code such as 1610, or a message reported under code 1550).
enum PropertyValidation {
    /// Whether a value of a property with these traits passes every check without them being made:
    /// properties that are not validated, an absent value of an optional property, and an exact
    /// `NSNumber` for a number attribute without validation predicates.
    @inline(__always)
    static func passesWithoutChecks(_ value: AnyObject?, traits: PropertyValidationTraits) -> Bool {
        passesWithoutChecks(value.map(PropertySlot.object) ?? .absent, traits: traits)
    }

    /// ``passesWithoutChecks(_:traits:)`` for a value still in its slot: the answer the value would get
    /// once boxed as `validateValue(_:forKey:)` receives it, without boxing it (an integer or a double is
    /// boxed as an exact `NSNumber`).
    @inline(__always)
    static func passesWithoutChecks(_ slot: PropertySlot, traits: PropertyValidationTraits) -> Bool {
        switch traits.shape {
        case .skipped:
            return true
        case .toMany:
            return false
        case .numberAttribute:
            switch slot {
            case .absent:
                return traits.isOptional
            case .integer, .double:
                return !traits.hasPredicates
            case .object(let object):
                return !traits.hasPredicates && type(of: object) == NSNumber.self
            case .string, .date, .other:
                return false
            }
        case .toOne, .otherAttribute:
            if case .absent = slot { return traits.isOptional }
            return false
        }
    }

    static func validate(_ value: Any?, property: NSPropertyDescription, object: NSManagedObject) throws {
        if property is NSFetchedPropertyDescription || property is NSDerivedAttributeDescription { return }
        let value = value.flatMap { EvaluationValues.isNull($0) ? nil : $0 }
        let key = property.name
        if let relationship = property as? NSRelationshipDescription, relationship.isToMany {
            try validateCount(of: value, relationship: relationship, object: object)
        } else if value == nil {
            if !property.isOptional {
                throw object.validationError(
                    NSValidationMissingMandatoryPropertyError, key: key, value: nil,
                    "\(key) is a required value.")
            }
            return
        }
        guard let value else { return }
        if let attribute = property as? NSAttributeDescription {
            try validateType(value, attribute: attribute, object: object)
        }
        for (index, predicate) in property.validationPredicates.enumerated() where !predicate.evaluate(with: value) {
            let warning = index < property.validationWarnings.count ? property.validationWarnings[index] : nil
            throw predicateError(value, predicate: predicate, warning: warning, key: key, object: object)
        }
    }

    private static func validateCount(
        of value: Any?, relationship: NSRelationshipDescription,
        object: NSManagedObject
    ) throws {
        let count: Int
        switch value {
        case let set as NSSet: count = set.count
        case let set as NSOrderedSet: count = set.count
        case let array as [Any]: count = array.count
        case let set as Set<NSManagedObject>: count = set.count
        default: count = 0
        }
        let key = relationship.name
        let minimum = max(relationship.minCount, relationship.isOptional ? 0 : 1)
        if !(relationship.isOptional && count == 0), count < minimum {
            throw object.validationError(
                NSValidationRelationshipLacksMinimumCountError, key: key, value: value,
                "\(key) has \(count) objects; at least \(minimum) required.")
        }
        if relationship.maxCount > 0, count > relationship.maxCount {
            throw object.validationError(
                NSValidationRelationshipExceedsMaximumCountError, key: key, value: value,
                "\(key) has \(count) objects; at most \(relationship.maxCount) allowed.")
        }
    }

    private static func validateType(_ value: Any, attribute: NSAttributeDescription, object: NSManagedObject) throws {
        let key = attribute.name
        if attribute.attributeType == .dateAttributeType, let date = value as? Date,
            !date.timeIntervalSinceReferenceDate.isFinite
        {
            throw object.validationError(
                NSValidationInvalidDateError, key: key, value: value,
                "The date of \(key) is not a valid date (its time interval is \(date.timeIntervalSinceReferenceDate)).")
        }
        switch attribute.attributeType {
        case .transformableAttributeType, .compositeAttributeType, .undefinedAttributeType:
            return
        default:
            if !ManagedValueCoercion.hasCanonicalForm(value, for: attribute.attributeType) {
                throw object.validationError(
                    NSManagedObjectValidationError, key: key, value: value,
                    "The value \(value) of \(key) is not of the attribute's type.")
            }
        }
    }

    private static func predicateError(
        _ value: Any, predicate: NSPredicate, warning: Any?, key: String,
        object: NSManagedObject
    ) -> NSError {
        let code: Int
        let message: String
        switch warning {
        case let number as NSNumber:
            code = number.intValue
            message = "The value \(value) of \(key) does not satisfy \(predicate.predicateFormat) (\(describe(code)))."
        case let number as Int:
            code = number
            message = "The value \(value) of \(key) does not satisfy \(predicate.predicateFormat) (\(describe(code)))."
        case let text as String where !text.isEmpty:
            code = NSManagedObjectValidationError
            message = text
        default:
            code = NSManagedObjectValidationError
            message = "The value \(value) of \(key) does not satisfy \(predicate.predicateFormat)."
        }
        let error = object.validationError(code, key: key, value: value, message)
        var userInfo = error.userInfo
        userInfo[NSValidationPredicateErrorKey] = predicate
        if code == NSManagedObjectValidationError, case let text as String = warning, !text.isEmpty {
            userInfo[NSLocalizedDescriptionKey] = text
        }
        return NSError(domain: error.domain, code: code, userInfo: userInfo)
    }

    private static func describe(_ code: Int) -> String {
        switch code {
        case NSValidationNumberTooLargeError: return "number too large"
        case NSValidationNumberTooSmallError: return "number too small"
        case NSValidationDateTooLateError: return "date too late"
        case NSValidationDateTooSoonError: return "date too soon"
        case NSValidationStringTooLongError: return "string too long"
        case NSValidationStringTooShortError: return "string too short"
        case NSValidationStringPatternMatchingError: return "string does not match the pattern"
        default: return "validation error \(code)"
        }
    }
}
