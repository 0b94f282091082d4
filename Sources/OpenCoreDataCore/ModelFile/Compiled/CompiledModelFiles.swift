import Foundation

/// Compiled models on disk, as Xcode's model compiler writes them: a `.mom` file (one model version, a
/// keyed archive) and a `.momd` folder (one `.mom` per version, an optional `.omo` for the current one,
/// and `VersionInfo.plist` naming the current version and each version's entity hashes).
enum CompiledModelFiles {
    static let modelExtension = "mom"
    static let bundleExtension = "momd"
    static let versionInfoFile = "VersionInfo.plist"
    static let currentVersionKey = "NSManagedObjectModel_CurrentVersionName"
    static let versionHashesKey = "NSManagedObjectModel_VersionHashes"

    /// Whether `url` names a compiled model: a `.mom` file, or a `.momd` folder that holds compiled
    /// versions rather than `.xcdatamodel` source folders (a source bundle copied under its compiled name).
    static func isCompiled(_ url: URL) -> Bool {
        switch url.pathExtension.lowercased() {
        case modelExtension: return true
        case bundleExtension: return !holdsSourceVersions(url)
        default: return false
        }
    }

    /// Whether a folder holds `.xcdatamodel` version folders.
    static func holdsSourceVersions(_ url: URL) -> Bool {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return names.contains { ($0 as NSString).pathExtension == ModelBundleLayout.versionExtension }
    }

    /// Fills the empty, editable `model` from the compiled model at `url`: a `.mom` file, or a `.momd`
    /// folder's current version.
    static func load(_ url: URL, into model: NSManagedObjectModel) throws {
        let kind = try ModelBundleLayout.itemKind(at: url)
        if url.pathExtension.lowercased() == bundleExtension {
            guard kind == .directory else {
                throw ModelFileError.invalid("not a directory; a compiled .momd model is a folder of .mom files", file: url)
            }
            let versions = try versionFiles(inBundle: url)
            try loadModelFile(try currentVersionFile(inBundle: url, versions: versions), into: model)
        } else {
            guard kind == .file else {
                throw ModelFileError.invalid("a directory; a compiled .mom model is a file", file: url)
            }
            try loadModelFile(url, into: model)
        }
    }

    /// Fills `model` from one `.mom` file.
    static func loadModelFile(_ file: URL, into model: NSManagedObjectModel) throws {
        try ModelFileLoader.checkReadable(file)
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw ModelFileError.invalid("cannot read the file (\(error.localizedDescription))", file: file)
        }
        do {
            try CompiledModelDecoder.decode(data, into: model)
        } catch {
            throw ModelFileError.invalid("not a compiled Core Data model: \(error.reason)", file: file)
        }
    }

    /// The `.mom` version files of a `.momd` folder, in version order (names compared as Xcode's
    /// versions are, numbers by value).
    static func versionFiles(inBundle url: URL) throws -> [URL] {
        guard try ModelBundleLayout.itemKind(at: url) == .directory else {
            throw ModelFileError.invalid("not a directory; a compiled .momd model is a folder of .mom files", file: url)
        }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: url.path)
        } catch {
            throw ModelFileError.invalid("cannot list the folder (\(error.localizedDescription))", file: url)
        }
        let files =
            names
            .filter { ($0 as NSString).pathExtension == modelExtension }
            .sorted { ModelBundleLayout.numericAwareLess(($0 as NSString).deletingPathExtension, ($1 as NSString).deletingPathExtension) }
            .map { url.appendingPathComponent($0, isDirectory: false) }
        if files.isEmpty {
            throw ModelFileError.invalid("the compiled model holds no .mom version file", file: url)
        }
        return files
    }

    /// The current version file of a `.momd`: the one `VersionInfo.plist` names, else the only or the last.
    static func currentVersionFile(inBundle url: URL, versions: [URL]) throws -> URL {
        guard let name = try currentVersionName(inBundle: url) else {
            guard let last = versions.last else {
                throw ModelFileError.invalid("the compiled model holds no .mom version file", file: url)
            }
            return last
        }
        guard let file = versions.first(where: { $0.deletingPathExtension().lastPathComponent == name }) else {
            throw ModelFileError.invalid(
                "\(versionInfoFile) names the current version '\(name)', which the compiled model does not hold",
                file: url.appendingPathComponent(versionInfoFile))
        }
        return file
    }

    /// `NSManagedObjectModel_CurrentVersionName` of a `.momd`'s `VersionInfo.plist`; `nil` without the file
    /// or the key.
    static func currentVersionName(inBundle url: URL) throws -> String? {
        guard let info = try versionInfo(inBundle: url), let value = info[currentVersionKey] else { return nil }
        guard let name = value as? String, !name.isEmpty else {
            throw ModelFileError.invalid("\(currentVersionKey) is not a version name", file: url.appendingPathComponent(versionInfoFile))
        }
        return name
    }

    /// The dictionary of a `.momd`'s `VersionInfo.plist`, or `nil` when it has none.
    static func versionInfo(inBundle url: URL) throws -> [String: Any]? {
        let file = url.appendingPathComponent(versionInfoFile)
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        try ModelFileLoader.checkReadable(file)
        let plist: Any
        do {
            plist = try PropertyListReading.propertyList(from: try Data(contentsOf: file))
        } catch {
            throw ModelFileError.invalid("not a property list\(PropertyListReading.reason(error))", file: file)
        }
        guard let dictionary = plist as? [String: Any] else {
            throw ModelFileError.invalid("the property list is not a dictionary", file: file)
        }
        return dictionary
    }

    // MARK: Writing

    /// The `.mom` archive of `model`.
    static func modelFileData(_ model: NSManagedObjectModel) throws -> Data {
        do {
            return try CompiledModelEncoder.encode(model, style: .modelFile)
        } catch {
            throw NSError(
                domain: NSCocoaErrorDomain, code: ModelFileError.coreDataCode,
                userInfo: [
                    NSLocalizedDescriptionKey: "The model cannot be compiled: \(error.reason)."
                ])
        }
    }

    /// Writes a `.momd` folder at `url` (replacing one there) holding `versions`, each as `<name>.mom`, and
    /// `VersionInfo.plist` naming `current` and each version's entity version hashes, as Xcode's model
    /// compiler writes them. No `.omo` is written: its format is not known, and Apple's Core Data reads
    /// the current version's `.mom` when there is none.
    static func writeBundle(_ versions: [(name: String, model: NSManagedObjectModel)], current: String, to url: URL) throws {
        let fileManager = FileManager.default
        var hashes: [String: Any] = [:]
        var files: [(String, Data)] = []
        for (name, model) in versions {
            files.append((name + "." + modelExtension, try modelFileData(model)))
            hashes[name] = model.entityVersionHashesByName
        }
        let info: [String: Any] = [versionHashesKey: hashes, currentVersionKey: current]
        guard let plist = BinaryPropertyListWriter.data(plist: info) else {
            throw NSError(
                domain: NSCocoaErrorDomain, code: ModelFileError.coreDataCode,
                userInfo: [
                    NSLocalizedDescriptionKey: "The version information of \(url.path) cannot be written."
                ])
        }
        if fileManager.fileExists(atPath: url.path) { try fileManager.removeItem(at: url) }
        try fileManager.createDirectory(at: url, withIntermediateDirectories: true)
        for (file, data) in files {
            try data.write(to: url.appendingPathComponent(file), options: .atomic)
        }
        try plist.write(to: url.appendingPathComponent(versionInfoFile), options: .atomic)
    }
}
