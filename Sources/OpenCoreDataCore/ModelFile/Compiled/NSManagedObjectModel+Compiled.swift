import Foundation

extension NSManagedObjectModel {
    /// Returns the model as the bytes of a compiled model file (`.mom`), the keyed archive Xcode's model
    /// compiler writes.
    ///
    /// - Throws: `NSCoreDataError` (134060) when the model holds what no archive can (a block predicate
    ///   or expression, a fetch request expression).
    ///
    /// This method is an OpenCoreData addition.
    public func compiledModelData() throws -> Data {
        try CompiledModelFiles.modelFileData(self)
    }

    /// Compiles the model file at `source` as Xcode's model compiler does, into `directory`: an
    /// `.xcdatamodeld` bundle becomes `<name>.momd` (a `.mom` for every version, and a `VersionInfo.plist`
    /// naming the current version and each version's entity hashes), an `.xcdatamodel` folder
    /// `<name>.mom`.
    ///
    /// - Returns: The `.momd` folder or `.mom` file written; one already there is replaced.
    /// - Throws: The errors of ``load(from:)`` for a version that cannot be read, and those of
    ///   ``compiledModelData()`` and of writing the files.
    ///
    /// This method is an OpenCoreData addition.
    @discardableResult
    public static func compileModel(at source: URL, into directory: URL) throws -> URL {
        let name = source.deletingPathExtension().lastPathComponent
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let isBundle =
            source.pathExtension == ModelBundleLayout.bundleExtension
            || source.pathExtension == CompiledModelFiles.bundleExtension
        guard isBundle else {
            let destination = directory.appendingPathComponent(name + "." + CompiledModelFiles.modelExtension)
            let data = try load(from: source).compiledModelData()
            try data.write(to: destination, options: .atomic)
            return destination
        }
        let versions = try self.versions(inBundleAt: source)
        var models: [(name: String, model: NSManagedObjectModel)] = []
        for version in versions {
            models.append((version.name, try version.loadModel()))
        }
        let current = versions.first(where: \.isCurrent)?.name ?? versions.last?.name ?? name
        let destination = directory.appendingPathComponent(name + "." + CompiledModelFiles.bundleExtension, isDirectory: true)
        try CompiledModelFiles.writeBundle(models, current: current, to: destination)
        return destination
    }
}
