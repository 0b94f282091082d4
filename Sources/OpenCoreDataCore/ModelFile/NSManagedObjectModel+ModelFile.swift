import Foundation

extension NSManagedObjectModel {
    /// Creates a model from the model file at the given URL.
    ///
    /// The URL names a compiled model, as apps ship it — a `.momd` folder, whose current version is
    /// loaded (the one its `VersionInfo.plist` names), or a single `.mom` file — or the model source Xcode
    /// writes: an `.xcdatamodeld` bundle, whose current version is loaded (the one its
    /// `.xccurrentversion` names, else the only or the last version), or a single `.xcdatamodel` version
    /// folder. Returns `nil` when the path does not exist or the file cannot be read as a model; use
    /// ``load(from:)`` to learn why.
    ///
    /// A strings file named `<ModelName>Model.strings` beside the model (or in a `Base.lproj` or
    /// `en.lproj` folder beside it) becomes the model's ``localizationDictionary``.
    ///
    /// A model read from its compiled form equals the one read from its source, with the same entity
    /// version hashes, but for what Xcode's model compiler leaves out: the class name of a transformable
    /// attribute, and whether generated code uses scalar types.
    public convenience init?(contentsOf url: URL) {
        self.init()
        do {
            try ModelFileLoader.load(url, into: self)
        } catch {
            return nil
        }
    }

    /// Loads the model from the Xcode model file at the given URL, throwing an error that says what is
    /// wrong and where when it cannot.
    ///
    /// The URL is handled as by ``init(contentsOf:)``. The errors are in `NSCocoaErrorDomain`:
    /// `NSFileReadNoSuchFileError` (260) for a path that does not exist, `NSCoreDataError` (134060) for
    /// every problem with the files themselves (malformed or truncated XML, an unknown attribute type, a
    /// relationship to a missing entity, a missing `contents` file, an Xcode 3 binary model, a damaged
    /// `.xccurrentversion`, a `.mom` that is not a compiled model, a `VersionInfo.plist` naming a version the
    /// `.momd` does not hold). The message names the file, the XML line, the entity and the property where
    /// they are known; `NSFilePathErrorKey` holds the file's path.
    ///
    /// This method is an OpenCoreData addition.
    public static func load(from url: URL) throws -> NSManagedObjectModel {
        let model = NSManagedObjectModel()
        try ModelFileLoader.load(url, into: model)
        return model
    }

    /// Lists the versions of the `.xcdatamodeld` bundle (or compiled `.momd` folder) at the given URL,
    /// oldest first.
    ///
    /// Versions are ordered by folder (or `.mom` file) name, numbers compared by value ("Model 2" before "Model 10"),
    /// which is the order Xcode gives successive versions. Listing reads no model; load each version with
    /// ``BundleVersion/loadModel()``. Migration uses this to find the model that matches a store.
    ///
    /// This method is an OpenCoreData addition.
    public static func versions(inBundleAt url: URL) throws -> [BundleVersion] {
        if CompiledModelFiles.isCompiled(url) {
            let files = try CompiledModelFiles.versionFiles(inBundle: url)
            let current = try CompiledModelFiles.currentVersionFile(inBundle: url, versions: files)
            return files.map { file in
                BundleVersion(name: file.deletingPathExtension().lastPathComponent, url: file, isCurrent: file == current)
            }
        }
        let folders = try ModelBundleLayout.versionFolders(inBundle: url)
        let current = try ModelBundleLayout.currentVersionFolder(inBundle: url, versions: folders)
        return folders.map { folder in
            BundleVersion(
                name: folder.deletingPathExtension().lastPathComponent, url: folder,
                isCurrent: folder == current)
        }
    }

    /// One version of an Xcode model bundle: an `.xcdatamodel` folder inside an `.xcdatamodeld`, or a
    /// `.mom` file inside a compiled `.momd`.
    ///
    /// This type is an OpenCoreData addition.
    public struct BundleVersion: Sendable, Hashable {
        /// The version's name: its folder (or file) name without the `.xcdatamodel` (`.mom`) extension,
        /// e.g. `"Model 2"`.
        public let name: String
        /// The version's `.xcdatamodel` folder (or `.mom` file).
        public let url: URL
        /// Whether this is the bundle's current version, the one ``NSManagedObjectModel/init(contentsOf:)``
        /// loads for the bundle.
        public let isCurrent: Bool

        /// Loads this version's model, throwing as ``NSManagedObjectModel/load(from:)`` does.
        public func loadModel() throws -> NSManagedObjectModel {
            try NSManagedObjectModel.load(from: url)
        }
    }
}
