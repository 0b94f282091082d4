import Foundation

/// Finds the `contents` file to read for a model path, following Xcode's on-disk layout.
///
/// An `.xcdatamodeld` bundle holds one `.xcdatamodel` folder per version and, usually, an
/// `.xccurrentversion` property list whose `_XCCurrentVersionName` names the current version. Without that
/// file, the current version is the only one, or the last in name order (numbers compared by value, so
/// "Model 10" follows "Model 9"). Each version folder holds the model as XML in a file named `contents`.
enum ModelBundleLayout {
    static let bundleExtension = "xcdatamodeld"
    static let versionExtension = "xcdatamodel"
    static let currentVersionFile = ".xccurrentversion"
    static let currentVersionKey = "_XCCurrentVersionName"

    /// The `contents` file to read for `url`: a bundle's current version, a version folder's own file, or
    /// `url` itself when it is a file.
    static func contentsURL(for url: URL) throws -> URL {
        let kind = try itemKind(at: url)
        if kind == .file { return url }
        if url.pathExtension == bundleExtension || isBundle(url) {
            let versions = try versionFolders(inBundle: url)
            let current = try currentVersionFolder(inBundle: url, versions: versions)
            return try contentsURL(forVersionFolder: current)
        }
        return try contentsURL(forVersionFolder: url)
    }

