import OpenCoreData
import Testing

/// Reading Xcode model files: bundle layout, and each XML feature on small files written into temporary
/// directories and on the real fixtures that have it.
@Suite("Model file loading")
struct ModelFileLoadingTests {
    // MARK: Bundle layout

    @Test("a bundle loads the version its .xccurrentversion names")
    func bundleLoadsCurrentVersion() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bundle = directory.appendingPathComponent("Shop.xcdatamodeld")
        try ModelFileKit.writeVersion(ModelFileKit.contents(#"<entity name="A" syncable="YES"/>"#), named: "Shop", in: bundle)
        try ModelFileKit.writeVersion(ModelFileKit.contents(#"<entity name="B" syncable="YES"/>"#), named: "Shop 2", in: bundle)
        try ModelFileKit.writeVersion(ModelFileKit.contents(#"<entity name="C" syncable="YES"/>"#), named: "Shop 3", in: bundle)
        try ModelFileKit.writeCurrentVersion("Shop 2.xcdatamodel", in: bundle)
        let model = try #require(NSManagedObjectModel(contentsOf: bundle))
        #expect(model.entities.map(\.name) == ["B"])
    }

    @Test("without .xccurrentversion a bundle loads its last version, numbers compared by value")
    func bundleWithoutMarkerLoadsLastVersion() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bundle = directory.appendingPathComponent("Shop.xcdatamodeld")
        for (version, entity) in [("Shop", "V1"), ("Shop 2", "V2"), ("Shop 9", "V9"), ("Shop 10", "V10")] {
            try ModelFileKit.writeVersion(ModelFileKit.contents("<entity name=\"\(entity)\"/>"), named: version, in: bundle)
        }
        let model = try NSManagedObjectModel.load(from: bundle)
        #expect(model.entities.map(\.name) == ["V10"])
        let versions = try NSManagedObjectModel.versions(inBundleAt: bundle)
        #expect(versions.map(\.name) == ["Shop", "Shop 2", "Shop 9", "Shop 10"])
        #expect(versions.map(\.isCurrent) == [false, false, false, true])
    }

    @Test("an .xccurrentversion dictionary without the version key falls back to the last version")
    func emptyDictionaryMarkerFallsBack() throws {
        let bundle = ModelFileKit.fixture("JohnEstropia__CoreStore__Advanced.EvolutionDemo.xcdatamodeld")
        let versions = try NSManagedObjectModel.versions(inBundleAt: bundle)
        #expect(versions.map(\.name) == ["Advanced.EvolutionDemo", "Advanced.EvolutionDemo.V2"])
        #expect(versions.last?.isCurrent == true)
        #expect(NSManagedObjectModel(contentsOf: bundle) != nil)
    }

    @Test("a single .xcdatamodel folder, a bundle's version folder and a contents file load directly")
    func singleVersionAndContentsFileLoad() throws {
        let bare = ModelFileKit.fixture("3lvis__Sync__SimpleModel.xcdatamodel")
        #expect(try NSManagedObjectModel.load(from: bare).entities.count == 1)
        let contents = bare.appendingPathComponent("contents")
        #expect(try NSManagedObjectModel.load(from: contents).entities.count == 1)
        let version = ModelFileKit.fixture("SwiftGen__SwiftGen__Model.xcdatamodeld").appendingPathComponent("Model.xcdatamodel")
        #expect(try NSManagedObjectModel.load(from: version).entities.count == 3)
    }

    @Test("versions(inBundleAt:) lists a real bundle's versions oldest first and marks the current one")
    func versionsOfRealBundle() throws {
        let bundle = ModelFileKit.fixture("inaturalist__INaturalistIOS__INaturalist.xcdatamodeld")
        let versions = try NSManagedObjectModel.versions(inBundleAt: bundle)
        #expect(versions.count == 18)
        #expect(versions.filter(\.isCurrent).count == 1)
        let marker = try String(contentsOf: bundle.appendingPathComponent(".xccurrentversion"), encoding: .utf8)
        let current = try #require(versions.first { $0.isCurrent })
        #expect(marker.contains(current.url.lastPathComponent))
        let simplenote = try NSManagedObjectModel.versions(inBundleAt: ModelFileKit.fixture("Automattic__simplenote-ios__Simplenote.xcdatamodeld"))
        #expect(simplenote.count == 7)
        #expect(simplenote.first?.name == "Simplenote")
    }

    // MARK: Entities

    @Test("entity name, class, abstract flag, version hash modifier, elementID and userInfo are read")
    func entityAttributes() throws {
        let model = try ModelFileKit.load(
            """
            <entity name="Base" representedClassName="App.Base" isAbstract="YES" versionHashModifier="v2" elementID="OldBase" syncable="YES" codeGenerationType="class">
                <userInfo>
                    <entry key="table" value="bases"/>
                </userInfo>
            </entity>
            <entity name="Plain" syncable="YES"/>
            """)
        let base = try #require(model.entitiesByName["Base"])
        #expect(base.managedObjectClassName == "App.Base")
        #expect(base.isAbstract)
        #expect(base.versionHashModifier == "v2")
        #expect(base.renamingIdentifier == "OldBase")
        #expect(base.userInfo?["table"] as? String == "bases")
        let plain = try #require(model.entitiesByName["Plain"])
        #expect(plain.managedObjectClassName == "NSManagedObject")
        #expect(!plain.isAbstract)
        #expect(plain.versionHashModifier == nil && plain.renamingIdentifier == nil)
    }

    @Test("parentEntity makes superentities; subentities inherit their parent's properties")
    func inheritance() throws {
        let model = try ModelFileKit.load(
            """
            <entity name="Car" representedClassName="Car" parentEntity="Vehicle">
                <attribute name="doors" attributeType="Integer 16" defaultValueString="4" usesScalarValueType="YES"/>
            </entity>
            <entity name="Vehicle" isAbstract="YES">
                <attribute name="wheels" attributeType="Integer 16" defaultValueString="0" usesScalarValueType="YES"/>
            </entity>
            <entity name="Truck" parentEntity="Vehicle"/>
            """)
        let vehicle = try #require(model.entitiesByName["Vehicle"])
        let car = try #require(model.entitiesByName["Car"])
        #expect(car.superentity === vehicle)
        #expect(vehicle.subentities.map(\.name) == ["Car", "Truck"])
        #expect(car.properties.map(\.name) == ["doors"])
        #expect(Set(car.propertiesByName.keys) == ["doors", "wheels"])
        #expect(car.isKindOf(entity: vehicle))
    }

    // MARK: Attributes

    static let typeNames: [(String, NSAttributeType)] = [
        ("Integer 16", .integer16AttributeType), ("Integer 32", .integer32AttributeType),
        ("Integer 64", .integer64AttributeType), ("Decimal", .decimalAttributeType),
        ("Double", .doubleAttributeType), ("Float", .floatAttributeType), ("String", .stringAttributeType),
        ("Boolean", .booleanAttributeType), ("Date", .dateAttributeType), ("Binary", .binaryDataAttributeType),
        ("UUID", .UUIDAttributeType), ("URI", .URIAttributeType), ("Transformable", .transformableAttributeType),
        ("ObjectID", .objectIDAttributeType), ("Undefined", .undefinedAttributeType),
    ]

    @Test("every attributeType name Xcode writes maps to its NSAttributeType", arguments: typeNames)
    func attributeTypeNames(_ name: String, _ type: NSAttributeType) throws {
        let transient = type == .undefinedAttributeType || type == .objectIDAttributeType ? #" transient="YES""# : ""
        let model = try ModelFileKit.load(
            """
            <entity name="E"><attribute name="value" optional="YES"\(transient) attributeType="\(name)"/></entity>
            """)
        let attribute = try #require(model.entitiesByName["E"]?.attributesByName["value"])
        #expect(attribute.attributeType == type)
    }

    @Test("optional and transient come from the XML; absent means NO")
    func optionalAndTransient() throws {
        let model = try ModelFileKit.load(
            """
            <entity name="E">
                <attribute name="required" attributeType="String"/>
                <attribute name="optional" optional="YES" attributeType="String"/>
                <attribute name="scratch" optional="YES" transient="YES" attributeType="String"/>
            </entity>
            """)
        let attributes = try #require(model.entitiesByName["E"]?.attributesByName)
        #expect(attributes["required"]?.isOptional == false && attributes["required"]?.isTransient == false)
        #expect(attributes["optional"]?.isOptional == true && attributes["optional"]?.isTransient == false)
        #expect(attributes["scratch"]?.isTransient == true)
    }

    @Test("defaultValueString is parsed to the attribute's type")
    func defaultValues() throws {
        let model = try ModelFileKit.load(
            """
            <entity name="E">
                <attribute name="i16" attributeType="Integer 16" defaultValueString="-7" usesScalarValueType="YES"/>
                <attribute name="i32" attributeType="Integer 32" defaultValueString="100000"/>
                <attribute name="i64" attributeType="Integer 64" defaultValueString="9000000000"/>
                <attribute name="i64no" attributeType="Integer 64" defaultValueString="NO"/>
                <attribute name="i64real" attributeType="Integer 64" defaultValueString="0.0"/>
                <attribute name="dec" attributeType="Decimal" defaultValueString="12.75"/>
                <attribute name="dbl" attributeType="Double" defaultValueString="2.5"/>
                <attribute name="flt" attributeType="Float" defaultValueString="0.25"/>
                <attribute name="yes" attributeType="Boolean" defaultValueString="YES"/>
                <attribute name="no" attributeType="Boolean" defaultValueString="NO"/>
                <attribute name="text" attributeType="String" defaultValueString="hello"/>
                <attribute name="empty" attributeType="String" defaultValueString=""/>
                <attribute name="when" attributeType="Date" defaultDateTimeInterval="388411200" defaultValueString="2013-04-23 12:00:00 +0000"/>
                <attribute name="id" attributeType="UUID" defaultValueString="E621E1F8-C36C-495A-93FC-0C247A3E6E5F"/>
                <attribute name="link" attributeType="URI" defaultValueString="https://example.com/a"/>
                <attribute name="none" optional="YES" attributeType="String"/>
                <attribute name="textDate" attributeType="Date" defaultValueString="2013-04-23 12:00:00 +00:00"/>
                <attribute name="blankNumber" attributeType="Integer 32" defaultValueString=""/>
            </entity>
            """)
        let a = try #require(model.entitiesByName["E"]?.attributesByName)
        #expect((a["i16"]?.defaultValue as? NSNumber)?.int16Value == -7)
        #expect((a["i32"]?.defaultValue as? NSNumber)?.int32Value == 100_000)
        #expect((a["i64"]?.defaultValue as? NSNumber)?.int64Value == 9_000_000_000)
        #expect((a["i64no"]?.defaultValue as? NSNumber)?.int64Value == 0)
        #expect((a["i64real"]?.defaultValue as? NSNumber)?.int64Value == 0)
        #expect((a["dec"]?.defaultValue as? NSDecimalNumber)?.decimalValue == Decimal(string: "12.75"))
        #expect((a["dbl"]?.defaultValue as? NSNumber)?.doubleValue == 2.5)
        #expect((a["flt"]?.defaultValue as? NSNumber)?.floatValue == 0.25)
        #expect((a["yes"]?.defaultValue as? NSNumber)?.boolValue == true)
        #expect((a["no"]?.defaultValue as? NSNumber)?.boolValue == false)
        #expect(a["text"]?.defaultValue as? String == "hello")
        #expect(a["empty"]?.defaultValue as? String == "")
        #expect(a["when"]?.defaultValue as? Date == Date(timeIntervalSinceReferenceDate: 388_411_200))
        #expect(a["id"]?.defaultValue as? UUID == UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        #expect((a["link"]?.defaultValue as? URL)?.absoluteString == "https://example.com/a")
        #expect(a["none"]?.defaultValue == nil)
        #expect(a["textDate"]?.defaultValue as? Date == Date(timeIntervalSinceReferenceDate: 388_411_200))
        #expect(a["blankNumber"]?.defaultValue == nil)
    }

    @Test("storage and code generation flags are read")
    func storageFlags() throws {
        let model = try ModelFileKit.load(
            """
            <entity name="E">
                <attribute name="photo" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES" allowsCloudEncryption="YES"/>
                <attribute name="color" optional="YES" attributeType="Transformable" valueTransformerName="ColorTransformer" customClassName="UIColor"/>
                <attribute name="count" attributeType="Integer 32" defaultValueString="0" usesScalarValueType="YES" indexed="YES" spotlightIndexingEnabled="YES"/>
                <attribute name="serverID" attributeType="String" preserveAfterDeletion="YES" versionHashModifier="2" elementID="remoteID"/>
                <attribute name="plain" optional="YES" attributeType="String"/>
            </entity>
            """)
        let a = try #require(model.entitiesByName["E"]?.attributesByName)
        #expect(a["photo"]?.allowsExternalBinaryDataStorage == true)
        #expect(a["photo"]?.allowsCloudEncryption == true)
        #expect(a["color"]?.valueTransformerName == "ColorTransformer")
        #expect(a["color"]?.attributeValueClassName == "UIColor")
        #expect(a["count"]?.isIndexedBySpotlight == true)
        #expect(a["count"]?.attributeValueClassName == "NSNumber")
        #expect(a["serverID"]?.preservesValueInHistoryOnDeletion == true)
        #expect(a["serverID"]?.versionHashModifier == "2")
        #expect(a["serverID"]?.renamingIdentifier == "remoteID")
        let plain = try #require(a["plain"])
        #expect(!plain.allowsExternalBinaryDataStorage && !plain.allowsCloudEncryption)
        #expect(!plain.preservesValueInHistoryOnDeletion && !plain.isIndexedBySpotlight)
        #expect(plain.valueTransformerName == nil && plain.versionHashModifier == nil && plain.renamingIdentifier == nil)
    }

    @Test("attribute userInfo entries are read")
    func attributeUserInfo() throws {
        let model = try ModelFileKit.load(
            """
            <entity name="E">
                <attribute name="a" optional="YES" attributeType="String">
                    <userInfo>
                        <entry key="RawType" value="StringEnum"/>
                        <entry key="flag" value="true"/>
                    </userInfo>
                </attribute>
            </entity>
            """)
        let info = try #require(model.entitiesByName["E"]?.attributesByName["a"]?.userInfo)
        #expect(info.count == 2)
        #expect(info["RawType"] as? String == "StringEnum")
        #expect(info["flag"] as? String == "true")
    }

    @Test("real files: preserveAfterDeletion, modifiers, elementID, spotlight, external storage and version identifiers")
    func realFlags() throws {
        let sample = Fixtures.stores.appendingPathComponent("alemar11__CoreDataPlus__SampleModel_V1/SampleModel.xcdatamodeld")
        let v1 = try NSManagedObjectModel.load(from: sample.appendingPathComponent("SampleModel.xcdatamodel"))
        #expect(v1.entitiesByName["Person"]?.attributesByName["id"]?.preservesValueInHistoryOnDeletion == true)
        #expect(v1.entitiesByName["Person"]?.attributesByName["firstName"]?.preservesValueInHistoryOnDeletion == false)
        #expect(v1.versionIdentifiers == [AnyHashable("1")])
        let bookmarks = try NSManagedObjectModel.load(
            from: Fixtures.stores.appendingPathComponent(
                "duckduckgo__BrowserServicesKit__Bookmarks_V5/BookmarksModel.xcdatamodeld/BookmarksModel 5.xcdatamodel"))
        let bookmark = try #require(bookmarks.entitiesByName["BookmarkEntity"])
        #expect(bookmark.attributesByName["uuid"]?.versionHashModifier == "3")
        #expect(bookmark.relationshipsByName["favoriteFolders"]?.renamingIdentifier == "favoriteFolder")
        let momdec = try NSManagedObjectModel.load(from: ModelFileKit.fixture("atomicbird__momdec__momdecTests.xcdatamodeld"))
        let entity = try #require(momdec.entitiesByName["Entity"])
        #expect(entity.versionHashModifier == "myVersionHashModifier")
        #expect(entity.renamingIdentifier == "myRenamingIdentifier")
        #expect(entity.superentity?.name == "AbstractEntity")
        #expect(entity.attributesByName["binaryAttribute"]?.isIndexedBySpotlight == true)
        #expect(entity.attributesByName["binaryAttribute"]?.isTransient == true)
        #expect(entity.userInfo?["someKey"] as? String == "randomValue")
        #expect(entity.attributesByName["binaryAttribute"]?.userInfo?.count == 3)
        #expect(entity.attributesByName["transformableAttribute"]?.valueTransformerName == "myValueTransformer")
        let ensembles = try NSManagedObjectModel.load(
            from: ModelFileKit.fixture(
                "drewmccormack__ensembles__Model.xcdatamodeld"
            ).appendingPathComponent("Model_1.xcdatamodel"))
        #expect(ensembles.entitiesByName["IDMMediaFile"]?.attributesByName["data"]?.allowsExternalBinaryDataStorage == true)
    }

    // MARK: Relationships

    @Test("relationships get destination, inverse, cardinality, ordering and every delete rule")
    func relationships() throws {
        let model = try ModelFileKit.load(
            """
            <entity name="Author">
                <relationship name="posts" optional="YES" toMany="YES" deletionRule="Cascade" ordered="YES" destinationEntity="Post" inverseName="author" inverseEntity="Post"/>
                <relationship name="drafts" toMany="YES" minCount="1" maxCount="9" deletionRule="Deny" destinationEntity="Post" inverseName="draftAuthor" inverseEntity="Post"/>
                <relationship name="cache" optional="YES" transient="YES" maxCount="1" deletionRule="No Action" destinationEntity="Post"/>
            </entity>
            <entity name="Post">
                <relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Author" inverseName="posts" inverseEntity="Author"/>
                <relationship name="draftAuthor" maxCount="1" destinationEntity="Author" inverseName="drafts" inverseEntity="Author"/>
            </entity>
            """)
        let author = try #require(model.entitiesByName["Author"])
        let post = try #require(model.entitiesByName["Post"])
        let r = author.relationshipsByName
        let posts = try #require(r["posts"])
        #expect(posts.destinationEntity === post)
        #expect(posts.inverseRelationship === post.relationshipsByName["author"])
        #expect(posts.isToMany && posts.isOrdered && posts.isOptional)
        #expect(posts.minCount == 0 && posts.maxCount == 0)
        #expect(posts.deleteRule == .cascadeDeleteRule)
        let drafts = try #require(r["drafts"])
        #expect(drafts.minCount == 1 && drafts.maxCount == 9 && drafts.isToMany && !drafts.isOrdered && !drafts.isOptional)
        #expect(drafts.deleteRule == .denyDeleteRule)
        let cache = try #require(r["cache"])
        #expect(!cache.isToMany && cache.maxCount == 1 && cache.isTransient)
        #expect(cache.deleteRule == .noActionDeleteRule)
        #expect(cache.inverseRelationship == nil)
        let back = try #require(post.relationshipsByName["author"])
        #expect(back.deleteRule == .nullifyDeleteRule && back.inverseRelationship === posts)
        #expect(post.relationshipsByName["draftAuthor"]?.deleteRule == .nullifyDeleteRule)
    }

    @Test("an inverse declared on a superentity resolves through inheritance")
    func inheritedInverse() throws {
        let model = try ModelFileKit.load(
            """
            <entity name="Owner">
                <relationship name="items" optional="YES" toMany="YES" destinationEntity="Special" inverseName="owner" inverseEntity="Special"/>
            </entity>
            <entity name="Item">
                <relationship name="owner" optional="YES" maxCount="1" destinationEntity="Owner" inverseName="items" inverseEntity="Owner"/>
            </entity>
            <entity name="Special" parentEntity="Item"/>
            """)
        let items = try #require(model.entitiesByName["Owner"]?.relationshipsByName["items"])
        #expect(items.inverseRelationship === model.entitiesByName["Item"]?.relationshipsByName["owner"])
    }

    @Test("real file: xDrip's Deny rules and momdec's bounded to-many load")
    func realRelationships() throws {
        let xdrip = try NSManagedObjectModel.load(from: ModelFileKit.fixture("JohanDegraeve__xdripswift__xdrip.xcdatamodeld"))
        let rules = xdrip.entities.flatMap { $0.relationshipsByName.values.map(\.deleteRule) }
        #expect(rules.contains(.denyDeleteRule) && rules.contains(.cascadeDeleteRule))
        let momdec = try NSManagedObjectModel.load(from: ModelFileKit.fixture("atomicbird__momdec__momdecTests.xcdatamodeld"))
        let others = try #require(momdec.entitiesByName["Entity"]?.relationshipsByName["otherEntities"])
        #expect(others.minCount == 1 && others.maxCount == 9 && others.isToMany)
        #expect(others.inverseRelationship?.name == "mainEntity")
    }

    // MARK: Fetched properties and fetch request templates

    @Test("a fetched property carries its fetch request with entity and predicate")
    func fetchedProperty() throws {
        let model = try ModelFileKit.load(
            """
            <entity name="Folder">
                <attribute name="name" optional="YES" attributeType="String"/>
                <fetchedProperty name="recentNotes" optional="YES">
                    <fetchRequest name="fetchedPropertyFetchRequest" entity="Note" predicateString="folderName == $FETCH_SOURCE.name"/>
                    <userInfo><entry key="k" value="v"/></userInfo>
                </fetchedProperty>
            </entity>
            <entity name="Note"><attribute name="folderName" optional="YES" attributeType="String"/></entity>
            """)
        let folder = try #require(model.entitiesByName["Folder"])
        let fetched = try #require(folder.propertiesByName["recentNotes"] as? NSFetchedPropertyDescription)
        #expect(fetched.userInfo?["k"] as? String == "v")
        let request = try #require(fetched.fetchRequest)
        #expect(request.entity === model.entitiesByName["Note"])
        #expect(request.entityName == "Note")
        let predicate = try #require(request.predicate as? NSComparisonPredicate)
        #expect(predicate.leftExpression.keyPath == "folderName")
        #expect(folder.attributesByName["recentNotes"] == nil && folder.relationshipsByName["recentNotes"] == nil)
    }

    @Test("model fetch request templates keep entity, predicate, limits, result type and options")
    func fetchRequestTemplates() throws {
        let model = try ModelFileKit.load(
            """
            <entity name="Person"><attribute name="name" optional="YES" attributeType="String"/><attribute name="age" optional="YES" attributeType="Integer 16" defaultValueString="0"/></entity>
            <fetchRequest name="ByName" entity="Person" predicateString="name == $NAME" fetchLimit="100" fetchBatchSize="10" includeSubentities="NO" returnObjectsAsFaults="NO" returnDistinctResults="YES" resultType="2"/>
            <fetchRequest name="All" entity="Person"/>
            """)
        #expect(Set(model.fetchRequestTemplatesByName.keys) == ["ByName", "All"])
        let byName = try #require(model.fetchRequestTemplate(forName: "ByName"))
        #expect(byName.entity === model.entitiesByName["Person"])
        #expect(byName.fetchLimit == 100 && byName.fetchBatchSize == 10)
        #expect(byName.resultType == .dictionaryResultType)
        #expect(!byName.includesSubentities && !byName.returnsObjectsAsFaults && byName.returnsDistinctResults)
        #expect(byName.includesPropertyValues && byName.includesPendingChanges)
        #expect(byName.predicate != nil)
        let bound = try #require(model.fetchRequestFromTemplate(withName: "ByName", substitutionVariables: ["NAME": "Ada"]))
        #expect(bound.predicate?.evaluate(with: ["name": "Ada"]) == true)
        #expect(bound.predicate?.evaluate(with: ["name": "Bob"]) == false)
        let all = try #require(model.fetchRequestTemplate(forName: "All"))
        #expect(all.predicate == nil && all.fetchLimit == 0 && all.resultType == .managedObjectResultType)
        #expect(all.includesSubentities && all.returnsObjectsAsFaults && !all.returnsDistinctResults)
    }

    @Test("real files: SwiftGen and mogenerator fetch request templates and fetched properties load")
    func realFetchRequests() throws {
        let swiftgen = try NSManagedObjectModel.load(from: ModelFileKit.fixture("SwiftGen__SwiftGen__Model.xcdatamodeld"))
        #expect(Set(swiftgen.fetchRequestTemplatesByName.keys) == ["DictionaryFetchRequest", "ObjectFetchRequest", "ObjectIDFetchRequest"])
        #expect(swiftgen.fetchRequestTemplate(forName: "ObjectIDFetchRequest")?.resultType == .managedObjectIDResultType)
        #expect(swiftgen.fetchRequestTemplate(forName: "ObjectFetchRequest")?.predicate is NSComparisonPredicate)
        #expect(swiftgen.fetchRequestTemplate(forName: "ObjectIDFetchRequest")?.predicate is NSCompoundPredicate)
        let fetched = swiftgen.entitiesByName["MainEntity"]?.propertiesByName["fetchedProperty"] as? NSFetchedPropertyDescription
        #expect(fetched?.fetchRequest?.entityName == "NewEntity")
        let mogen = try NSManagedObjectModel.load(from: ModelFileKit.fixture("rentzsch__mogenerator__test.xcdatamodel"))
        #expect(mogen.fetchRequestTemplatesByName.count == 5)
        #expect(mogen.fetchRequestTemplate(forName: "byParentName")?.predicate != nil)
    }

    // MARK: Configurations, indexes, constraints

    @Test("configurations list their member entities")
    func configurations() throws {
        let model = try NSManagedObjectModel.load(from: ModelFileKit.fixture("JohnEstropia__CoreStore__Model.xcdatamodeld"))
        #expect(model.configurations.sorted() == ["Config1", "Config2"])
        #expect(model.entities(forConfigurationName: "Config1")?.map(\.name) == ["TestEntity1AAA"])
        #expect(model.entities(forConfigurationName: "Config2")?.map(\.name) == ["TestEntity2"])
        #expect(model.entities(forConfigurationName: nil)?.count == model.entities.count)
    }

    @Test("fetch indexes keep their elements, type and order")
    func fetchIndexes() throws {
        let model = try ModelFileKit.load(
            """
            <entity name="Event">
                <attribute name="start" optional="YES" attributeType="Date"/>
                <attribute name="kind" optional="YES" attributeType="String"/>
                <fetchIndex name="byStartKind">
                    <fetchIndexElement property="start" type="Binary" order="descending"/>
                    <fetchIndexElement property="kind" type="Binary" order="ascending"/>
                </fetchIndex>
            </entity>
            """)
        let event = try #require(model.entitiesByName["Event"])
        #expect(event.indexes.map(\.name) == ["byStartKind"])
        let elements = try #require(event.indexes.first?.elements)
        #expect(elements.map(\.propertyName) == ["start", "kind"])
        #expect(elements.map(\.isAscending) == [false, true])
        #expect(elements.allSatisfy { $0.collationType == .binary })
        #expect(elements.first?.property === event.attributesByName["start"])
    }

    @Test("a fetch index element can index an expression instead of a property")
    func expressionIndexElement() throws {
        let model = try ModelFileKit.load(
            """
            <entity name="Person">
                <attribute name="name" optional="YES" attributeType="String"/>
                <fetchIndex name="byLowerName">
                    <fetchIndexElement expression="lowercase:(name)" expressionType="String" type="Binary" order="ascending"/>
                </fetchIndex>
            </entity>
            """)
        let element = try #require(model.entitiesByName["Person"]?.indexes.first?.elements.first)
        let description = try #require(element.property as? NSExpressionDescription)
        #expect(description.expressionResultType == .stringAttributeType)
        #expect(description.expression?.expressionType == .function)
        #expect(description.expression?.function == "lowercase:")
    }

    @Test("real file: LoopKit's fetch indexes and uniqueness constraints load")
    func realIndexesAndConstraints() throws {
        let bundle = ModelFileKit.fixture("LoopKit__LoopKit__Model.xcdatamodeld")
        for version in try NSManagedObjectModel.versions(inBundleAt: bundle) {
            let model = try version.loadModel()
            let indexed = model.entities.filter { !$0.indexes.isEmpty }
            #expect(!indexed.isEmpty, "\(version.name)")
            let constrained = model.entities.filter { !$0.uniquenessConstraints.isEmpty }
            #expect(!constrained.isEmpty, "\(version.name)")
            for entity in constrained {
                for tuple in entity.uniquenessConstraints {
                    for name in tuple {
                        #expect(entity.propertiesByName[name as? String ?? ""] != nil)
                    }
                }
            }
        }
    }

    @Test("old compound indexes become fetch indexes")
    func compoundIndexes() throws {
        let model = try NSManagedObjectModel.load(from: ModelFileKit.fixture("atomicbird__momdec__momdecTests.xcdatamodeld"))
        let entity = try #require(model.entitiesByName["Entity"])
        #expect(entity.indexes.count == 2)
        #expect(
            entity.indexes.map { $0.elements.map(\.propertyName) } == [
                ["booleanAttribute", "dateAttribute"], ["decimalAttribute", "doubleAttribute"],
            ])
    }

    @Test("uniqueness constraints become tuples of property names")
    func uniquenessConstraints() throws {
        let model = try ModelFileKit.load(
            """
            <entity name="Person">
                <attribute name="first" attributeType="String"/>
                <attribute name="last" attributeType="String"/>
                <attribute name="email" attributeType="String"/>
                <uniquenessConstraints>
                    <uniquenessConstraint><constraint value="email"/></uniquenessConstraint>
                    <uniquenessConstraint><constraint value="first"/><constraint value="last"/></uniquenessConstraint>
                </uniquenessConstraints>
            </entity>
            """)
        let constraints = try #require(model.entitiesByName["Person"]?.uniquenessConstraints)
        #expect(constraints.map { $0.compactMap { $0 as? String } } == [["email"], ["first", "last"]])
    }

    // MARK: Derived and composite attributes

    @Test("derived attributes carry their derivation expression")
    func derivedAttributes() throws {
        let model = try ModelFileKit.load(
            """
            <entity name="Tag">
                <attribute name="name" optional="YES" attributeType="String"/>
                <attribute name="photoCount" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="photos.@count" usesScalarValueType="YES"/>
                <attribute name="lowerName" optional="YES" attributeType="String" derived="YES" derivationExpression="lowercase:(name)"/>
                <relationship name="photos" optional="YES" toMany="YES" destinationEntity="Photo"/>
            </entity>
            <entity name="Photo"/>
            """)
        let tag = try #require(model.entitiesByName["Tag"])
        let count = try #require(tag.attributesByName["photoCount"] as? NSDerivedAttributeDescription)
        #expect(count.attributeType == .integer64AttributeType)
        #expect(count.isReadOnly)
        // Apple's Core Data records `photos.@count` as the function expression `count:(photos)`.
        #expect(count.derivationExpression?.expressionType == .function)
        #expect(count.derivationExpression?.description == "count:(photos)")
        let lower = try #require(tag.attributesByName["lowerName"] as? NSDerivedAttributeDescription)
        #expect(lower.derivationExpression?.expressionType == .function)
        #expect(tag.attributesByName["name"] is NSDerivedAttributeDescription == false)
    }

    @Test("real file: SwiftGen's derived attributes load")
    func realDerived() throws {
        let model = try NSManagedObjectModel.load(from: ModelFileKit.fixture("SwiftGen__SwiftGen__Model.xcdatamodeld"))
        let child = try #require(model.entitiesByName["ChildEntity"])
        let derived = child.properties.compactMap { $0 as? NSDerivedAttributeDescription }
        #expect(derived.map(\.name) == ["canonicalOptionalString", "derivedCount", "now"])
        #expect(derived.allSatisfy { $0.derivationExpression != nil })
        let canonical = try #require(derived.first?.derivationExpression)
        #expect(canonical.expressionType == .function && canonical.function == "canonical:")
        #expect(canonical.expressionValue(with: ["optionalString": "Crème Brûlée"], context: nil) as? String == "creme brulee")
        #expect(derived[1].derivationExpression?.description == "count:(oneToMany)")
        #expect(derived[2].derivationExpression?.expressionType == .function)
    }

    @Test("composite attributes take their elements from the named composite definition")
    func compositeAttributes() throws {
        let model = try NSManagedObjectModel.load(
            from: ModelFileKit.fixture("fatbobman__CoreDataEvolution__CoreDataEvolutionIntegrationModel.xcdatamodeld"))
        let item = try #require(model.entitiesByName["CDEItem"])
        let location = try #require(item.attributesByName["location"] as? NSCompositeAttributeDescription)
        #expect(location.attributeType == .compositeAttributeType)
        #expect(location.isOptional)
        #expect(location.elements.map(\.name) == ["x", "y"])
        #expect(location.elements.map(\.attributeType) == [.doubleAttributeType, .doubleAttributeType])
        #expect(location.elements.map(\.isOptional) == [false, true])
        #expect((location.elements.first?.defaultValue as? NSNumber)?.doubleValue == 0)
    }

    @Test("a composite can nest another composite")
    func nestedComposite() throws {
        let model = try ModelFileKit.load(
            """
            <entity name="Place"><attribute name="where" optional="YES" attributeType="Composite" composite="Address"/></entity>
            <composite name="Address">
                <attribute name="street" optional="YES" attributeType="String"/>
                <attribute name="point" optional="YES" attributeType="Composite" composite="Point"/>
            </composite>
            <composite name="Point">
                <attribute name="lat" attributeType="Double" defaultValueString="0.0"/>
                <attribute name="lon" attributeType="Double" defaultValueString="0.0"/>
            </composite>
            """)
        let address = try #require(model.entitiesByName["Place"]?.attributesByName["where"] as? NSCompositeAttributeDescription)
        #expect(address.elements.map(\.name) == ["street", "point"])
        let point = try #require(address.elements.last as? NSCompositeAttributeDescription)
        #expect(point.elements.map(\.name) == ["lat", "lon"])
    }

    // MARK: Model-level details

    @Test("userDefinedModelVersionIdentifier becomes the model's version identifier")
    func versionIdentifier() throws {
        let header = ModelFileKit.header.replacingOccurrences(
            of: #"userDefinedModelVersionIdentifier="""#,
            with: #"userDefinedModelVersionIdentifier="2.1""#)
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let folder = try ModelFileKit.writeVersion(ModelFileKit.contents(#"<entity name="E"/>"#, header: header), in: directory)
        let model = try NSManagedObjectModel.load(from: folder)
        #expect(model.versionIdentifiers == [AnyHashable("2.1")])
        #expect(try ModelFileKit.load(#"<entity name="E"/>"#).versionIdentifiers.isEmpty)
    }

    @Test("unknown elements and XML attributes that newer Xcode may write are ignored")
    func unknownThingsAreIgnored() throws {
        let model = try ModelFileKit.load(
            """
            <entity name="E" futureFlag="YES" syncable="YES" codeGenerationType="class">
                <attribute name="a" optional="YES" attributeType="String" someNewSetting="42"/>
                <futureElement name="x"><nested/></futureElement>
            </entity>
            <futureModelElement/>
            <elements><element name="E" positionX="0" positionY="0" width="128" height="44"/></elements>
            """)
        #expect(model.entities.map(\.name) == ["E"])
        #expect(model.entitiesByName["E"]?.properties.map(\.name) == ["a"])
    }

    @Test("an empty model (no entities) loads")
    func emptyModel() throws {
        let model = try NSManagedObjectModel.load(from: ModelFileKit.fixture("inaturalist__INaturalistIOS__INaturalist2.3.xcdatamodeld"))
        #expect(model.entities.isEmpty)
    }

    @Test("real file: Simplenote's bundle loads its current XML version with abstract parent and userInfo")
    func simplenoteBundle() throws {
        let model = try NSManagedObjectModel.load(from: ModelFileKit.fixture("Automattic__simplenote-ios__Simplenote.xcdatamodeld"))
        #expect(model.entities.contains { $0.isAbstract })
        #expect(model.entities.contains { $0.superentity != nil })
    }
}
