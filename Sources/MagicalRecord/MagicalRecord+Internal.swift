import OpenCoreData

/// Posted by ``MagicalRecord/cleanUp()`` once the stack is torn down.
public let kMagicalRecordCleanedUpNotification = "kMagicalRecordCleanedUpNotification"

extension MagicalRecord {
    /// Tears the stack down: the default and root saving contexts, the default model, coordinator and
    /// store are released, the error handler is removed, and ``kMagicalRecordCleanedUpNotification`` is
    /// posted. A `setup…` method may then set up a new stack.
    public class func cleanUp() {
        let observer: (any NSObjectProtocol)? = MagicalRecordStack.shared.withLock { stack in
            let observer = stack.rootSaveObserver
            stack.errorHandler = nil
            stack.errorHandlerTarget = nil
            stack.defaultContext = nil
            stack.rootSavingContext = nil
            stack.rootSaveObserver = nil
            stack.model = nil
            stack.coordinator = nil
            stack.store = nil
            return observer
        }
        if let observer { NotificationCenter.default.removeObserver(observer) }
        NSManagedObjectContext.mr_clearNonMainThreadContextsCache()
        NotificationCenter.default.post(name: NSNotification.Name(kMagicalRecordCleanedUpNotification), object: nil)
    }

    /// Returns a description of the stack: the model's entity version hashes, the coordinator, the
    /// store, the default context and its chain of parents.
    public class func currentStack() -> String {
        let (model, coordinator, store, context) = MagicalRecordStack.shared.withLock {
            ($0.model, $0.coordinator, $0.store, $0.defaultContext)
        }
        var status = "Current Default Core Data Stack: ---- \n"
        status += "Model:           \(model.map { "\($0.entityVersionHashesByName)" } ?? "(null)")\n"
        status += "Coordinator:     \(coordinator.map { "\($0)" } ?? "(null)")\n"
        status += "Store:           \(store.map { "\($0)" } ?? "(null)")\n"
        status += "Default Context: \(context?.mr_description() ?? "(null)")\n"
        status += "Context Chain:   \n\(context?.mr_parentChain() ?? "(null)")\n"
        return status
    }

    /// Makes the model in the file named `modelName` (looked for in the main bundle and the resource
    /// bundles beside the program) the default model.
    public class func setDefaultModelNamed(_ modelName: String) {
        NSManagedObjectModel.mr_setDefaultManagedObjectModel(NSManagedObjectModel.mr_managedObjectModelNamed(modelName))
    }

    /// Makes the merged model of the bundle that holds `modelClass` the default model.
    ///
    /// On Linux a class's resources are in its target's resource bundle, `<Package>_<Module>.resources`
    /// beside the program (`<Package>_<Module>-tool.resources` for a target built for the host); that
    /// bundle is used when there is one, else `Bundle(for:)`.
    public class func setDefaultModelFrom(_ modelClass: AnyClass) {
        let module = String(reflecting: modelClass).split(separator: ".").first.map(String.init) ?? ""
        let resources = ResourceBundles.all().first { bundle in
            // SwiftPM names a target's bundle `<Package>_<Module>`, and `<Package>_<Module>-tool` when the
            // target is built for the host (as test targets of packages with macros are).
            let name = bundle.bundleURL.deletingPathExtension().lastPathComponent
            return name.hasSuffix("_\(module)") || name.hasSuffix("_\(module)-tool")
        }
        let bundle = resources ?? Bundle(for: modelClass)
        NSManagedObjectModel.mr_setDefaultManagedObjectModel(NSManagedObjectModel.mergedModel(from: [bundle]))
    }

    /// Returns the name of the default store file: the program's name (`CFBundleName`, else the process
    /// name) with the extension `sqlite`, or `CoreDataStore.sqlite` when the program has no name.
    public class func defaultStoreName() -> String {
        var name = (Bundle.main.infoDictionary?["CFBundleName"] as? String) ?? ProcessInfo.processInfo.processName
        if name.isEmpty { name = kMagicalRecordDefaultStoreFileName }
        if !name.hasSuffix("sqlite") { name += ".sqlite" }
        return name
    }
}
