/// The mapping models one migration plan finds in the bundles, read once.
///
/// Planning a progressive migration asks for a found mapping model between many pairs of versions (up
/// to one per pair in a long history). ``SQLiteStore/foundMappingModel(from:to:)`` walks the bundles'
/// folders and parses every `.xcmappingmodel` on each call; this type walks each set of folders once
/// and parses each file once, then answers every pair with the same result: the first file, in path
/// order, that fits the two models.
///
/// Not shared between threads: a plan makes one and drops it when the plan is made.
final class ProgressiveMappingFiles {
    /// A parsed mapping file (`nil` when it cannot be read).
    private struct File {
        let url: URL
        let parsed: NSMappingModel?
    }

    /// The files found for each set of search roots, keyed by the roots' paths.
    private var filesByRoots: [[String]: [File]] = [:]

    /// Creates an empty cache.
    init() {}

    /// The mapping model from `source` to `destination` that ``SQLiteStore/foundMappingModel(from:to:)``
    /// returns, as a model of its own (not shared with another answer), or `nil`.
    func mapping(from source: NSManagedObjectModel, to destination: NSManagedObjectModel) -> NSMappingModel? {
        for file in files(for: SQLiteStore.mappingModelBundles(for: destination)) {
            guard let parsed = file.parsed, parsed._fits(sourceModel: source, destinationModel: destination) else { continue }
            // Read again so that two answers never share entity mappings a migration may change.
            guard let fresh = try? XcodeMappingFile.load(from: file.url) else { continue }
            let model = NSMappingModel()
            model.entityMappings = fresh.entityMappings
            return model
        }
        return nil
    }

    /// The mapping files of `bundles`, in the order ``NSMappingModel/init(from:forSourceModel:destinationModel:)``
    /// tries them.
    private func files(for bundles: [Bundle]) -> [File] {
        let key = bundles.flatMap { [$0.bundleURL, $0.resourceURL ?? $0.bundleURL].map(\.standardizedFileURL.path) }
        if let known = filesByRoots[key] { return known }
        let files = NSMappingModel._mappingModelFiles(in: bundles).map { File(url: $0, parsed: try? XcodeMappingFile.load(from: $0)) }
        filesByRoots[key] = files
        return files
    }
}
