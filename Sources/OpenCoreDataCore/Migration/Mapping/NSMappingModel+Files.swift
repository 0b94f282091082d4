/// Mapping models read from Xcode mapping model files and found in bundles.
extension NSMappingModel {
    /// Returns a mapping model initialized from an Xcode mapping model at `url`: an `.xcmappingmodel`
    /// bundle, or the `xcmapping.xml` inside one. Returns `nil` when there is no readable mapping model
    /// there; ``load(contentsOf:)`` says why.
    ///
    /// Apple's compiled `.cdm` files are keyed archives of Objective-C objects and are not read.
    public convenience init?(contentsOf url: URL?) {
        guard let url, let loaded = try? XcodeMappingFile.load(from: url) else { return nil }
        self.init()
        entityMappings = loaded.entityMappings
    }

    /// Returns the mapping model that translates data from `sourceModel` to `destinationModel`, found
    /// among the `.xcmappingmodel` bundles in `bundles` (the main bundle when `nil`), or `nil` when none
    /// fits.
    ///
    /// A mapping model fits when each of its entity mappings reads an entity of the source model and
    /// writes an entity of the destination model (with the version hashes recorded, when the models
    /// the file names were found beside it), and every entity of both models has a mapping.
    public convenience init?(
        from bundles: [Bundle]?, forSourceModel sourceModel: NSManagedObjectModel?,
        destinationModel: NSManagedObjectModel?
    ) {
        guard let sourceModel, let destinationModel else { return nil }
        for url in Self._mappingModelFiles(in: bundles ?? [Bundle.main]) {
            guard let candidate = try? XcodeMappingFile.load(from: url),
                candidate._fits(sourceModel: sourceModel, destinationModel: destinationModel)
            else { continue }
            self.init()
            entityMappings = candidate.entityMappings
            return
        }
        return nil
    }

    /// Reads the Xcode mapping model at `url` (an `.xcmappingmodel` bundle or its `xcmapping.xml`).
    ///
    /// This method is an OpenCoreData addition: ``init(contentsOf:)`` returns `nil` on failure, this one
    /// says why.
    ///
    /// - Throws: ``NSMigrationMissingMappingModelError`` (134140) naming the file and the problem: the
    ///   file is missing or malformed, or holds an expression typed in Xcode's editor (stored as an
    ///   archive OpenCoreData cannot read — build such mappings in code).
    public static func load(contentsOf url: URL) throws -> NSMappingModel {
        try XcodeMappingFile.load(from: url)
    }

    /// Whether this mapping model maps `sourceModel` to `destinationModel`.
    func _fits(sourceModel: NSManagedObjectModel, destinationModel: NSManagedObjectModel) -> Bool {
        let mappings = entityMappings ?? []
        guard !mappings.isEmpty else { return false }
        var sources = Set<String>()
        var destinations = Set<String>()
        for mapping in mappings {
            if let name = mapping.sourceEntityName, mapping.mappingType != .addEntityMappingType {
                guard let entity = sourceModel.entitiesByName[name] else { return false }
                if let hash = mapping.sourceEntityVersionHash, hash != entity.versionHash { return false }
                sources.insert(name)
            }
            if let name = mapping.destinationEntityName, mapping.mappingType != .removeEntityMappingType {
                guard let entity = destinationModel.entitiesByName[name] else { return false }
                if let hash = mapping.destinationEntityVersionHash, hash != entity.versionHash { return false }
                destinations.insert(name)
            }
        }
        return Set(sourceModel.entitiesByName.keys).isSubset(of: sources)
            && Set(destinationModel.entitiesByName.keys).isSubset(of: destinations)
    }

    /// The `.xcmappingmodel` bundles inside the bundles' folders (a few levels deep), sorted by path.
    static func _mappingModelFiles(in bundles: [Bundle]) -> [URL] {
        var found: [URL] = []
        for bundle in bundles {
            let roots = [bundle.resourceURL, bundle.bundleURL].compactMap { $0 }
            for root in Set(roots.map(\.standardizedFileURL)) {
                _collect(in: root, depth: 0, into: &found)
            }
        }
        return Array(Set(found.map(\.standardizedFileURL))).sorted { $0.path < $1.path }
    }

    /// Adds the `.xcmappingmodel` bundles in `folder` and its subfolders, `depth` levels down so far.
    /// Entries are checked by path: a URL is made only for what is found and the folders walked into
    /// (a bundle beside build products holds thousands of files).
    private static func _collect(in folder: URL, depth: Int, into found: inout [URL]) {
        let folderPath = folder.path
        guard depth <= 3, let names = try? FileManager.default.contentsOfDirectory(atPath: folderPath) else { return }
        let prefix = folderPath.hasSuffix("/") ? folderPath : folderPath + "/"
        for name in names.sorted() {
            if name.hasSuffix(".xcmappingmodel") {
                found.append(folder.appendingPathComponent(name))
            } else if !name.hasPrefix(".") {
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: prefix + name, isDirectory: &isDirectory), isDirectory.boolValue {
                    _collect(in: folder.appendingPathComponent(name), depth: depth + 1, into: &found)
                }
            }
        }
    }
}
