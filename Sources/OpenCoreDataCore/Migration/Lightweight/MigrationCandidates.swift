/// The models a migration may start from, in the order they are searched: the registered models,
/// then the versions of the model's `.xcdatamodeld` bundle, newest first.
///
/// A bundle version is loaded (and made immutable, see ``MigrationSourceModels/loadVersion(_:)``) the
/// first time the search reaches it, and only once: finding the store's model usually stops at the
/// first candidates, and a progressive migration's plan reuses the versions the search loaded.
///
/// Not shared between threads: one migration makes one and drops it when the migration is planned.
final class MigrationCandidates: Sequence {
    /// The models registered with the coordinator.
    let registered: [NSManagedObjectModel]
    /// The versions of the bundle the destination model was loaded from, oldest first.
    let bundleVersions: [NSManagedObjectModel.BundleVersion]
    /// The versions loaded so far, by index in `bundleVersions` (`.some(nil)` when loading failed).
    private var loaded: [Int: NSManagedObjectModel?] = [:]

    /// The candidates for a migration to `model`.
    init(for model: NSManagedObjectModel, registered: [NSManagedObjectModel]) {
        self.registered = registered
        if let bundle = MigrationSourceModels.bundleURL(of: model),
            let versions = try? NSManagedObjectModel.versions(inBundleAt: bundle)
        {
            bundleVersions = versions
        } else {
            bundleVersions = []
        }
    }

    /// The model of the bundle version at `index`, loaded on first use; `nil` when it cannot be loaded.
    func model(ofVersionAt index: Int) -> NSManagedObjectModel? {
        if let known = loaded[index] { return known }
        let model = try? MigrationSourceModels.loadVersion(bundleVersions[index])
        loaded[index] = .some(model)
        return model
    }

    /// The versions a progressive migration may pass through, oldest first: the bundle's versions that
    /// load, or else the registered models in the order given.
    func orderedVersions() -> [(name: String?, model: NSManagedObjectModel)] {
        var result: [(name: String?, model: NSManagedObjectModel)] = []
        for index in bundleVersions.indices {
            if let model = model(ofVersionAt: index) { result.append((bundleVersions[index].name, model)) }
        }
        if !result.isEmpty { return result }
        return registered.map { (nil, $0) }
    }

    /// An iterator over the candidates in search order, loading bundle versions as it reaches them.
    struct Iterator: IteratorProtocol {
        let candidates: MigrationCandidates
        var position = 0

        mutating func next() -> NSManagedObjectModel? {
            let registeredCount = candidates.registered.count
            let total = registeredCount + candidates.bundleVersions.count
            while position < total {
                defer { position += 1 }
                if position < registeredCount { return candidates.registered[position] }
                let index = candidates.bundleVersions.count - 1 - (position - registeredCount)
                if let model = candidates.model(ofVersionAt: index) { return model }
            }
            return nil
        }
    }

    /// Returns an iterator over the candidates in search order.
    func makeIterator() -> Iterator {
        Iterator(candidates: self)
    }
}
