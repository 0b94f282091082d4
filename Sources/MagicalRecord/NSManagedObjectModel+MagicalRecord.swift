import OpenCoreData

extension NSManagedObjectModel {
    /// Returns the default model of MagicalRecord's stack.
    ///
    /// When none is set and ``MagicalRecord/shouldAutoCreateManagedObjectModel()`` is `true` (the
    /// default), this is the model made by merging every model in the main bundle and in the resource
    /// bundles SwiftPM puts beside the program (``mr_mergedObjectModelFromMainBundle()``); it becomes the
    /// default model.
    public class func mr_default() -> NSManagedObjectModel? {
        if let model = MagicalRecordStack.shared.withLock({ $0.model }) { return model }
        guard MagicalRecord.shouldAutoCreateManagedObjectModel() else { return nil }
        let merged = mr_mergedObjectModelFromMainBundle()
        return MagicalRecordStack.shared.withLock { stack in
            if stack.model == nil { stack.model = merged }
            return stack.model
        }
    }

    /// Sets the default model of MagicalRecord's stack; `nil` clears it.
    public class func mr_setDefaultManagedObjectModel(_ newDefaultModel: NSManagedObjectModel?) {
        MagicalRecordStack.shared.withLock { $0.model = newDefaultModel }
    }

    /// Sets the default model of MagicalRecord's stack; `nil` clears it. (The name Swift gives
    /// `+MR_setDefaultManagedObjectModel:`.)
    public class func mr_setDefault(_ newDefaultModel: NSManagedObjectModel?) {
        mr_setDefaultManagedObjectModel(newDefaultModel)
    }

    /// Returns the model made by merging every model found in the main bundle and in the resource
    /// bundles beside the program (`<Package>_<Target>.resources`).
    ///
    /// A store written by an earlier version of a model found this way migrates: when every entity
    /// comes from one `.xcdatamodeld`, the merged model knows that bundle's versions.
    public class func mr_mergedObjectModelFromMainBundle() -> NSManagedObjectModel? {
        mergedModel(from: ResourceBundles.all())
    }

    /// Returns the model in the file named `modelFileName` (`"Staff.momd"`, `"Staff.xcdatamodeld"` or
    /// `"Staff"`), looked for in the main bundle and the resource bundles beside the program; `nil`
    /// when there is none or it cannot be read.
    public class func mr_managedObjectModelNamed(_ modelFileName: String) -> NSManagedObjectModel? {
        guard let url = ResourceBundles.modelURL(named: modelFileName) else {
            MRLog.error("Could not find a model named \(modelFileName) in the main bundle or the resource bundles beside the program")
            return nil
        }
        do {
            return try NSManagedObjectModel.load(from: url)
        } catch {
            MagicalRecord.handleErrors(error as NSError)
            return nil
        }
    }

    /// Returns a new model read from the file named `modelFileName`, as
    /// ``mr_managedObjectModelNamed(_:)`` does.
    public class func mr_newManagedObjectModelNamed(_ modelFileName: String) -> NSManagedObjectModel? {
        mr_managedObjectModelNamed(modelFileName)
    }

    /// Returns the model named `modelName` in `bundle`; `nil` when there is none.
    public class func mr_newModelNamed(_ modelName: String, in bundle: Bundle) -> NSManagedObjectModel? {
        let base = (modelName as NSString).deletingPathExtension
        for root in [bundle.resourceURL, bundle.bundleURL].compactMap({ $0 }) {
            for suffix in ["xcdatamodeld", "xcdatamodel", "momd"] {
                let url = root.appendingPathComponent("\(base).\(suffix)", isDirectory: true)
                guard FileManager.default.fileExists(atPath: url.path) else { continue }
                return try? NSManagedObjectModel.load(from: url)
            }
        }
        return nil
    }

    /// Returns the model named `modelName` in the bundle named `bundleName` (a folder
    /// `<bundleName>.bundle` or `<bundleName>.resources` beside the program, or in the main bundle).
    public class func mr_newModelNamed(_ modelName: String, inBundleNamed bundleName: String) -> NSManagedObjectModel? {
        for bundle in ResourceBundles.all() {
            let name = bundle.bundleURL.deletingPathExtension().lastPathComponent
            if name == bundleName, let model = mr_newModelNamed(modelName, in: bundle) { return model }
        }
        return nil
    }
}