    /// The version folders of a bundle, in version order: names without the extension, numbers compared
    /// by value, so "Model" < "Model 2" < "Model 10".
    static func versionFolders(inBundle url: URL) throws -> [URL] {
        guard try itemKind(at: url) == .directory else {
            throw ModelFileError.invalid("not a directory; an .xcdatamodeld bundle is a folder", file: url)
        }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: url.path)
        } catch {
            throw ModelFileError.invalid("cannot list the bundle's folder (\(error.localizedDescription))", file: url)
        }
        let versions =
            names
            .filter { ($0 as NSString).pathExtension == versionExtension }
            .sorted { numericAwareLess(($0 as NSString).deletingPathExtension, ($1 as NSString).deletingPathExtension) }
            .map { url.appendingPathComponent($0, isDirectory: true) }
        if versions.isEmpty {
            throw ModelFileError.invalid("the bundle holds no .\(versionExtension) version folder", file: url)
        }
        return versions
    }

    /// The current version folder of a bundle whose versions are `versions`.
    static func currentVersionFolder(inBundle url: URL, versions: [URL]) throws -> URL {
        let marker = url.appendingPathComponent(currentVersionFile)
        guard FileManager.default.fileExists(atPath: marker.path) else {
            guard let last = versions.last else {
                throw ModelFileError.invalid("the bundle holds no .\(versionExtension) version folder", file: url)
            }
            return last
        }
        guard let name = try currentVersionName(in: marker) else {
            guard let last = versions.last else {
                throw ModelFileError.invalid("the bundle holds no .\(versionExtension) version folder", file: url)
            }
            return last
        }
        let wanted = (name as NSString).pathExtension == versionExtension ? name : name + "." + versionExtension
        guard let folder = versions.first(where: { $0.lastPathComponent == wanted }) else {
            throw ModelFileError.invalid("\(currentVersionKey) names the version '\(name)', which the bundle does not hold", file: marker)
        }
        return folder
    }

    /// Reads `_XCCurrentVersionName` from an `.xccurrentversion` file.
    ///
    /// Returns `nil` for a well-formed property list dictionary without the key (real bundles hold such
    /// files, `<dict/>`; Xcode then falls back to the last version). An empty file, text that is not a
    /// property list, a property list that is not a dictionary, or a key whose value is not a non-empty
    /// string is an error.
    static func currentVersionName(in marker: URL) throws -> String? {
        try ModelFileLoader.checkReadable(marker)
        let data: Data
        do {
            data = try Data(contentsOf: marker)
        } catch {
            throw ModelFileError.invalid("cannot read the file (\(error.localizedDescription))", file: marker)
        }
        if data.isEmpty {
            throw ModelFileError.invalid("the file is empty; expected a property list with \(currentVersionKey)", file: marker)
        }
        let plist: Any
        do {
            plist = try PropertyListReading.propertyList(from: data)
        } catch {
            throw ModelFileError.invalid(
                "not a property list\(PropertyListReading.reason(error)); expected a dictionary with \(currentVersionKey)",
                file: marker)
        }
        guard let dictionary = plist as? [String: Any] else {
            throw ModelFileError.invalid("the property list is not a dictionary; expected \(currentVersionKey)", file: marker)
        }
        guard let value = dictionary[currentVersionKey] else { return nil }
        guard let name = value as? String,
            !name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        else {
            throw ModelFileError.invalid("\(currentVersionKey) is not a version name", file: marker)
        }
        return name
    }

    /// The `contents` file of one version folder.
    static func contentsURL(forVersionFolder folder: URL) throws -> URL {
        guard try itemKind(at: folder) == .directory else {
            throw ModelFileError.invalid("not a directory; an .\(versionExtension) version is a folder", file: folder)
        }
        let contents = folder.appendingPathComponent("contents")
        if FileManager.default.fileExists(atPath: contents.path) { return contents }
        let elements = folder.appendingPathComponent("elements")
        if FileManager.default.fileExists(atPath: elements.path) {
            throw ModelFileError.invalid(
                "Xcode 3 binary model format is not supported: the version holds an 'elements' file and no XML 'contents'; open and save it in a newer Xcode to convert it",
                file: folder)
        }
        throw ModelFileError.invalid("missing 'contents' file: the folder holds no model XML", file: folder)
    }

    /// Whether `url` looks like a bundle even without the extension: a folder of version folders.
    private static func isBundle(_ url: URL) -> Bool {
        let fm = FileManager.default
        if fm.fileExists(atPath: url.appendingPathComponent("contents").path) { return false }
        if fm.fileExists(atPath: url.appendingPathComponent(currentVersionFile).path) { return true }
        let names = (try? fm.contentsOfDirectory(atPath: url.path)) ?? []
        return names.contains { ($0 as NSString).pathExtension == versionExtension }
    }

    enum ItemKind { case file, directory }

    /// Whether `url` is a file or a directory; throws when it does not exist.
    static func itemKind(at url: URL) throws -> ItemKind {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw ModelFileError.noSuchFile(url)
        }
        return isDirectory.boolValue ? .directory : .file
    }

    /// Orders names as Finder does for version folders: runs of digits compare by value.
    static func numericAwareLess(_ a: String, _ b: String) -> Bool {
        let left = chunks(a), right = chunks(b)
        for (x, y) in zip(left, right) where x != y {
            switch (x, y) {
            case let (.number(m, ms), .number(n, ns)):
                if m != n { return m < n }
                return ms < ns
            case let (.text(s), .text(t)):
                return s.unicodeScalars.lexicographicallyPrecedes(t.unicodeScalars)
            case (.number, .text):
                return true
            case (.text, .number):
                return false
            }
        }
        if left.count != right.count { return left.count < right.count }
        return a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars)
    }

    private enum Chunk: Equatable {
        case text(String)
        /// The value (saturating) and the digits as written, to order "01" and "1" stably.
        case number(Double, String)
    }

    private static func chunks(_ s: String) -> [Chunk] {
        var result: [Chunk] = []
        var current = ""
        var inDigits = false
        func flush() {
            guard !current.isEmpty else { return }
            result.append(inDigits ? .number(Double(current) ?? .infinity, current) : .text(current))
            current = ""
        }
        for ch in s {
            let digit = ch.isASCII && ch.isNumber
            if digit != inDigits {
                flush()
                inDigits = digit
            }
            current.append(ch)
        }
        flush()
        return result
    }
}
