import Foundation

/// Finds and reads the localization strings file of a model: `<ModelName>Model.strings`, beside the
/// model file or in a `Base.lproj` or `en.lproj` folder beside it, as Xcode places it for a model named
/// `<ModelName>`. Its entries become the model's `localizationDictionary`
/// (`"Entity/Book" = "Livre";`, `"Property/title/Entity/Book" = "Titre";`).
enum ModelLocalization {
    /// The folders searched beside the model, in order.
    static let localizationFolders = ["", "Base.lproj", "en.lproj"]

    /// The dictionary of the strings file for the model loaded from `url`, or `nil` when there is none.
    ///
    /// - Throws: an error naming the strings file when it is not a strings file of string values.
    static func dictionary(forModelAt url: URL) throws -> [String: String]? {
        guard let (directory, name) = modelLocation(url) else { return nil }
        for folder in localizationFolders {
            let base = folder.isEmpty ? directory : directory.appendingPathComponent(folder, isDirectory: true)
            let file = base.appendingPathComponent(name + "Model.strings")
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory), !isDirectory.boolValue else {
                continue
            }
            return try read(file)
        }
        return nil
    }

    /// The folder holding the model file and the model's name, for a bundle, a version folder (inside a
    /// bundle or alone) or a `contents` file.
    private static func modelLocation(_ url: URL) -> (URL, String)? {
        var modelFile = url.standardizedFileURL
        if modelFile.lastPathComponent == "contents" { modelFile = modelFile.deletingLastPathComponent() }
        if modelFile.pathExtension == ModelBundleLayout.versionExtension,
            modelFile.deletingLastPathComponent().pathExtension == ModelBundleLayout.bundleExtension
        {
            modelFile = modelFile.deletingLastPathComponent()
        }
        let name = modelFile.deletingPathExtension().lastPathComponent
        guard !name.isEmpty else { return nil }
        return (modelFile.deletingLastPathComponent(), name)
    }

    private static func read(_ file: URL) throws -> [String: String] {
        try ModelFileLoader.checkReadable(file)
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw ModelFileError.invalid("cannot read the file (\(error.localizedDescription))", file: file)
        }
        let plist: Any
        do {
            plist = try PropertyListReading.propertyList(from: data)
        } catch {
            throw ModelFileError.invalid(
                "not a strings file\(PropertyListReading.reason(error)): expected lines such as \"Entity/Book\" = \"Book\";",
                file: file)
        }
        guard let entries = plist as? [String: Any] else {
            throw ModelFileError.invalid("not a strings file: expected lines such as \"Entity/Book\" = \"Book\";", file: file)
        }
        var dictionary: [String: String] = [:]
        for (key, value) in entries {
            guard let text = value as? String else {
                throw ModelFileError.invalid("the value of '\(key)' is not a string", file: file)
            }
            dictionary[key] = text
        }
        return dictionary
    }
}
