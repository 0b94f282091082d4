import Foundation

/// Finds the model files among a bundle's resources, for `mergedModel(from:)`.
///
/// A model file is an item at the top level of the bundle's resources (or of the bundle itself): a folder
/// named `*.xcdatamodeld`, `*.xcdatamodel` or `*.momd` (compiled, or a model bundle copied under its
/// compiled name, holding `.xcdatamodel` version folders), or a compiled `*.mom` file.
enum ModelBundleSearch {
    /// The model files of `bundle`, one per model name, in name order. For a name present as several
    /// kinds, the source wins over the compiled form: `.xcdatamodeld`, then `.xcdatamodel`, `.momd`, `.mom`.
    static func modelURLs(in bundle: Bundle) throws -> [URL] {
        var roots: [URL] = []
        for root in [bundle.resourceURL, bundle.bundleURL].compactMap({ $0?.standardizedFileURL })
        where !roots.contains(root) {
            roots.append(root)
        }
        var found: [String: URL] = [:]
        for root in roots {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
            for name in names.sorted() {
                let url = root.appendingPathComponent(name)
                let ext = url.pathExtension
                guard let rank = rank(of: ext), isDirectory(url) == (ext != CompiledModelFiles.modelExtension) else { continue }
                let base = url.deletingPathExtension().lastPathComponent
                if let existing = found[base], let existingRank = self.rank(of: existing.pathExtension),
                    existingRank <= rank
                {
                    continue
                }
                found[base] = url
            }
        }
        return found.keys.sorted().compactMap { found[$0] }
    }

    /// Loads the model at `url` as found by ``modelURLs(in:)``: a `.momd` holding version folders is read
    /// as an `.xcdatamodeld` bundle.
    static func loadModel(at url: URL) throws -> NSManagedObjectModel {
        guard url.pathExtension == CompiledModelFiles.bundleExtension, CompiledModelFiles.holdsSourceVersions(url) else {
            return try NSManagedObjectModel.load(from: url)
        }
        let versions = try ModelBundleLayout.versionFolders(inBundle: url)
        let current = try ModelBundleLayout.currentVersionFolder(inBundle: url, versions: versions)
        return try NSManagedObjectModel.load(from: current)
    }

    /// Preference among the kinds of model file; lower wins. `nil` for other extensions.
    private static func rank(of pathExtension: String) -> Int? {
        switch pathExtension {
        case ModelBundleLayout.bundleExtension: return 0
        case ModelBundleLayout.versionExtension: return 1
        case CompiledModelFiles.bundleExtension: return 2
        case CompiledModelFiles.modelExtension: return 3
        default: return nil
        }
    }

    private static func isDirectory(_ url: URL) -> Bool {
        var flag: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &flag) && flag.boolValue
    }
}
