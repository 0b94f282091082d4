import Foundation

/// Reads an Xcode model file from disk into a managed object model.
enum ModelFileLoader {
    /// Fills the empty, editable `model` from the model at `url` (a bundle, a version folder or a
    /// `contents` file).
    static func load(_ url: URL, into model: NSManagedObjectModel) throws {
        let contents = try ModelBundleLayout.contentsURL(for: url)
        try loadContents(contents, into: model)
    }

    /// Fills `model` from one `contents` XML file.
    static func loadContents(_ contents: URL, into model: NSManagedObjectModel) throws {
        let data: Data
        do {
            data = try Data(contentsOf: contents)
        } catch {
            throw ModelFileError.invalid("cannot read the file (\(error.localizedDescription))", file: contents)
        }
        let root = try ModelXMLReader.read(data, file: contents)
        try ModelContentsMapper(file: contents, root: root).populate(model)
    }
}
