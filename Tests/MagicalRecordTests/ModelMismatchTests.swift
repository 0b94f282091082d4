import Testing

@testable import MagicalRecord

/// Errors reported to MagicalRecord's error handler.
// @unchecked Sendable: `errors` is read and written only with `lock` held.
final class ErrorLog: @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [NSError] = []

    func record(_ error: NSError) { lock.withLock { errors.append(error) } }

    var codes: [Int] { lock.withLock { errors.map(\.code) } }
}

extension MagicalRecordTests {
    /// `shouldDeleteStoreOnModelMismatch`, its error codes, the delete-and-retry-once and its
    /// notifications; the error handler; the logging level.
    @Suite("Model mismatch, errors and logging")
    @MainActor
    struct ModelMismatch {
        static let notifications = [
            kMagicalRecordPSCMismatchWillDeleteStore, kMagicalRecordPSCMismatchDidDeleteStore,
            kMagicalRecordPSCMismatchCouldNotDeleteStore, kMagicalRecordPSCMismatchWillRecreateStore,
            kMagicalRecordPSCMismatchDidRecreateStore, kMagicalRecordPSCMismatchCouldNotRecreateStore,
        ]

        @Test("the defaults: deleting mismatched stores and debug logging in debug builds, neither in release builds")
        func defaults() {
            #if DEBUG
            #expect(MagicalRecord.shouldDeleteStoreOnModelMismatch())
            #expect(MagicalRecord.loggingLevel() == .debug)
            #else
            #expect(!MagicalRecord.shouldDeleteStoreOnModelMismatch())
            #expect(MagicalRecord.loggingLevel() == .error)
            #endif
            #expect(MagicalRecord.shouldAutoCreateManagedObjectModel())
            #expect(!MagicalRecord.shouldAutoCreateDefaultPersistentStoreCoordinator())
            #expect(MagicalRecord.version() == .tag2_3)
        }

        @Test("a store of an older model is deleted, with its -wal and -shm, and created again once, with the four notifications")
        func deletesMismatchedStore() throws {
            let url = try Scratch.directory().appendingPathComponent("Staff.sqlite")
            defer { StaffStack.tearDown(url) }
            try StaffStack.writeStore(at: url, model: StaffStack.firstVersion(), names: ["lxz"])
            try Data("stale".utf8).write(to: URL(fileURLWithPath: url.path + "-shm"))
            let log = NotificationLog(Self.notifications)
            MagicalRecord.setShouldDeleteStoreOnModelMismatch(true)
            MagicalRecord.setDefaultModelNamed("Staff")
            MagicalRecord.setupCoreDataStackWithStore(at: url)
            #expect(
                log.names == [
                    kMagicalRecordPSCMismatchWillDeleteStore, kMagicalRecordPSCMismatchDidDeleteStore,
                    kMagicalRecordPSCMismatchWillRecreateStore, kMagicalRecordPSCMismatchDidRecreateStore,
                ])
            #expect(NSPersistentStore.mr_default() != nil)
            #expect(Employee.mr_countOfEntities() == 0)
            StaffStack.insertEmployees([("Bo", 1.8)])
            #expect(try StaffStack.namesInStore(at: url) == ["Bo"])
        }

        @Test("with the option off the store is left alone, not added, and the error (134100) goes to the error handler")
        func keepsMismatchedStore() throws {
            let url = try Scratch.directory().appendingPathComponent("Staff.sqlite")
            defer { StaffStack.tearDown(url) }
            try StaffStack.writeStore(at: url, model: StaffStack.firstVersion(), names: ["lxz"])
            let size = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int
            let log = NotificationLog(Self.notifications)
            let errors = ErrorLog()
            let target = NSObject()
            MagicalRecord.setErrorHandlerTarget(target, action: { errors.record($0) })
            MagicalRecord.setShouldDeleteStoreOnModelMismatch(false)
            defer { MagicalRecord.setShouldDeleteStoreOnModelMismatch(true) }
            MagicalRecord.setDefaultModelNamed("Staff")
            MagicalRecord.setupCoreDataStackWithStore(at: url)
            #expect(log.names.isEmpty)
            #expect(errors.codes == [NSPersistentStoreIncompatibleVersionHashError])
            #expect(NSPersistentStoreCoordinator.mr_default()?.persistentStores.isEmpty == true)
            #expect(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int == size)
            #expect(MagicalRecord.errorHandlerTarget() === target)
            MagicalRecord.cleanUp()
            #expect(MagicalRecord.errorHandlerTarget() == nil)
        }

        @Test("the three error codes that delete a store are Core Data's incompatible-version, migration and missing-source-model errors")
        func mismatchCodes() {
            #expect(NSPersistentStoreCoordinator.mr_mismatchErrorCodes.sorted() == [134100, 134110, 134130])
        }

        @Test("logging levels include the levels below them; the level can be set")
        func loggingLevels() {
            let levels: [MagicalRecordLoggingLevel] = [.off, .error, .warn, .info, .debug, .verbose, .all]
            #expect(levels.map(\.rawValue) == [0, 1, 3, 7, 15, 31, UInt.max])
            let original = MagicalRecord.loggingLevel()
            defer { MagicalRecord.setLoggingLevel(original) }
            MagicalRecord.setLoggingLevel(.warn)
            #expect(MagicalRecord.loggingLevel() == .warn)
            #expect(MagicalRecordLoggingLevel.warn.rawValue & MagicalRecordLoggingMask.error.rawValue != 0)
            #expect(MagicalRecordLoggingLevel.warn.rawValue & MagicalRecordLoggingMask.info.rawValue == 0)
            #expect(MRLog.isCompiledIn)
            #expect(MRLog.passes(.warn) && MRLog.passes(.error))
            #expect(!MRLog.passes(.info) && !MRLog.passes(.verbose))
            MagicalRecord.setLoggingLevel(.off)
            #expect(!MRLog.passes(.error))
        }
    }
}
