import OpenCoreData
import Testing

/// The README's short example, run as written, on a `Blog.xcdatamodeld` like the one Xcode saves.
@Suite("README example")
struct ReadmeExampleTests {
    static let blogContents = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22522" systemVersion="23A344" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
            <entity name="Post" representedClassName="Post" syncable="YES" codeGenerationType="class">
                <attribute name="publishedAt" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
                <attribute name="title" attributeType="String"/>
                <relationship name="author" maxCount="1" deletionRule="Nullify" destinationEntity="User" inverseName="posts" inverseEntity="User"/>
            </entity>
            <entity name="User" representedClassName="User" syncable="YES" codeGenerationType="class">
                <attribute name="age" optional="YES" attributeType="Integer 32" defaultValueString="0" usesScalarValueType="YES"/>
                <attribute name="name" attributeType="String"/>
                <relationship name="posts" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Post" inverseName="author" inverseEntity="Post"/>
            </entity>
        </model>
        """

    @Test("loading Blog.xcdatamodeld and reading its entities, as the README shows")
    func loadModel() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let version = directory.appendingPathComponent("Blog.xcdatamodeld/Blog.xcdatamodel", isDirectory: true)
        try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
        try Self.blogContents.write(to: version.appendingPathComponent("contents"), atomically: true, encoding: .utf8)

        let model = try NSManagedObjectModel.load(from: directory.appendingPathComponent("Blog.xcdatamodeld"))
        let post = try #require(model.entitiesByName["Post"])
        #expect(post.attributesByName.keys.sorted() == ["publishedAt", "title"])
        #expect(post.relationshipsByName["author"]?.destinationEntity?.name == "User")
        #expect(model.entityVersionHashesByName["Post"]?.count == 32)
    }

    @Test("filtering and sorting dictionaries with a format string, as the README shows")
    func filterAndSort() {
        let users: [[String: Any]] = [["name": "Chloé", "age": 31], ["name": "Bo", "age": 22]]
        let predicate = NSPredicate(format: "name CONTAINS[cd] %@ AND age > %d", "chloe", 25)
        let matches = users.filtered(using: predicate)
        #expect(matches.count == 1)
        #expect(matches.first?["name"] as? String == "Chloé")
        let byAge = users.sortedArray(using: [NSSortDescriptor(key: "age", ascending: false)])
        #expect(byAge.map { $0["age"] as? Int } == [31, 22])
    }

    @Test("user-typed text gets a thrown error naming the offset, as the README shows")
    func validatingFormat() {
        do {
            _ = try NSPredicate(validatingFormat: "age >", argumentArray: nil)
            Issue.record("malformed text was accepted")
        } catch let error as NSError {
            #expect(error.domain == NSCocoaErrorDomain)
            #expect(error.localizedDescription.contains("offset 5"))
        }
    }
}
