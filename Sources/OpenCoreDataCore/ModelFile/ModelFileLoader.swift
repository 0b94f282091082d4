import Foundation

/// Reads an Xcode model file from disk into a managed object model.
enum ModelFileLoader {
    /// Fills the empty, editable `model` from the model at `url` (a bundle, a version folder or a
    /// `contents` file; a compiled `.momd` folder or `.mom` file).
    static func load(_ url: URL, into model: NSManagedObjectModel) throws {
        if CompiledModelFiles.isCompiled(url) {
            try CompiledModelFiles.load(url, into: model)
            model._sourceURL = url.standardizedFileURL
            return
        }
        let contents = try ModelBundleLayout.contentsURL(for: url)
        try loadContents(contents, into: model)
        model._sourceURL = url.standardizedFileURL
        if let localization = try ModelLocalization.dictionary(forModelAt: url) {
            model.localizationDictionary = localization
        }
    }

    /// Fills `model` from one `contents` XML file.
    static func loadContents(_ contents: URL, into model: NSManagedObjectModel) throws {
        try checkReadable(contents)
        let data: Data
        do {
            data = try Data(contentsOf: contents)
        } catch {
            throw ModelFileError.invalid("cannot read the file (\(error.localizedDescription))", file: contents)
        }
        let root = try ModelXMLReader.read(data, file: contents)
        try ModelContentsMapper(file: contents, root: root).populate(model)
    }

    /// The largest `contents` file read. Xcode's largest real models are a few megabytes.
    static let maximumContentsSize = 256 * 1024 * 1024

    /// Refuses what is not a regular file of a sensible size (a device such as `/dev/zero`, a pipe, a
    /// socket, possibly behind a symbolic link), so reading it cannot block or exhaust memory.
    static func checkReadable(_ contents: URL) throws {
        let resolved = contents.resolvingSymlinksInPath()
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: resolved.path)
        } catch {
            throw ModelFileError.invalid("cannot read the file (\(error.localizedDescription))", file: contents)
        }
        if let type = attributes[.type] as? FileAttributeType, type != .typeRegular {
            throw ModelFileError.invalid("not a regular file (\(type.rawValue)); a model's contents is an XML file", file: contents)
        }
        if let size = (attributes[.size] as? NSNumber)?.intValue, size > maximumContentsSize {
            throw ModelFileError.invalid("the file is \(size) bytes, larger than any model file (limit \(maximumContentsSize))", file: contents)
        }
    }
}
