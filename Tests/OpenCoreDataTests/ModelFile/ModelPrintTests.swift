import OpenCoreData
import Testing

/// The readable tree `ocd model print` shows (`NSManagedObjectModel.treeDescription`).
@Suite("Model printing")
struct ModelPrintTests {
    static let body = """
        <entity name="Author" representedClassName="Author" syncable="YES">
            <attribute name="age" optional="YES" attributeType="Integer 16" minValueString="0" defaultValueString="0" usesScalarValueType="YES"/>
            <attribute name="name" attributeType="String" defaultValueString="Anonymous" indexed="YES"/>
            <attribute name="photo" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>
            <attribute name="scratch" optional="YES" transient="YES" attributeType="String"/>
            <relationship name="posts" optional="YES" toMany="YES" deletionRule="Cascade" ordered="YES" destinationEntity="Post" inverseName="author" inverseEntity="Post"/>
            <fetchIndex name="byName">
                <fetchIndexElement property="name" type="Binary" order="ascending"/>
            </fetchIndex>
            <uniquenessConstraints>
                <uniquenessConstraint>
                    <constraint value="name"/>
                </uniquenessConstraint>
            </uniquenessConstraints>
        </entity>
        <entity name="Content" isAbstract="YES" syncable="YES">
            <attribute name="createdAt" attributeType="Date" defaultDateTimeInterval="0"/>
        </entity>
        <entity name="Post" parentEntity="Content" syncable="YES">
            <attribute name="published" attributeType="Boolean" defaultValueString="NO"/>
            <relationship name="author" maxCount="1" deletionRule="Nullify" destinationEntity="Author" inverseName="posts" inverseEntity="Author"/>
        </entity>
        <fetchRequest name="ByName" entity="Author" predicateString="name == $NAME" fetchLimit="10"/>
        <configuration name="Cloud">
            <memberEntity name="Author"/>
            <memberEntity name="Post"/>
        </configuration>
        """

    @Test("a small model prints as the exact expected tree")
    func smallModelTree() throws {
        let model = try ModelFileKit.load(Self.body)
        let expected = """
            model: 3 entities
            entity Author (class Author)
              attributes:
                age: Integer 16, optional, default 0, validates SELF >= 0
                name: String, indexed, default "Anonymous"
                photo: Binary, optional, external storage
                scratch: String, optional, transient
              relationships:
                posts -> Post (to-many, ordered, optional), inverse author, delete rule cascade
              indexes:
                byName: name ascending
              uniqueness constraints:
                (name)
            entity Content (abstract)
              attributes:
                createdAt: Date, default 2001-01-01T00:00:00Z
            entity Post : Content
              attributes:
                published: Boolean, default NO
              relationships:
                author -> Author (to-one), inverse posts, delete rule nullify
            fetch request templates:
              ByName: Author where name == $NAME [limit 10]
            configurations:
              Cloud: Author, Post

            """
        #expect(model.treeDescription == expected)
    }

    @Test("composite elements, bounded counts, missing inverses and version identifiers are shown")
    func otherShapes() throws {
        let header = ModelFileKit.header.replacingOccurrences(
            of: #"userDefinedModelVersionIdentifier="""#,
            with: #"userDefinedModelVersionIdentifier="v3""#)
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let folder = try ModelFileKit.writeVersion(
            ModelFileKit.contents(
                """
                <entity name="Place">
                    <attribute name="spot" optional="YES" attributeType="Composite" composite="Point"/>
                    <relationship name="neighbours" toMany="YES" minCount="1" maxCount="5" deletionRule="Deny" destinationEntity="Place"/>
                </entity>
                <composite name="Point">
                    <attribute name="x" attributeType="Double" defaultValueString="0.5"/>
                </composite>
                """, header: header), in: directory)
        let text = try NSManagedObjectModel.load(from: folder).treeDescription
        #expect(
            text == """
                model: 1 entity, version identifiers: v3
                entity Place
                  attributes:
                    spot: Composite, optional
                      x: Double, default 0.5
                  relationships:
                    neighbours -> Place (to-many, 1...5), no inverse, delete rule deny

                """)
    }

    @Test("every fixture model prints one line per entity and property")
    func fixturesPrint() throws {
        for name in [
            "objcio__core-data__Moody.xcdatamodeld", "3lvis__Sync__Model.xcdatamodeld",
            "rileytestut__AltStore__AltStore.xcdatamodeld",
        ] {
            let model = try NSManagedObjectModel.load(from: ModelFileKit.fixture(name))
            let lines = model.treeDescription.split(separator: "\n")
            #expect(lines.filter { $0.hasPrefix("entity ") }.count == model.entities.count, "\(name)")
            let propertyLines = lines.filter { $0.hasPrefix("    ") && !$0.hasPrefix("      ") }
            let declared = model.entities.reduce(0) { $0 + $1.properties.count }
            let extra = model.entities.reduce(0) { $0 + $1.indexes.count + $1.uniquenessConstraints.count }
            #expect(propertyLines.count == declared + extra, "\(name)")
        }
    }
}
