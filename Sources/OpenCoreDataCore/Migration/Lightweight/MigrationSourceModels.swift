/// Finding the model a store was written with, among the models a migration may start from.
///
/// Apple's Core Data searches the app's bundles for the store's model. OpenCoreData searches the
/// versions of the `.xcdatamodeld` bundle the coordinator's model was loaded from, then the models
/// registered with ``NSPersistentStoreCoordinator/migrationSourceModels``.
enum MigrationSourceModels {
    /// The candidate models for a coordinator's model, registered ones first, bundle versions loaded as
    /// the search reaches them.
    static func candidates(for model: NSManagedObjectModel, registered: [NSManagedObjectModel]) -> MigrationCandidates {
        MigrationCandidates(for: model, registered: registered)
    }

    /// The versions a progressive migration may pass through, oldest first: the versions of the
    /// bundle the model was loaded from, in the bundle's order (folder names, numbers by value), or
    /// else the registered models in the order given.
    static func orderedVersions(
        for model: NSManagedObjectModel,
        registered: [NSManagedObjectModel]
    ) -> [(name: String?, model: NSManagedObjectModel)] {
        candidates(for: model, registered: registered).orderedVersions()
    }

    /// Loads a version of a bundle for a migration and makes it immutable, as a coordinator makes its
    /// model, so that the many comparisons of a migration plan read each entity's version hash and
    /// property lookups instead of computing them again. A version too inconsistent to be used by a
    /// coordinator stays editable (and is compared all the same).
    static func loadVersion(_ version: NSManagedObjectModel.BundleVersion) throws -> NSManagedObjectModel {
        let model = try version.loadModel()
        try? model._markInUse()
        return model
    }

    /// The `.xcdatamodeld` bundle (or compiled `.momd` folder) a model was loaded from, if any.
    static func bundleURL(of model: NSManagedObjectModel) -> URL? {
        guard let url = model._sourceURL else { return nil }
        let bundles = [ModelBundleLayout.bundleExtension, CompiledModelFiles.bundleExtension]
        if bundles.contains(url.pathExtension) { return url }
        let parent = url.deletingLastPathComponent()
        if [ModelBundleLayout.versionExtension, CompiledModelFiles.modelExtension].contains(url.pathExtension),
            bundles.contains(parent.pathExtension)
        {
            return parent
        }
        return nil
    }

    /// Where the search looked, for error messages.
    static func searchedPlaces(for model: NSManagedObjectModel, registered: [NSManagedObjectModel]) -> String {
        var places: [String] = []
        if let bundle = bundleURL(of: model) { places.append("the versions of \(bundle.path)") }
        places.append("\(registered.count) registered model(s)")
        return places.joined(separator: " and ")
    }

    /// The first candidate whose configuration matches the store's metadata, or else whose layout is
    /// exactly the file's (an Apple-written store whose version hashes OpenCoreData computes
    /// differently).
    static func sourceModel(
        forStoreAt url: URL, metadata: [String: Any], configuration: String?,
        candidates: some Sequence<NSManagedObjectModel>
    ) -> NSManagedObjectModel? {
        func configurationName(_ model: NSManagedObjectModel) -> String? {
            guard let configuration, model.configurations.contains(configuration) else { return nil }
            return configuration
        }
        if let match = candidates.first(where: { $0.isConfiguration(withName: configurationName($0), compatibleWithStoreMetadata: metadata) }) {
            return match
        }
        return candidates.first { candidate in
            guard let schema = try? SQLiteSchema(model: candidate, configurationName: configurationName(candidate)),
                let differences = try? schema.differences(inStoreAt: url)
            else { return false }
            return differences.isEmpty
        }
    }
}
