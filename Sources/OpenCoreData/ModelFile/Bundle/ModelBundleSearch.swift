import Foundation

/// Finds the Xcode model files among a bundle's resources, for `mergedModel(from:)`.
///
/// A model file is a folder at the top level of the bundle's resources (or of the bundle itself) named
/// `*.xcdatamodeld`, `*.xcdatamodel` or `*.momd`. A `.momd` counts only when it holds `.xcdatamodel`
/// version folders (a model bundle copied under its compiled name); a compiled `.momd` is skipped when a
/// model file of the same name is found beside it, and is an error otherwise, since its entities cannot
/// be read.
enum ModelBundleSearch {
    /// The model files of `bundle`, one per model name, in name order. For a name present as several
    /// kinds, the `.xcdatamodeld` wins over the `.xcdatamodel`, which wins over the `.momd`.
    static func modelURLs(in bundle: Bundle) throws -> [URL] {
        var roots: [URL] = []
        for root in [bundle.resourceURL, bundle.bundleURL].compactMap({ $0?.standardizedFileURL })
        where !roots.contains(root) {
            roots.append(root)
        }
        var found: [String: URL] = [:]
        var compiledOnly: [String: URL] = [:]
        for root in roots {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
            for name in names.sorted() {
                let url = root.appendingPathComponent(name, isDirectory: true)
                let ext = url.pathExtension
                guard let rank = rank(of: ext), isDirectory(url) else { continue }
                let base = url.deletingPathExtension().lastPathComponent
                if ext == "momd" && !holdsVersionFolders(url) {
                    compiledOnly[base] = compiledOnly[base] ?? url
                    continue
                }
                if let existing = found[base], let existingRank = self.rank(of: existing.pathExtension),
                   existingRank <= rank {
                    continue
                }
                found[base] = url
            }
        }
        for (base, url) in compiledOnly where found[base] == nil {
            throw ModelFileError.invalid("compiled Core Data models (.momd) cannot be read; add the .xcdatamodeld bundle Xcode compiled it from to the bundle's resources", file: url)
        }
        return found.keys.sorted().compactMap { found[$0] }
    }

    /// Loads the model at `url` as found by ``modelURLs(in:)``: a `.momd` holding version folders is read
    /// as an `.xcdatamodeld` bundle.
    static func loadModel(at url: URL) throws -> NSManagedObjectModel {
        guard url.pathExtension == "momd" else { return try NSManagedObjectModel.load(from: url) }
        let versions = try ModelBundleLayout.versionFolders(inBundle: url)
        let current = try ModelBundleLayout.currentVersionFolder(inBundle: url, versions: versions)
        return try NSManagedObjectModel.load(from: current)
    }

    /// Preference among the kinds of model file; lower wins. `nil` for other extensions.
    private static func rank(of pathExtension: String) -> Int? {
        switch pathExtension {
        case ModelBundleLayout.bundleExtension: return 0
        case ModelBundleLayout.versionExtension: return 1
        case "momd": return 2
        default: return nil
        }
    }

    private static func isDirectory(_ url: URL) -> Bool {
        var flag: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &flag) && flag.boolValue
    }

    private static func holdsVersionFolders(_ url: URL) -> Bool {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return names.contains { ($0 as NSString).pathExtension == ModelBundleLayout.versionExtension }
    }
}
