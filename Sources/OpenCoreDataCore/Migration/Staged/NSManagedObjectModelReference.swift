/// A promise of a specific version of a managed object model, identified by its version checksum, for
/// staged migration.
///
/// The model comes from a model object, a model file, or a model name in a bundle. Its
/// ``NSManagedObjectModel/versionChecksum`` must equal ``versionChecksum``; a staged migration that uses
/// a reference whose model does not match fails with ``NSMigrationError``.
// @unchecked Sendable: every stored property is set once in the initializer and never changed.
open class NSManagedObjectModelReference: NSObject, @unchecked Sendable {
    private let _model: NSManagedObjectModel
    private let _versionChecksum: String
    /// Why the model could not be loaded, when it could not.
    let _loadError: NSError?

    /// Creates a reference to a model object.
    public init(model: NSManagedObjectModel, versionChecksum: String) {
        _model = model
        _versionChecksum = versionChecksum
        _loadError = nil
        super.init()
    }

    /// Creates a reference to the model in the model file at a URL (an `.xcdatamodel` version folder or
    /// an `.xcdatamodeld` bundle, whose current version is used).
    public init(fileURL: URL, versionChecksum: String) {
        var loadError: NSError?
        var model = NSManagedObjectModel()
        do {
            model = try NSManagedObjectModel.load(from: fileURL)
        } catch {
            loadError = error as NSError
        }
        _model = model
        _versionChecksum = versionChecksum
        _loadError = loadError
        super.init()
    }

    /// Creates a reference to the model named `modelName` in a bundle (the main bundle for `nil`): an
    /// `<name>.xcdatamodel` folder among the bundle's resources or a version of that name inside one of
    /// its `.xcdatamodeld` bundles.
    public convenience init(name modelName: String, in bundle: Bundle?, versionChecksum: String) {
        if let url = Self._modelURL(named: modelName, in: bundle ?? .main) {
            self.init(fileURL: url, versionChecksum: versionChecksum)
        } else {
            self.init(
                missing: "No model named \(modelName) was found in the bundle \((bundle ?? .main).bundleURL.path).",
                versionChecksum: versionChecksum)
        }
    }

    /// Creates a reference to the model, among the models of a bundle (the main bundle for `nil`), whose
    /// entity version hashes are `versionHashes` (entity name to hash `Data`).
    public convenience init(
        entityVersionHashes versionHashes: [AnyHashable: Any], in bundle: Bundle?,
        versionChecksum: String
    ) {
        var hashes: [String: Any] = [:]
        for (key, value) in versionHashes {
            if let name = key as? String { hashes[name] = value }
        }
        let metadata: [String: Any] = [NSStoreModelVersionHashesKey: hashes]
        if let model = NSManagedObjectModel.mergedModel(from: [bundle ?? .main], forStoreMetadata: metadata) {
            self.init(model: model, versionChecksum: versionChecksum)
        } else {
            self.init(
                missing: "No model with the given entity version hashes was found in the bundle \((bundle ?? .main).bundleURL.path).",
                versionChecksum: versionChecksum)
        }
    }

    /// A reference whose model could not be found.
    private init(missing reason: String, versionChecksum: String) {
        _model = NSManagedObjectModel()
        _versionChecksum = versionChecksum
        _loadError = NSError(
            domain: NSCocoaErrorDomain, code: NSManagedObjectModelReferenceNotFoundError,
            userInfo: [
                NSLocalizedDescriptionKey: reason
            ])
        super.init()
    }

    /// The referenced model.
    open var resolvedModel: NSManagedObjectModel {
        _model
    }

    /// The version checksum the referenced model must have.
    open var versionChecksum: String {
        _versionChecksum
    }

    /// The model, checked against the checksum.
    ///
    /// - Throws: the error of loading the model; ``NSMigrationError`` when its checksum differs.
    func _checkedModel() throws -> NSManagedObjectModel {
        if let _loadError { throw _loadError }
        guard _model.versionChecksum == _versionChecksum else {
            throw NSError(
                domain: NSCocoaErrorDomain, code: NSMigrationError,
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "The model reference promises version checksum \(_versionChecksum), but its model has \(_model.versionChecksum)."
                ])
        }
        return _model
    }

    /// The model file named `name` among a bundle's resources.
    static func _modelURL(named name: String, in bundle: Bundle) -> URL? {
        var roots: [URL] = []
        for root in [bundle.resourceURL, bundle.bundleURL].compactMap({ $0 }) where !roots.contains(root) { roots.append(root) }
        for root in roots {
            let direct = root.appendingPathComponent("\(name).xcdatamodel")
            if FileManager.default.fileExists(atPath: direct.path) { return direct }
            let items = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
            for item in items.sorted() where item.hasSuffix(".xcdatamodeld") {
                let version = root.appendingPathComponent(item).appendingPathComponent("\(name).xcdatamodel")
                if FileManager.default.fileExists(atPath: version.path) { return version }
            }
        }
        return nil
    }
}
