// Keys of the userInfo dictionaries of Core Data's errors, with Apple's names and values.

/// The array of individual errors when several occur in one operation (for example, validation of a save).
public let NSDetailedErrorsKey = "NSDetailedErrors"
/// The object that failed validation.
public let NSValidationObjectErrorKey = "NSValidationErrorObject"
/// The key (property name) that failed validation.
public let NSValidationKeyErrorKey = "NSValidationErrorKey"
/// The predicate of the condition that failed validation.
public let NSValidationPredicateErrorKey = "NSValidationErrorPredicate"
/// The value that failed validation.
public let NSValidationValueErrorKey = "NSValidationErrorValue"
/// The persistent stores involved in the error.
public let NSAffectedStoresErrorKey = "NSAffectedStoresErrorKey"
/// The managed objects involved in the error.
public let NSAffectedObjectsErrorKey = "NSAffectedObjectsErrorKey"
/// The merge conflicts found by a save.
public let NSPersistentStoreSaveConflictsErrorKey = "conflictList"
/// The error domain of errors SQLite reports; the code is SQLite's result code.
public let NSSQLiteErrorDomain = "NSSQLiteErrorDomain"
