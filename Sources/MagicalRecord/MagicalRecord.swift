@_exported import OpenCoreData

/// The entry point of MagicalRecord: class methods that set up and tear down a Core Data stack in one
/// line, save in one line, and set the options every other MagicalRecord call follows.
///
/// ```swift
/// MagicalRecord.setupCoreDataStack()
/// let employee = Employee.mr_createEntity()
/// NSManagedObjectContext.mr_default().mr_saveToPersistentStoreAndWait()
/// MagicalRecord.cleanUp()
/// ```
///
/// The stack is one per process: a persistent store coordinator for the default model, a root saving
/// context on a private queue attached to it, and a default context on the main queue whose parent is
/// the root saving context.
public final class MagicalRecord {
    private init() {}
}

/// The versions of MagicalRecord's API, as ``MagicalRecord/version()`` reports them.
public enum MagicalRecordVersionTag: UInt, Sendable {
    /// MagicalRecord 2.2.
    case tag2_2 = 220
    /// MagicalRecord 2.3.
    case tag2_3 = 230
    /// MagicalRecord 2.4.
    case tag2_4 = 240
}

extension MagicalRecord {
    /// Returns the version of MagicalRecord's API.
    ///
    /// MagicalRecord 2.4 reports ``MagicalRecordVersionTag/tag2_3``, and so does this implementation
    /// of it.
    public class func version() -> MagicalRecordVersionTag {
        .tag2_3
    }
}
