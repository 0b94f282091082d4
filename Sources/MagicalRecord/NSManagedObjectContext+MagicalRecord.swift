import OpenCoreData

/// The `userInfo` key of a context's working name.
let MagicalRecordContextWorkingName = "MagicalRecordContextWorkingName"

extension NSManagedObjectContext {
    // MARK: The default contexts

    /// Makes the stack's contexts for `coordinator`, unless a default context exists: a root saving
    /// context on a private queue attached to the coordinator (merge policy
    /// `NSMergeByPropertyObjectTrumpMergePolicy`), and a default context on the main queue whose parent
    /// is the root saving context. What the root saving context saves is merged into the default
    /// context on the main queue.
    public class func mr_initializeDefaultContext(with coordinator: NSPersistentStoreCoordinator) {
        guard MagicalRecordStack.shared.withLock({ $0.defaultContext }) == nil else { return }
        let root = mr_context(with: coordinator)
        root.performAndWait {
            root.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy
        }
        root.mr_setWorkingName("MagicalRecord Root Saving Context")
        let context = mr_newMainQueue()
        context.parent = root
        // Not through the main queue: set-up may run on another thread before the main queue is served,
        // and no other code has the new context yet.
        context.userInfo[MagicalRecordContextWorkingName] = "MagicalRecord Default Context"
        let observer = NotificationCenter.default.addObserver(
            forName: .NSManagedObjectContextDidSave, object: root,
            queue: nil
        ) { [weak context] notification in
            guard let context else { return }
            // The root saves on its own queue; the default context merges on the main queue.
            context.perform { context.mergeChanges(fromContextDidSave: notification) }
        }
        MagicalRecordStack.shared.withLock { stack in
            stack.rootSavingContext = root
            stack.defaultContext = context
            stack.rootSaveObserver = observer
        }
    }

    /// Returns the default context: the main-queue context whose parent is the root saving context.
    /// Use it on the main queue.
    ///
    /// Stops the program when the stack is not set up, as MagicalRecord's assertion does.
    public class func mr_default() -> NSManagedObjectContext {
        guard let context = MagicalRecordStack.shared.withLock({ $0.defaultContext }) else {
            fatalError("Default context is nil! Did you forget to initialize the Core Data Stack?")
        }
        return context
    }

    /// Returns the root saving context: the private-queue context attached to the default coordinator,
    /// whose saves write to the store.
    ///
    /// Stops the program when the stack is not set up, as MagicalRecord's assertion does.
    public class func mr_rootSaving() -> NSManagedObjectContext {
        guard let context = MagicalRecordStack.shared.withLock({ $0.rootSavingContext }) else {
            fatalError("Root saving context is nil! Did you forget to initialize the Core Data Stack?")
        }
        return context
    }

    /// Resets the default context, on the main queue (at once on the main thread, later from another).
    public class func mr_resetDefaultContext() {
        let context = mr_default()
        if MainQueue.isCurrent {
            context.reset()
        } else {
            context.perform { context.reset() }
        }
    }

    // MARK: New contexts

    /// Returns a new private-queue context whose parent is the root saving context.
    public class func mr_() -> NSManagedObjectContext {
        mr_context(withParent: mr_rootSaving())
    }

    /// Returns a new private-queue context whose parent is `parentContext`.
    public class func mr_context(withParent parentContext: NSManagedObjectContext) -> NSManagedObjectContext {
        let context = mr_newPrivateQueue()
        context.parent = parentContext
        return context
    }

    /// Returns a new private-queue context attached to `coordinator`.
    public class func mr_context(with coordinator: NSPersistentStoreCoordinator) -> NSManagedObjectContext {
        let context = mr_newPrivateQueue()
        context.performAndWait { context.persistentStoreCoordinator = coordinator }
        return context
    }

    /// Returns a new main-queue context with neither parent nor coordinator.
    public class func mr_newMainQueue() -> NSManagedObjectContext {
        NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
    }

    /// Returns a new private-queue context with neither parent nor coordinator.
    public class func mr_newPrivateQueue() -> NSManagedObjectContext {
        NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
    }

    // MARK: Debugging

    /// Runs `body` on the context's queue: at once for a main-queue context on the main thread.
    func mr_onQueue<T>(_ body: () -> T) -> T {
        performAndWait(body)
    }

    /// Sets the name the context goes by in MagicalRecord's log and descriptions.
    public func mr_setWorkingName(_ workingName: String) {
        mr_onQueue { userInfo[MagicalRecordContextWorkingName] = workingName }
    }

    /// Returns the name the context goes by, `"Untitled Context"` when none was set.
    public func mr_workingName() -> String {
        let name = mr_onQueue { userInfo[MagicalRecordContextWorkingName] as? String }
        guard let name, !name.isEmpty else { return "Untitled Context" }
        return name
    }

    /// Returns a description of the context: its class, address, working name and the kind of thread
    /// asking.
    public func mr_description() -> String {
        let thread = MainQueue.isCurrent ? "the main thread" : "a background thread"
        return "<\(type(of: self)) (\(Unmanaged.passUnretained(self).toOpaque())): \(mr_workingName())> on \(thread)"
    }

    /// Returns the chain of the context and its parents, one line each, the receiver marked `(*)`.
    public func mr_parentChain() -> String {
        var tree = "\n"
        var current: NSManagedObjectContext? = self
        while let context = current {
            tree += "- \(context.mr_workingName()) (\(Unmanaged.passUnretained(context).toOpaque())) \(context === self ? "(*)" : "")\n"
            current = context.parent
        }
        return tree
    }

    // MARK: Deleting

    /// Deletes each of `objects` from the context.
    public func mr_deleteObjects(_ objects: some Sequence<NSManagedObject>) {
        for object in objects { delete(object) }
    }
}
