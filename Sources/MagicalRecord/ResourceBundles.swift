import OpenCoreData

/// The bundles MagicalRecord looks for models in: the main bundle, then the resource bundles SwiftPM
/// puts beside the program (`<Package>_<Target>.resources` on Linux, `<Package>_<Target>.bundle` on
/// Apple platforms), so that a target shipping its `.xcdatamodeld` with `.copy(…)` needs no extra call.
enum ResourceBundles {
    /// The main bundle and the resource bundles beside the executable, in name order.
    static func all() -> [Bundle] {
        var bundles = [Bundle.main]
        var folders: [URL] = [Bundle.main.bundleURL]
        if let executable = Bundle.main.executableURL?.deletingLastPathComponent() { folders.append(executable) }
        var seen = Set<String>()
        for folder in folders {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            for name in names.sorted() where name.hasSuffix(".resources") || name.hasSuffix(".bundle") {
                let url = folder.appendingPathComponent(name, isDirectory: true).standardizedFileURL
                guard seen.insert(url.path).inserted, let bundle = Bundle(url: url) else { continue }
                bundles.append(bundle)
            }
        }
        return bundles
    }

    /// The model file named `name` (`.xcdatamodeld`, `.xcdatamodel`, or a `.momd` holding versions) in
    /// the bundles of ``all()``.
    static func modelURL(named name: String) -> URL? {
        let base = (name as NSString).deletingPathExtension
        for bundle in all() {
            for root in [bundle.resourceURL, bundle.bundleURL].compactMap({ $0 }) {
                for suffix in ["xcdatamodeld", "xcdatamodel", "momd"] {
                    let url = root.appendingPathComponent("\(base).\(suffix)", isDirectory: true)
                    if FileManager.default.fileExists(atPath: url.path) { return url }
                }
            }
        }
        return nil
    }
}
