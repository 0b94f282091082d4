// Core Data's error codes in NSCocoaErrorDomain, with Apple's names and values.

// MARK: Validation

/// A generic validation error.
public let NSManagedObjectValidationError = 1550
/// One or more uniqueness constraints were violated.
public let NSManagedObjectConstraintValidationError = 1551
/// Several validation errors occurred; they are in the error's ``NSDetailedErrorsKey`` array.
public let NSValidationMultipleErrorsError = 1560
/// A non-optional property has no value.
public let NSValidationMissingMandatoryPropertyError = 1570
/// A to-many relationship has fewer destination objects than its minimum count.
public let NSValidationRelationshipLacksMinimumCountError = 1580
/// A bounded to-many relationship has more destination objects than its maximum count.
public let NSValidationRelationshipExceedsMaximumCountError = 1590
/// A relationship with the deny delete rule is not empty.
public let NSValidationRelationshipDeniedDeleteError = 1600
/// A number is larger than the attribute's maximum.
public let NSValidationNumberTooLargeError = 1610
/// A number is smaller than the attribute's minimum.
public let NSValidationNumberTooSmallError = 1620
/// A date is later than the attribute's maximum.
public let NSValidationDateTooLateError = 1630
/// A date is earlier than the attribute's minimum.
public let NSValidationDateTooSoonError = 1640
/// A date does not match the expected pattern.
public let NSValidationInvalidDateError = 1650
/// A string is longer than the attribute's maximum length.
public let NSValidationStringTooLongError = 1660
/// A string is shorter than the attribute's minimum length.
public let NSValidationStringTooShortError = 1670
/// A string does not match the attribute's regular expression.
public let NSValidationStringPatternMatchingError = 1680
/// A URI cannot be represented as a string.
public let NSValidationInvalidURIError = 1690

// MARK: Locking

/// A lock could not be acquired in a managed object context.
public let NSManagedObjectContextLockingError = 132000
/// A lock could not be acquired in a persistent store coordinator.
public let NSPersistentStoreCoordinatorLockingError = 132010

// MARK: Object graph

/// A fault points to an object that does not exist in the store.
public let NSManagedObjectReferentialIntegrityError = 133000
/// An object being saved has a relationship to an object in another store.
public let NSManagedObjectExternalRelationshipError = 133010
/// The merge policy could not complete a merge.
public let NSManagedObjectMergeError = 133020
/// The merge policy could not resolve conflicting uniqueness constraint violations.
public let NSManagedObjectConstraintMergeError = 133021

// MARK: Persistent stores

/// The persistent store type, format or version is unknown.
public let NSPersistentStoreInvalidTypeError = 134000
/// The store does not match the type it was opened as.
public let NSPersistentStoreTypeMismatchError = 134010
/// The store's schema does not allow the operation (a missing table, no permission).
public let NSPersistentStoreIncompatibleSchemaError = 134020
/// An unclassified error occurred while saving.
public let NSPersistentStoreSaveError = 134030
/// One or more stores failed during a save.
public let NSPersistentStoreIncompleteSaveError = 134040
/// A save found unresolved merge conflicts, listed under ``NSPersistentStoreSaveConflictsErrorKey``.
public let NSPersistentStoreSaveConflictsError = 134050
/// A general Core Data error.
public let NSCoreDataError = 134060
/// A persistent store operation failed.
public let NSPersistentStoreOperationError = 134070
/// A persistent store could not be opened.
public let NSPersistentStoreOpenError = 134080
/// A persistent store could not be reached within its timeout.
public let NSPersistentStoreTimeoutError = 134090
/// A persistent store was given a request type it does not handle.
public let NSPersistentStoreUnsupportedRequestTypeError = 134091
/// The store's entity version hashes do not match the model's.
public let NSPersistentStoreIncompatibleVersionHashError = 134100

// MARK: Migration

/// A general migration error.
public let NSMigrationError = 134110
/// Migration violated a uniqueness constraint.
public let NSMigrationConstraintViolationError = 134111
/// Migration was cancelled.
public let NSMigrationCancelledError = 134120
/// Migration could not find the source model.
public let NSMigrationMissingSourceModelError = 134130
/// Migration could not find a mapping model.
public let NSMigrationMissingMappingModelError = 134140
/// Migration failed because of a problem with the source store.
public let NSMigrationManagerSourceStoreError = 134150
/// Migration failed because of a problem with the destination store.
public let NSMigrationManagerDestinationStoreError = 134160
/// Migration failed in an entity migration policy.
public let NSEntityMigrationPolicyError = 134170

// MARK: Other

/// A general SQLite error.
public let NSSQLiteError = 134180
/// An inferred mapping model could not be created.
public let NSInferredMappingModelError = 134190
/// Importing external records failed.
public let NSExternalRecordImportError = 134200
/// A persistent history token is no longer valid.
public let NSPersistentHistoryTokenExpiredError = 134301

// MARK: Staged migration

/// A staged migration failed because a model reference did not find its model.
public let NSManagedObjectModelReferenceNotFoundError = 134504
/// A staged migration failed because the persistent store's metadata doesn't support staged lightweight
/// migrations.
public let NSStagedMigrationFrameworkVersionMismatchError = 134505
/// A staged migration failed because of an attempt to migrate backward.
public let NSStagedMigrationBackwardMigrationError = 134506
