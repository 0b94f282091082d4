import OpenCoreData
import Testing

/// A model's `<ModelName>Model.strings` file becomes its `localizationDictionary` when the model file is
/// loaded.
@Suite("Model localization strings files")
struct ModelFileLocalizationTests {
    static let strings = """
        /* Book entity */
        "Entity/Book" = "Livre";
        "Property/title/Entity/Book" = "Titre";
        "ErrorString/Title is too short" = "Le titre est trop court";
        """

    /// A bundle `Library.xcdatamodeld` with one version, in a fresh directory (removed by the caller).
    func makeBundle() throws -> (URL, URL) {
        let directory = try Fixtures.temporaryDirectory()
        let bundle = directory.appendingPathComponent("Library.xcdatamodeld", isDirectory: true)
        try ModelFileKit.writeVersion(
            ModelFileKit.contents(#"<entity name="Book"><attribute name="title" optional="YES" attributeType="String"/></entity>"#),
            named: "Library", in: bundle)
        return (directory, bundle)
    }

    @Test("LibraryModel.strings beside the bundle fills the localization dictionary")
    func besideTheBundle() throws {
        let (directory, bundle) = try makeBundle()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(Self.strings.utf8).write(to: directory.appendingPathComponent("LibraryModel.strings"))
        let model = try #require(NSManagedObjectModel(contentsOf: bundle))
        #expect(model.localizationDictionary?["Entity/Book"] == "Livre")
        #expect(model.localizationDictionary?["Property/title/Entity/Book"] == "Titre")
        #expect(model.localizationDictionary?.count == 3)
        let version = try NSManagedObjectModel.load(from: bundle.appendingPathComponent("Library.xcdatamodel"))
        #expect(version.localizationDictionary?["Entity/Book"] == "Livre")
    }

    @Test("the strings file is also found in en.lproj; without one the dictionary is nil")
    func inLprojOrAbsent() throws {
        let (directory, bundle) = try makeBundle()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try NSManagedObjectModel.load(from: bundle).localizationDictionary == nil)
        let lproj = directory.appendingPathComponent("en.lproj", isDirectory: true)
        try FileManager.default.createDirectory(at: lproj, withIntermediateDirectories: true)
        try Data(Self.strings.utf8).write(to: lproj.appendingPathComponent("LibraryModel.strings"))
        #expect(try NSManagedObjectModel.load(from: bundle).localizationDictionary?["Entity/Book"] == "Livre")
    }

    @Test("a damaged strings file is an error naming it")
    func damaged() throws {
        let (directory, bundle) = try makeBundle()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(#""Entity/Book" = "#.utf8).write(to: directory.appendingPathComponent("LibraryModel.strings"))
        let error = try ModelFileKit.loadError(at: bundle)
        #expect(error.domain == NSCocoaErrorDomain)
        #expect(error.code == NSCoreDataError)
        #expect(error.localizedDescription.contains("LibraryModel.strings"))
    }
}
