import Testing

@testable import OpenCoreDataCore

/// Each naming rule of Core Data's SQLite layout, on small models built in code. The Bear model below
/// reproduces the entities and relationships of the Apple-written Bear 2 store whose schema dump
/// STORE-FORMAT.md quotes; the expectations are that dump's names.
@Suite("SQLite schema layout")
struct SQLiteSchemaLayoutTests {
    typealias K = ModelKit

    static func model(_ entities: [NSEntityDescription]) -> NSManagedObjectModel {
        let model = NSManagedObjectModel()
        model.entities = entities
        return model
    }

    static func columns(_ schema: SQLiteSchema, _ table: String) -> [String: String] {
        var result: [String: String] = [:]
        for column in schema.table(named: table)?.columns ?? [] { result[column.name] = column.type.rawValue }
        return result
    }

    static func indexStatements(_ schema: SQLiteSchema) -> Set<String> {
        Set(schema.indexes.map(\.createStatement))
    }

    /// The part of the Bear 2 model the dump's layout depends on.
    static func bear() -> NSManagedObjectModel {
        let change = K.entity("SFChange", [K.attribute("order", .integer64AttributeType)])
        let changeItem = K.entity("SFChangeItem")
        let external = K.entity("SFExternalChanges", [K.attribute("itemEntity", .stringAttributeType)])
        let internalChanges = K.entity("SFInternalChanges", [K.attribute("changeType", .stringAttributeType)])
        let note = K.entity("SFNote", [K.attribute("title", .stringAttributeType)])
        let backLink = K.entity("SFNoteBackLink")
        let file = K.entity(
            "SFNoteFile",
            [
                K.attribute("version", .integer16AttributeType),
                K.attribute("uniqueIdentifier", .stringAttributeType),
            ])
        let generic = K.entity("SFNoteGenericFile")
        let image = K.entity(
            "SFNoteImage",
            [
                K.attribute("animated", .booleanAttributeType),
                K.attribute("height", .integer64AttributeType),
                K.attribute("width", .integer64AttributeType),
            ])
        let video = K.entity(
            "SFNoteVideo",
            [
                K.attribute("duration", .integer64AttributeType),
                K.attribute("height", .integer64AttributeType),
                K.attribute("width", .integer64AttributeType),
            ])
        file.subentities = [video, image, generic]
        let fileServerData = K.entity("SFNoteFileServerData", [K.attribute("systemFields", .binaryDataAttributeType)])
        let noteServerData = K.entity("SFNoteServerData", [K.attribute("systemFields", .binaryDataAttributeType)])
        let tag = K.entity("SFNoteTag", [K.attribute("title", .stringAttributeType)])
        let password = K.entity("SFPassword")
        let serverMetadata = K.entity("SFServerMetadata")

        func link(
            _ a: NSEntityDescription, _ aName: String, toMany aMany: Bool,
            _ b: NSEntityDescription, _ bName: String, toMany bMany: Bool
        ) {
            let forward = K.relationship(aName, to: b, toMany: aMany)
            let back = K.relationship(bName, to: a, toMany: bMany)
            K.pair(forward, back)
            a.properties += [forward]
            b.properties += [back]
        }
        link(change, "items", toMany: true, changeItem, "change", toMany: false)
        link(note, "files", toMany: true, file, "note", toMany: false)
        link(note, "serverData", toMany: false, noteServerData, "note", toMany: false)
        link(file, "serverData", toMany: false, fileServerData, "file", toMany: false)
        link(note, "tags", toMany: true, tag, "notes", toMany: true)
        link(note, "pinnedInTags", toMany: true, tag, "pinnedNotes", toMany: true)
        link(backLink, "linkedBy", toMany: false, note, "backLinks", toMany: true)
        link(backLink, "linkingTo", toMany: false, note, "linksTo", toMany: true)
        link(password, "notes", toMany: true, note, "password", toMany: false)
        link(password, "files", toMany: true, file, "password", toMany: false)
        return model([
            serverMetadata, password, tag, noteServerData, fileServerData, video, image, generic, file,
            backLink, note, internalChanges, external, changeItem, change,
        ])
    }

