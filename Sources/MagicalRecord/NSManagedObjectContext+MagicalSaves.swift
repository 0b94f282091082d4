import OpenCoreData

/// How ``NSManagedObjectContext/mr_save(withOptions:completion:)`` saves: `[]` saves only the receiver,
/// asynchronously. The members have the names Swift gives MagicalRecord's `MRSaveParentContexts`,
/// `MRSaveSynchronously` and `MRSaveSynchronouslyExceptRootContext`.
public struct MRSaveOptions: OptionSet, Sendable {
    /// The options' bits.
    public let rawValue: UInt

    /// Creates options from their bits.
    public init(rawValue: UInt) {
        self.rawValue = rawValue
    }

    /// Saves the receiver, then each parent in turn, up to the persistent store.
    public static let parentContexts = MRSaveOptions(rawValue: 1 << 1)
    /// Saves synchronously: the call returns after the saves.
    public static let synchronously = MRSaveOptions(rawValue: 1 << 2)
    /// Saves synchronously, except the root saving context, which saves asynchronously.
    public static let synchronouslyExceptRootContext = MRSaveOptions(rawValue: 1 << 3)
}

/// The block a save calls when it finishes, on the main queue: whether the context saved, and the error
/// if the save failed. A context without changes reports `false` and no error.
public typealias MRSaveCompletionHandler = @MainActor (_ contextDidSave: Bool, _ error: NSError?) -> Void

extension NSManagedObjectContext {
    /// Saves the receiver asynchronously, not its parents; `completion` runs on the main queue.
    public func mr_saveOnlySelf(completion: MRSaveCompletionHandler?) {
        mr_save(withOptions: [], completion: completion)
    }

    /// Saves the receiver, not its parents, and returns when it is saved.
    public func mr_saveOnlySelfAndWait() {
        mr_save(withOptions: .synchronously, completion: nil)
    }

    /// Saves the receiver and then its parents up to the store, asynchronously; `completion` runs on the
    /// main queue once the last save finished.
    public func mr_saveToPersistentStore(completion: MRSaveCompletionHandler?) {
        mr_save(withOptions: .parentContexts, completion: completion)
    }

    /// Saves the receiver and then its parents up to the store, and returns when the store is written.
    public func mr_saveToPersistentStoreAndWait() {
        mr_save(withOptions: [.parentContexts, .synchronously], completion: nil)
    }

    /// Saves the receiver as `saveOptions` say; `completion` runs on the main queue with the result of
    /// the last save.
    ///
    /// A context without changes saves nothing and reports `false`. A failed save is reported to
    /// ``MagicalRecord/handleErrors(_:)`` and to `completion`, and its parents are not saved. Objects
    /// the context inserted get permanent IDs before a save to a parent context.
    public func mr_save(withOptions saveOptions: MRSaveOptions, completion: MRSaveCompletionHandler?) {
        let hasChanges = mr_onQueue { self.hasChanges }
        guard hasChanges else {
            MRLog.verbose("NO CHANGES IN ** \(mr_workingName()) ** CONTEXT - NOT SAVING")
            if let completion { Self.mr_complete(completion, false, nil) }
            return
        }
        let saveParents = saveOptions.contains(.parentContexts)
        let synchronously = saveOptions.contains(.synchronously)
        let exceptRoot = saveOptions.contains(.synchronouslyExceptRootContext)
        let isRoot = MagicalRecordStack.shared.withLock { $0.rootSavingContext } === self
        let saveSynchronously = (synchronously && !exceptRoot) || (exceptRoot && !isRoot)
        let save = { [self] in
            MRLog.info("→ Saving \(mr_description())")
            var saved = false
            var failure: NSError?
            do {
                if parent != nil, !insertedObjects.isEmpty {
                    try obtainPermanentIDs(for: Array(insertedObjects))
                }
                try self.save()
                saved = true
            } catch {
                failure = error as NSError
                MagicalRecord.handleErrors(failure)
            }
            if saved, saveParents, let parent {
                var options = saveOptions
                if saveSynchronously { options.insert(.synchronously) } else { options.remove(.synchronously) }
                parent.mr_save(withOptions: options, completion: completion)
            } else {
                if saved { MRLog.verbose("→ Finished saving: \(mr_description())") }
                if let completion { Self.mr_complete(completion, saved, failure) }
            }
        }
        if saveSynchronously {
            performAndWait(save)
        } else {
            perform(save)
        }
    }

    /// Calls `completion` on the main queue.
    static func mr_complete(_ completion: @escaping MRSaveCompletionHandler, _ saved: Bool, _ error: NSError?) {
        let box = ErrorBox(error)
        DispatchQueue.main.async {
            MainActor.assumeIsolated { completion(saved, box.error) }
        }
    }
}

/// An error handed to the main queue.
// @unchecked Sendable: the error is set once, before the box crosses to the main queue, and only read
// there; an NSError is immutable.
final class ErrorBox: @unchecked Sendable {
    let error: NSError?

    init(_ error: NSError?) {
        self.error = error
    }
}