    @Test("entity numbers: roots by name, each followed by its subentities by name (Bear's numbers)")
    func entityNumbers() throws {
        let schema = try SQLiteSchema(model: Self.bear())
        #expect(
            schema.entities.map { "\($0.number) \($0.name) \($0.superNumber)" } == [
                "1 SFChange 0", "2 SFChangeItem 0", "3 SFExternalChanges 0", "4 SFInternalChanges 0", "5 SFNote 0",
                "6 SFNoteBackLink 0", "7 SFNoteFile 0", "8 SFNoteGenericFile 7", "9 SFNoteImage 7", "10 SFNoteVideo 7",
                "11 SFNoteFileServerData 0", "12 SFNoteServerData 0", "13 SFNoteTag 0", "14 SFPassword 0",
                "15 SFServerMetadata 0",
            ])
        #expect(schema.primaryKeyRows.first { $0.name == "SFNoteVideo" } == .init(number: 10, name: "SFNoteVideo", superNumber: 7))
        #expect(schema.entity(named: "SFNoteImage")?.rootNumber == 7)
        #expect(schema.entity(named: "SFNoteFile")?.numbersIncludingSubentities == [7, 8, 9, 10])
    }

    @Test("one table per root entity, Z + upper-cased name, subentities in their root's table")
    func tablesPerRoot() throws {
        let schema = try SQLiteSchema(model: Self.bear())
        #expect(
            schema.tables.map(\.name) == [
                "ZSFCHANGE", "ZSFCHANGEITEM", "ZSFEXTERNALCHANGES", "ZSFINTERNALCHANGES", "ZSFNOTE", "ZSFNOTEBACKLINK",
                "ZSFNOTEFILE", "ZSFNOTEFILESERVERDATA", "ZSFNOTESERVERDATA", "ZSFNOTETAG", "ZSFPASSWORD",
                "ZSFSERVERMETADATA", "Z_5PINNEDINTAGS", "Z_5TAGS",
            ])
        #expect(schema.entity(named: "SFNoteVideo")?.table == "ZSFNOTEFILE")
        let first = schema.table(named: "ZSFCHANGE")?.columns.prefix(3).map(\.definition)
        #expect(first == ["Z_PK INTEGER PRIMARY KEY", "Z_ENT INTEGER", "Z_OPT INTEGER"])
    }

    @Test("same-named attributes of sibling subentities: the first in entity-number order keeps the bare name")
    func collisionSuffixes() throws {
        let schema = try SQLiteSchema(model: Self.bear())
        let file = Self.columns(schema, "ZSFNOTEFILE")
        for name in [
            "ZHEIGHT", "ZWIDTH", "ZHEIGHT1", "ZWIDTH1", "ZANIMATED", "ZDURATION", "ZVERSION", "ZNOTE", "ZPASSWORD",
            "ZSERVERDATA", "ZUNIQUEIDENTIFIER",
        ] {
            #expect(file[name] != nil, "\(name)")
        }
        #expect(schema.entity(named: "SFNoteImage")?.attributeColumns["height"] == "ZHEIGHT")
        #expect(schema.entity(named: "SFNoteVideo")?.attributeColumns["height"] == "ZHEIGHT1")
        #expect(schema.entity(named: "SFNoteVideo")?.attributeColumns["version"] == "ZVERSION")
        #expect(
            schema.table(named: "ZSFNOTEFILE")?.columns.map(\.name) == [
                "Z_PK", "Z_ENT", "Z_OPT", "ZVERSION", "ZNOTE", "ZPASSWORD", "ZSERVERDATA", "ZANIMATED", "ZHEIGHT", "ZWIDTH",
                "ZDURATION", "ZHEIGHT1", "ZWIDTH1", "ZUNIQUEIDENTIFIER",
            ])
    }

    @Test("to-one foreign keys: Z<REL>, plus Z<n>_<REL> when the destination has subentities; one-to-one keys on both sides")
    func toOneColumns() throws {
        let schema = try SQLiteSchema(model: Self.bear())
        #expect(
            Self.columns(schema, "ZSFNOTEFILESERVERDATA") == [
                "Z_PK": "INTEGER", "Z_ENT": "INTEGER", "Z_OPT": "INTEGER", "ZFILE": "INTEGER", "Z7_FILE": "INTEGER",
                "ZSYSTEMFIELDS": "BLOB",
            ])
        #expect(Self.columns(schema, "ZSFNOTESERVERDATA")["Z5_NOTE"] == nil)
        #expect(Self.columns(schema, "ZSFNOTESERVERDATA")["ZNOTE"] == "INTEGER")
        #expect(Self.columns(schema, "ZSFNOTE")["ZSERVERDATA"] == "INTEGER")
        #expect(Self.columns(schema, "ZSFNOTE")["ZFILES"] == nil)
        #expect(Self.columns(schema, "ZSFNOTEBACKLINK")["ZLINKEDBY"] == "INTEGER")
        #expect(
            schema.entity(named: "SFNoteFileServerData")?.relationships["file"]
                == .foreignKey(column: "ZFILE", entityColumn: "Z7_FILE", orderColumn: nil))
        #expect(
            schema.entity(named: "SFNote")?.relationships["files"]
                == .inverseForeignKey(table: "ZSFNOTEFILE", column: "ZNOTE", orderColumn: nil))
        #expect(
            schema.entity(named: "SFNoteImage")?.relationships["note"]
                == .foreignKey(column: "ZNOTE", entityColumn: nil, orderColumn: nil))
    }

    @Test("indexes: <TABLE>_<COLUMN>_INDEX per to-one key, <TABLE>_Z_ENT_INDEX where subentities share a table")
    func relationshipIndexes() throws {
        let statements = Self.indexStatements(try SQLiteSchema(model: Self.bear()))
        for statement in [
            "CREATE INDEX ZSFNOTEFILE_ZNOTE_INDEX ON ZSFNOTEFILE (ZNOTE)",
            "CREATE INDEX ZSFNOTEFILE_Z_ENT_INDEX ON ZSFNOTEFILE (Z_ENT)",
            "CREATE INDEX ZSFNOTEBACKLINK_ZLINKEDBY_INDEX ON ZSFNOTEBACKLINK (ZLINKEDBY)",
            "CREATE INDEX ZSFNOTEFILESERVERDATA_ZFILE_INDEX ON ZSFNOTEFILESERVERDATA (ZFILE)",
            "CREATE INDEX ZSFNOTE_ZSERVERDATA_INDEX ON ZSFNOTE (ZSERVERDATA)",
        ] {
            #expect(statements.contains(statement), "\(statement)")
        }
        #expect(!statements.contains { $0.contains("Z7_FILE_INDEX") })
        #expect(!statements.contains { $0.contains("ZSFNOTE_Z_ENT_INDEX") })
    }

    @Test("many-to-many: Bear's Z_5TAGS and Z_5PINNEDINTAGS tables, columns, keys and indexes")
    func manyToMany() throws {
        let schema = try SQLiteSchema(model: Self.bear())
        #expect(
            schema.table(named: "Z_5TAGS")?.createStatement
                == "CREATE TABLE Z_5TAGS ( Z_5NOTES INTEGER, Z_13TAGS INTEGER, PRIMARY KEY (Z_5NOTES, Z_13TAGS) )")
        #expect(
            schema.table(named: "Z_5PINNEDINTAGS")?.createStatement
                == "CREATE TABLE Z_5PINNEDINTAGS ( Z_5PINNEDNOTES INTEGER, Z_13PINNEDINTAGS INTEGER, PRIMARY KEY (Z_5PINNEDNOTES, Z_13PINNEDINTAGS) )"
        )
        let statements = Self.indexStatements(schema)
        #expect(statements.contains("CREATE INDEX Z_5TAGS_Z_13TAGS_INDEX ON Z_5TAGS (Z_13TAGS, Z_5NOTES)"))
        #expect(statements.contains("CREATE INDEX Z_5PINNEDINTAGS_Z_13PINNEDINTAGS_INDEX ON Z_5PINNEDINTAGS (Z_13PINNEDINTAGS, Z_5PINNEDNOTES)"))
        #expect(
            schema.entity(named: "SFNote")?.relationships["tags"]
                == .joinTable(table: "Z_5TAGS", sourceColumn: "Z_5NOTES", destinationColumn: "Z_13TAGS", orderColumn: nil))
        #expect(
            schema.entity(named: "SFNoteTag")?.relationships["notes"]
                == .joinTable(table: "Z_5TAGS", sourceColumn: "Z_13TAGS", destinationColumn: "Z_5NOTES", orderColumn: nil))
    }

    @Test("the side whose entity name sorts first names the join table, whatever the entity numbers (Photos' Z_26ASSETS)")
    func joinTableNamedByEntityName() throws {
        // Asset is a root numbered before Album, a subentity of GenericAlbum.
        let asset = K.entity("Asset")
        let generic = K.entity("GenericAlbum")
        let album = K.entity("Album")
        generic.subentities = [album]
        let assets = K.relationship("assets", to: asset, toMany: true)
        assets.isOrdered = true
        let albums = K.relationship("albums", to: album, toMany: true)
        K.pair(assets, albums)
        album.properties = [assets]
        asset.properties = [albums]
        let schema = try SQLiteSchema(model: Self.model([asset, generic, album]))
        #expect(schema.entities.map(\.name) == ["Asset", "GenericAlbum", "Album"])
        #expect(schema.table(named: "Z_3ASSETS")?.columns.map(\.name) == ["Z_3ALBUMS", "Z_1ASSETS", "Z_FOK_1ASSETS"])
        #expect(
            schema.entity(named: "Album")?.relationships["assets"]
                == .joinTable(
                    table: "Z_3ASSETS", sourceColumn: "Z_3ALBUMS", destinationColumn: "Z_1ASSETS",
                    orderColumn: "Z_FOK_1ASSETS"))
        #expect(
            schema.entity(named: "Asset")?.relationships["albums"]
                == .joinTable(table: "Z_3ASSETS", sourceColumn: "Z_1ASSETS", destinationColumn: "Z_3ALBUMS", orderColumn: nil))
    }

    @Test("ordered to-many with a to-one inverse keeps its order in Z_FOK_<INVERSE> on the destination table")
    func orderedOneToMany() throws {
        let folder = K.entity("Folder")
        let item = K.entity("Item")
        let items = K.relationship("items", to: item, toMany: true)
        items.isOrdered = true
        let parentFolder = K.relationship("parentFolder", to: folder)
        K.pair(items, parentFolder)
        folder.properties = [items]
        item.properties = [parentFolder]
        let schema = try SQLiteSchema(model: Self.model([folder, item]))
        #expect(schema.table(named: "ZITEM")?.columns.map(\.name) == ["Z_PK", "Z_ENT", "Z_OPT", "ZPARENTFOLDER", "Z_FOK_PARENTFOLDER"])
        #expect(
            schema.entity(named: "Folder")?.relationships["items"]
                == .inverseForeignKey(table: "ZITEM", column: "ZPARENTFOLDER", orderColumn: "Z_FOK_PARENTFOLDER"))
        #expect(
            schema.entity(named: "Item")?.relationships["parentFolder"]
                == .foreignKey(column: "ZPARENTFOLDER", entityColumn: nil, orderColumn: "Z_FOK_PARENTFOLDER"))
    }

    @Test("a self-referential many-to-many pair: Bookmarks' Z_1FAVORITES with its order column")
    func selfReferentialManyToMany() throws {
        let bookmark = K.entity("BookmarkEntity")
        let favorites = K.relationship("favorites", to: bookmark, toMany: true)
        favorites.isOrdered = true
        let favoriteFolders = K.relationship("favoriteFolders", to: bookmark, toMany: true)
        K.pair(favorites, favoriteFolders)
        bookmark.properties = [favoriteFolders, favorites]
        let schema = try SQLiteSchema(model: Self.model([bookmark]))
        #expect(
            schema.table(named: "Z_1FAVORITES")?.createStatement
                == "CREATE TABLE Z_1FAVORITES ( Z_1FAVORITEFOLDERS INTEGER, Z_1FAVORITES INTEGER, Z_FOK_1FAVORITES INTEGER, PRIMARY KEY (Z_1FAVORITEFOLDERS, Z_1FAVORITES) )"
        )
        #expect(Self.indexStatements(schema) == ["CREATE INDEX Z_1FAVORITES_Z_1FAVORITES_INDEX ON Z_1FAVORITES (Z_1FAVORITES, Z_1FAVORITEFOLDERS)"])
    }

    @Test("a relationship that is its own inverse gets a suffix on the second join column")
    func ownInverse() throws {
        let person = K.entity("Person")
        let friends = K.relationship("friends", to: person, toMany: true)
        friends.inverseRelationship = friends
        person.properties = [friends]
        let schema = try SQLiteSchema(model: Self.model([person]))
        #expect(schema.table(named: "Z_1FRIENDS")?.columns.map(\.name) == ["Z_1FRIENDS", "Z_1FRIENDS1"])
    }

    @Test("a to-many relationship without an inverse gets its own join table (OpenCoreData's choice)")
    func toManyWithoutInverse() throws {
        let tag = K.entity("Tag")
        let post = K.entity("Post", [K.relationship("tags", to: tag, toMany: true)])
        let schema = try SQLiteSchema(model: Self.model([post, tag]))
        #expect(
            schema.table(named: "Z_1TAGS")?.createStatement
                == "CREATE TABLE Z_1TAGS ( Z_1POST INTEGER, Z_2TAGS INTEGER, PRIMARY KEY (Z_1POST, Z_2TAGS) )")
        #expect(
            schema.entity(named: "Post")?.relationships["tags"]
                == .joinTable(table: "Z_1TAGS", sourceColumn: "Z_1POST", destinationColumn: "Z_2TAGS", orderColumn: nil))
        #expect(Self.indexStatements(schema).contains("CREATE INDEX Z_1TAGS_Z_2TAGS_INDEX ON Z_1TAGS (Z_2TAGS, Z_1POST)"))
    }

    @Test("declared column types by attribute type; transient and fetched properties have no column")
    func attributeTypes() throws {
        let fetched = NSFetchedPropertyDescription()
        fetched.name = "related"
        let thing = K.entity(
            "Thing",
            [
                K.attribute("i16", .integer16AttributeType), K.attribute("i32", .integer32AttributeType),
                K.attribute("i64", .integer64AttributeType), K.attribute("flag", .booleanAttributeType),
                K.attribute("d", .doubleAttributeType), K.attribute("f", .floatAttributeType),
                K.attribute("amount", .decimalAttributeType), K.attribute("s", .stringAttributeType),
                K.attribute("when", .dateAttributeType), K.attribute("bytes", .binaryDataAttributeType),
                K.attribute("id", .UUIDAttributeType), K.attribute("link", .URIAttributeType),
                K.attribute("value", .transformableAttributeType), K.attribute("ref", .objectIDAttributeType),
                K.attribute("scratch", .stringAttributeType, transient: true),
                K.attribute("anything", .undefinedAttributeType, transient: true), fetched,
            ])
        let schema = try SQLiteSchema(model: Self.model([thing]))
        #expect(
            Self.columns(schema, "ZTHING") == [
                "Z_PK": "INTEGER", "Z_ENT": "INTEGER", "Z_OPT": "INTEGER",
                "ZI16": "INTEGER", "ZI32": "INTEGER", "ZI64": "INTEGER", "ZFLAG": "INTEGER",
                "ZD": "FLOAT", "ZF": "FLOAT", "ZAMOUNT": "DECIMAL", "ZS": "VARCHAR", "ZWHEN": "TIMESTAMP",
                "ZBYTES": "BLOB", "ZID": "BLOB", "ZLINK": "VARCHAR", "ZVALUE": "BLOB", "ZREF": "VARCHAR",
            ])
        #expect(
            schema.table(named: "ZTHING")?.columns.map(\.type.rawValue).dropFirst(3) == [
                "INTEGER", "INTEGER", "INTEGER", "INTEGER", "TIMESTAMP", "FLOAT", "FLOAT", "DECIMAL",
                "VARCHAR", "VARCHAR", "VARCHAR", "BLOB", "BLOB", "BLOB",
            ])
    }

    @Test("composite attributes store each element in Z<COMPOSITE>_<ELEMENT>; derived attributes have a column")
    func compositeAndDerived() throws {
        let location = NSCompositeAttributeDescription()
        location.name = "location"
        location.elements = [K.attribute("latitude", .doubleAttributeType), K.attribute("longitude", .doubleAttributeType)]
        let count = NSDerivedAttributeDescription()
        count.name = "visitCount"
        count.attributeType = .integer64AttributeType
        count.derivationExpression = NSExpression(format: "visits.@count")
        let place = K.entity("Place", [location, count])
        let schema = try SQLiteSchema(model: Self.model([place]))
        #expect(
            schema.entity(named: "Place")?.attributeColumns == [
                "location.latitude": "ZLOCATION_LATITUDE", "location.longitude": "ZLOCATION_LONGITUDE", "visitCount": "ZVISITCOUNT",
            ])
        #expect(Self.columns(schema, "ZPLACE")["ZLOCATION_LATITUDE"] == "FLOAT")
    }

    @Test("fetch indexes Z_<Entity>_<name> with collation and order; uniqueness constraints Z_<Entity>_UNIQUE_<a>_<b>")
    func fetchIndexesAndConstraints() throws {
        let name = K.attribute("name", .stringAttributeType)
        let created = K.attribute("created", .dateAttributeType)
        let owner = K.entity("Owner")
        let ownerRelationship = K.relationship("owner", to: owner)
        let item = K.entity("Item", [name, created, ownerRelationship])
        let byName = NSFetchIndexElementDescription(property: name, collationType: .binary)
        let byCreated = NSFetchIndexElementDescription(property: created, collationType: .binary)
        byCreated.isAscending = false
        item.indexes = [
            NSFetchIndexDescription(name: "byNameAndDate", elements: [byName, byCreated]),
            NSFetchIndexDescription(name: "byOwner", elements: [NSFetchIndexElementDescription(property: ownerRelationship, collationType: .binary)]),
        ]
        item.uniquenessConstraints = [["name", "owner"]]
        let special = K.entity("SpecialItem", [K.attribute("code", .stringAttributeType)])
        special.uniquenessConstraints = [["code"]]
        item.subentities = [special]
        let schema = try SQLiteSchema(model: Self.model([item, owner, special]))
        let statements = Self.indexStatements(schema)
        #expect(
            statements.isSuperset(of: [
                "CREATE INDEX Z_Item_byNameAndDate ON ZITEM (ZNAME COLLATE BINARY ASC, ZCREATED COLLATE BINARY DESC)",
                "CREATE INDEX Z_Item_byOwner ON ZITEM (ZOWNER COLLATE BINARY ASC)",
                "CREATE UNIQUE INDEX Z_Item_UNIQUE_name_owner ON ZITEM (ZNAME COLLATE BINARY ASC, ZOWNER COLLATE BINARY ASC)",
                "CREATE UNIQUE INDEX Z_SpecialItem_UNIQUE_code ON ZITEM (ZCODE COLLATE BINARY ASC)",
                "CREATE INDEX ZITEM_ZOWNER_INDEX ON ZITEM (ZOWNER)",
                "CREATE INDEX ZITEM_Z_ENT_INDEX ON ZITEM (Z_ENT)",
            ]))
        #expect(statements.count == 6)
    }

    @Test("a configuration lays out only its entities, numbered among themselves")
    func configuration() throws {
        let a = K.entity("Alpha")
        let b = K.entity("Beta")
        let c = K.entity("Gamma")
        let model = Self.model([a, b, c])
        model.setEntities([c, a], forConfigurationName: "Local")
        let schema = try SQLiteSchema(model: model, configurationName: "Local")
        #expect(schema.entities.map { "\($0.number) \($0.name)" } == ["1 Alpha", "2 Gamma"])
        #expect(schema.tables.map(\.name) == ["ZALPHA", "ZGAMMA"])
    }

    @Test("a model that cannot be laid out throws an error naming the problem")
    func unstorableModels() throws {
        let a = K.entity("Alpha")
        let b = K.entity("Beta")
        a.properties = [K.relationship("beta", to: b)]
        let model = Self.model([a, b])
        model.setEntities([a], forConfigurationName: "Local")
        let outside = try #require(throws: NSError.self) { try SQLiteSchema(model: model, configurationName: "Local") }
        #expect(outside.code == NSCoreDataError)
        #expect(outside.localizedDescription.contains("\"beta\""))
        let unknown = try #require(throws: NSError.self) { try SQLiteSchema(model: model, configurationName: "Nope") }
        #expect(unknown.localizedDescription.contains("Nope"))

        let shape = K.attribute("shape", .doubleAttributeType)
        let region = K.entity("Region", [shape])
        region.indexes = [
            NSFetchIndexDescription(
                name: "byShape",
                elements: [
                    NSFetchIndexElementDescription(property: shape, collationType: .rTree)
                ])
        ]
        let rTree = try #require(throws: NSError.self) { try SQLiteSchema(model: Self.model([region])) }
        #expect(rTree.localizedDescription.contains("R-tree"))
    }

    @Test("a published Apple-written schema (Mixed In Key) is reproduced statement for statement")
    func mixedInKeySchema() throws {
        func attributes(_ type: NSAttributeType, _ names: String...) -> [NSPropertyDescription] {
            names.map { K.attribute($0, type) }
        }
        let collection = K.entity(
            "Collection",
            attributes(.integer32AttributeType, "index")
                + attributes(.booleanAttributeType, "isLibrary") + attributes(.stringAttributeType, "name"))
        let energy = K.entity(
            "EnergySegment",
            attributes(.doubleAttributeType, "energy", "length", "startTime")
                + attributes(.stringAttributeType, "comment"))
        let key = K.entity(
            "KeySegment",
            attributes(.integer16AttributeType, "singleNote")
                + attributes(.doubleAttributeType, "confidence", "energy", "length", "startTime", "volume")
                + attributes(.stringAttributeType, "key"))
        let song = K.entity(
            "Song",
            attributes(.integer32AttributeType, "clippedPeakCount")
                + attributes(.booleanAttributeType, "isPersonalized") + attributes(.dateAttributeType, "analysisDate")
                + attributes(.doubleAttributeType, "energy", "pitch", "tempo", "volume")
                + attributes(.stringAttributeType, "album", "artist", "comment", "fingerprint", "genre", "key", "name", "secondKey")
                + attributes(.binaryDataAttributeType, "beats", "bookmarkData"))
        let waveform = K.entity("Waveform", attributes(.binaryDataAttributeType, "object"))
        func link(
            _ a: NSEntityDescription, _ aName: String, toMany aMany: Bool,
            _ b: NSEntityDescription, _ bName: String, toMany bMany: Bool
        ) {
            let forward = K.relationship(aName, to: b, toMany: aMany)
            let back = K.relationship(bName, to: a, toMany: bMany)
            K.pair(forward, back)
            a.properties += [forward]
            b.properties += [back]
        }
        link(collection, "songs", toMany: true, song, "collections", toMany: true)
        link(energy, "song", toMany: false, song, "energySegments", toMany: true)
        link(key, "song", toMany: false, song, "keySegments", toMany: true)
        link(waveform, "song", toMany: false, song, "waveform", toMany: false)
        let schema = try SQLiteSchema(model: Self.model([song, waveform, key, energy, collection]))
        #expect(
            schema.tables.map(\.createStatement) == [
                "CREATE TABLE ZCOLLECTION ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZINDEX INTEGER, ZISLIBRARY INTEGER, ZNAME VARCHAR )",
                "CREATE TABLE ZENERGYSEGMENT ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZSONG INTEGER, ZENERGY FLOAT, ZLENGTH FLOAT, ZSTARTTIME FLOAT, ZCOMMENT VARCHAR )",
                "CREATE TABLE ZKEYSEGMENT ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZSINGLENOTE INTEGER, ZSONG INTEGER, ZCONFIDENCE FLOAT, ZENERGY FLOAT, ZLENGTH FLOAT, ZSTARTTIME FLOAT, ZVOLUME FLOAT, ZKEY VARCHAR )",
                "CREATE TABLE ZSONG ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCLIPPEDPEAKCOUNT INTEGER, ZISPERSONALIZED INTEGER, ZWAVEFORM INTEGER, ZANALYSISDATE TIMESTAMP, ZENERGY FLOAT, ZPITCH FLOAT, ZTEMPO FLOAT, ZVOLUME FLOAT, ZALBUM VARCHAR, ZARTIST VARCHAR, ZCOMMENT VARCHAR, ZFINGERPRINT VARCHAR, ZGENRE VARCHAR, ZKEY VARCHAR, ZNAME VARCHAR, ZSECONDKEY VARCHAR, ZBEATS BLOB, ZBOOKMARKDATA BLOB )",
                "CREATE TABLE ZWAVEFORM ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZSONG INTEGER, ZOBJECT BLOB )",
                "CREATE TABLE Z_1SONGS ( Z_1COLLECTIONS INTEGER, Z_4SONGS INTEGER, PRIMARY KEY (Z_1COLLECTIONS, Z_4SONGS) )",
            ])
        // That (older) file has the foreign-key indexes but no join-table index; current Core Data adds one.
        #expect(
            Set(schema.indexes.map(\.name)) == [
                "ZENERGYSEGMENT_ZSONG_INDEX", "ZKEYSEGMENT_ZSONG_INDEX", "ZWAVEFORM_ZSONG_INDEX", "ZSONG_ZWAVEFORM_INDEX",
                "Z_1SONGS_Z_4SONGS_INDEX",
            ])
    }
}
