import Testing

@testable import OpenCoreDataCore

/// Builds models from the test-vector listing of VERSION-HASH.md's appendix (lines such as
/// `color: attr 1800 [opt _P=243]` and `owner: rel ->Person inv=cars min=0 max=1 [opt _P=243]`).
private enum AppendixModel {
    struct Built {
        let model: NSManagedObjectModel
        let expected: [String: String]
    }

    static func build(_ listing: String, uniqueness: [String: [[String]]] = [:]) throws -> Built {
        var entities: [(entity: NSEntityDescription, superName: String?, hash: String)] = []
        var pendingRelationships: [(NSRelationshipDescription, destination: String, inverse: String)] = []
        var current: NSEntityDescription?
        var ownNames: [String: [String]] = [:]
        var propertyLines: [String: [String]] = [:]
        for rawLine in listing.split(separator: "\n") {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("ENTITY ") {
                let fields = line.split(separator: " ").map(String.init)
                let entity = NSEntityDescription()
                entity.name = fields[1]
                let superName = String(fields[2].dropFirst("super=".count))
                entity.isAbstract = fields[3] == "abstract=True"
                entities.append((entity, superName == "None" ? nil : superName, fields[5]))
                current = entity
            } else if let entity = current, let colon = line.firstIndex(of: ":") {
                propertyLines[entity.name ?? "", default: []].append(line)
                _ = colon
            }
        }
        let byName = Dictionary(uniqueKeysWithValues: entities.map { ($0.entity.name ?? "", $0) })
        // A subentity's listing repeats inherited properties; keep only those its superentity lacks.
        func inheritedNames(of name: String) -> Set<String> {
            guard let superName = byName[name]?.superName else { return [] }
            let own = Set((propertyLines[superName] ?? []).map(propertyName))
            return own.union(inheritedNames(of: superName))
        }
        for (entity, _, _) in entities {
            let name = entity.name ?? ""
            let inherited = inheritedNames(of: name)
            var properties: [NSPropertyDescription] = []
            for line in propertyLines[name] ?? [] where !inherited.contains(propertyName(line)) {
                let (property, destination, inverse) = try parseProperty(line)
                properties.append(property)
                if let relationship = property as? NSRelationshipDescription {
                    pendingRelationships.append((relationship, destination ?? "", inverse ?? ""))
                }
            }
            entity.properties = properties
            ownNames[name] = properties.map(\.name)
            entity.uniquenessConstraints = (uniqueness[name] ?? []).map { $0 as [Any] }
        }
        for (entity, superName, _) in entities {
            if let superName, let parent = byName[superName]?.entity {
                parent.subentities = parent.subentities + [entity]
            }
        }
        for (relationship, destination, inverse) in pendingRelationships {
            let target = try #require(byName[destination]?.entity)
            relationship.destinationEntity = target
            relationship.inverseRelationship = target.relationshipsByName[inverse]
        }
        let model = NSManagedObjectModel()
        model.entities = entities.map(\.entity)
        return Built(model: model, expected: Dictionary(uniqueKeysWithValues: entities.map { ($0.entity.name ?? "", $0.hash) }))
    }

    static func propertyName(_ line: String) -> String {
        String(line.prefix { $0 != ":" })
    }

    static func parseProperty(_ line: String) throws -> (NSPropertyDescription, String?, String?) {
        let name = propertyName(line)
        let body = line.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces)
        let flagsStart = try #require(body.firstIndex(of: "["))
        let flags = body[body.index(after: flagsStart)...].dropLast().split(separator: " ").map(String.init)
        let fields = body[..<flagsStart].split(separator: " ").map(String.init)
        let property: NSPropertyDescription
        var destination: String?
        var inverse: String?
        if fields[0] == "attr" {
            let attribute = NSAttributeDescription()
            let rawType = try #require(UInt(fields[1]))
            attribute.attributeType = try #require(NSAttributeType(rawValue: rawType))
            attribute.preservesValueInHistoryOnDeletion = flags.contains("F=16")
            property = attribute
        } else {
            let relationship = NSRelationshipDescription()
            destination = String(fields[1].dropFirst(2))
            inverse = String(fields[2].dropFirst("inv=".count))
            relationship.minCount = try #require(Int(fields[3].dropFirst("min=".count)))
            relationship.maxCount = try #require(Int(fields[4].dropFirst("max=".count)))
            relationship.isOrdered = flags.contains("ordered")
            property = relationship
        }
        property.name = name
        property.isOptional = flags.contains("opt")
        property.isTransient = flags.contains("trans")
        if let modifier = flags.first(where: { $0.hasPrefix("mod=") }) {
            property.versionHashModifier = String(modifier.dropFirst("mod='".count).dropLast())
        }
        return (property, destination, inverse)
    }
}

private let sampleModelListing = """
      ENTITY Car super=None abstract=False mod=None 9e555529072158220d1bacd2f80a3dad4919f74a32aa8be9ee22a6a7b4126c8f
          color: attr 1800 [opt _P=243]
          currentDrivingSpeed: attr 300 [opt trans _P=251]
          maker: attr 700 [opt _P=243]
          markedForDeletionAsOf: attr 900 [opt _P=243]
          model: attr 700 [opt _P=243]
          numberPlate: attr 700 [_P=241]
          owner: rel ->Person inv=cars min=0 max=1 [opt _P=243]
      ENTITY ExpensiveSportCar super=SportCar abstract=False mod=None 3dc7e32b1be45b5a4c795ac9af3e1d10aa7222d3c69ae805bbeb4408bdeba480
          color: attr 1800 [opt _P=243]
          currentDrivingSpeed: attr 300 [opt trans _P=251]
          isLimitedEdition: attr 800 [opt _P=243]
          maker: attr 700 [opt _P=243]
          markedForDeletionAsOf: attr 900 [opt _P=243]
          model: attr 700 [opt _P=243]
          numberPlate: attr 700 [_P=241]
          owner: rel ->Person inv=cars min=0 max=1 [opt _P=243]
      ENTITY Person super=None abstract=False mod=None 164268551b45108ae763aa2ba61ff32d32d32323850987c3e21607c8da44b72b
          cars: rel ->Car inv=owner min=0 max=0 [opt _P=243]
          firstName: attr 700 [opt _P=243]
          id: attr 1100 [_P=241 F=16]
          isDriving: attr 800 [trans _P=249]
          lastName: attr 700 [opt _P=243]
          updatedAt: attr 900 [_P=241]
      ENTITY SportCar super=Car abstract=False mod=None 514ec1907a568299f9fb6851106516136f0755f45fa53a823a0e4d44013d5313
          color: attr 1800 [opt _P=243]
          currentDrivingSpeed: attr 300 [opt trans _P=251]
          maker: attr 700 [opt _P=243]
          markedForDeletionAsOf: attr 900 [opt _P=243]
          model: attr 700 [opt _P=243]
          numberPlate: attr 700 [_P=241]
          owner: rel ->Person inv=cars min=0 max=1 [opt _P=243]
    """

private let bookmarksListing = """
      ENTITY BookmarkEntity super=None abstract=False mod=None 84f07c047d39108d666df9d08af728b3197383bda698febf3b90997db4fd5929
          children: rel ->BookmarkEntity inv=parent min=0 max=0 [opt ordered _P=1267]
          favoriteFolders: rel ->BookmarkEntity inv=favorites min=0 max=0 [opt _P=243]
          favorites: rel ->BookmarkEntity inv=favoriteFolders min=0 max=0 [opt ordered _P=1267]
          isFolder: attr 800 [_P=241]
          isPendingDeletion: attr 800 [opt indexed mod='3' _P=115]
          lastChildrenPayloadReceivedFromSync: attr 700 [opt _P=243]
          modifiedAt: attr 900 [opt _P=243]
          parent: rel ->BookmarkEntity inv=children min=0 max=1 [opt _P=243]
          title: attr 700 [opt _P=243]
          url: attr 700 [opt mod='3' _P=115]
          uuid: attr 700 [mod='3' _P=113]
    """

private let migrationExampleListing = """
      ENTITY Post super=None abstract=False mod=None 304e1bb646c24daafd47abcf4b0e8c929dfe0e106a99fb8092da1efce1f1117c
          date: attr 900 [opt _P=243]
          hexColor: attr 700 [opt _P=243]
          postID: attr 700 [opt _P=243]
          sections: rel ->Section inv=post min=0 max=0 [_P=241]
      ENTITY Section super=None abstract=False mod=None 007e65c75946655c0442a2a86ed3497b67baa758042cd926ab325267484ec40e
          body: attr 700 [opt _P=243]
          index: attr 100 [opt _P=243]
          post: rel ->Post inv=sections min=0 max=1 [opt _P=243]
          title: attr 700 [opt _P=243]
    """

/// Bear 2 entities from STORE-FORMAT.md §11 (all optional, no modifiers). The destination entities
/// carry only the inverse relationships the vectors need; their own hashes are not checked.
private let bearListing = """
      ENTITY SFExternalChanges super=None abstract=False mod=None 80cfcbdda018f1f71bc543deedaaed2252008c08395c9c998e370648e7976557
          itemChange: attr 100 [opt]
          itemEntity: attr 700 [opt]
          itemObjectID: attr 700 [opt]
      ENTITY SFInternalChanges super=None abstract=False mod=None 8e628fdec8b8543e53262badf8f4f8e3448f688ebb182e62275eb8e7a6852d38
          changeType: attr 700 [opt]
          itemChange: attr 100 [opt]
          itemObjectID: attr 700 [opt]
      ENTITY SFServerMetadata super=None abstract=False mod=None ae1f672c52a69c38b7f2c2cfe5a6f8d37f77a19dcb1e73b71f30263fce7ed291
          noteZoneIDData: attr 1000 [opt]
          noteZoneSubscriptionID: attr 700 [opt]
          serverChangeTokenData: attr 1000 [opt]
      ENTITY SFNoteServerData super=None abstract=False mod=None df2d38bed074e11baa2870537649ac95aa729d78ef57111a2fcd2b7e06591e3d
          note: rel ->SFNote inv=serverData min=0 max=1 [opt]
          systemFields: attr 1000 [opt]
      ENTITY SFNoteFileServerData super=None abstract=False mod=None f35b12a4561cd9c59369a78f28a09d2895d3f145ae25576cd2e65a9d88e0ba55
          file: rel ->SFNoteFile inv=serverData min=0 max=1 [opt]
          systemFields: attr 1000 [opt]
      ENTITY SFChange super=None abstract=False mod=None e89de362f9ef2e7bbc9f23d928fe9a2f83713c434c8d3a5d87c15edf0b2211b5
          items: rel ->SFChangeItem inv=change min=0 max=0 [opt]
          order: attr 300 [opt]
          token: attr 700 [opt]
      ENTITY SFPassword super=None abstract=False mod=None cfdac1595dc4636af96b18ebcc5b0481646fca1f70fdf9aa0fb4ea475356bded
          biometry: attr 800 [opt]
          creationDate: attr 900 [opt]
          creationDevice: attr 700 [opt]
          encryptedData: attr 1000 [opt]
          encryptionVersion: attr 100 [opt]
          files: rel ->SFNoteFile inv=password min=0 max=0 [opt]
          hint: attr 1000 [opt]
          notes: rel ->SFNote inv=password min=0 max=0 [opt]
          uniqueIdentifier: attr 700 [opt]
      ENTITY SFNote super=None abstract=False mod=None -
          serverData: rel ->SFNoteServerData inv=note min=0 max=1 [opt]
          password: rel ->SFPassword inv=notes min=0 max=1 [opt]
      ENTITY SFNoteFile super=None abstract=False mod=None -
          serverData: rel ->SFNoteFileServerData inv=file min=0 max=1 [opt]
          password: rel ->SFPassword inv=files min=0 max=1 [opt]
      ENTITY SFChangeItem super=None abstract=False mod=None -
          change: rel ->SFChange inv=items min=0 max=1 [opt]
    """

@Suite("Version hashes")
struct VersionHashTests {
    private func checkEveryEntity(_ built: AppendixModel.Built) {
        for (name, expected) in built.expected where expected != "-" {
            let entity = built.model.entitiesByName[name]
            #expect(entity.map { ModelKit.hex($0.versionHash) } == expected, "entity \(name)")
        }
    }

    @Test("SampleModel_V1 entities (inheritance, transient, uniqueness, preserve-after-deletion) hash as Apple's")
    func sampleModel() throws {
        let built = try AppendixModel.build(
            sampleModelListing,
            uniqueness: ["Car": [["numberPlate"]], "Person": [["firstName", "lastName"]]])
        checkEveryEntity(built)
        #expect(built.model.entitiesByName["SportCar"]?.superentity?.name == "Car")
    }

    @Test("Bookmarks_V5 BookmarkEntity (ordered relationships, property modifiers) hashes as Apple's")
    func bookmarks() throws {
        checkEveryEntity(try AppendixModel.build(bookmarksListing))
    }

    @Test("CoreDataMigration_Example_3 entities hash as Apple's")
    func migrationExample() throws {
        checkEveryEntity(try AppendixModel.build(migrationExampleListing))
    }

    @Test("The 7 Bear vectors of STORE-FORMAT.md §11 hash as Apple's")
    func bear() throws {
        let built = try AppendixModel.build(bearListing)
        #expect(built.expected.values.filter { $0 != "-" }.count == 7)
        checkEveryEntity(built)
    }

    @Test("Entity hashes are 32 bytes and stable across calls and copies")
    func stable() throws {
        let built = try AppendixModel.build(migrationExampleListing)
        let post = try #require(built.model.entitiesByName["Post"])
        #expect(post.versionHash.count == 32)
        #expect(post.versionHash == post.versionHash)
        let copy = try #require(built.model.copy() as? NSManagedObjectModel)
        #expect(copy.entityVersionHashesByName == built.model.entityVersionHashesByName)
    }

    // MARK: Model checksum and metadata digest

    @Test("The metadata digest equals the NSStoreModelVersionHashesDigest of the SampleModel_V1 and Bookmarks_V5 stores")
    func digestMatchesStores() throws {
        let sample = try AppendixModel.build(
            sampleModelListing,
            uniqueness: ["Car": [["numberPlate"]], "Person": [["firstName", "lastName"]]])
        #expect(
            sample.model._versionHashesDigest
                == "fACvwxty0QWritKFX3/LTtXZvI64UnFcRtP6qcjW1Yl0owr+rH+SpCvzy/uDYRpknMXbgacd3srn9wmE2KkL8Q==")
        let bookmarks = try AppendixModel.build(bookmarksListing)
        #expect(
            bookmarks.model._versionHashesDigest
                == "9WYf7a2enJKaL4wKAAgYwqyHAEQ12ZaJfnpBLqnbp6yzamL1LLxv+wKyoakpQaDZU1UTXD12xSVlsn0gDkf/oQ==")
    }

    @Test("versionChecksum is base64 SHA-256 of the entity hashes in name order")
    func checksum() throws {
        let sample = try AppendixModel.build(
            sampleModelListing,
            uniqueness: ["Car": [["numberPlate"]], "Person": [["firstName", "lastName"]]])
        #expect(sample.model.versionChecksum == "q779bi2ZZEuRPJyJIsoxXB0eBitt0PkUDBrh5FdJi0o=")
        // Entity order in the model does not matter.
        let reordered = NSManagedObjectModel()
        reordered.entities = sample.model.entities.reversed()
        #expect(reordered.versionChecksum == sample.model.versionChecksum)
    }

    // MARK: Invariance and sensitivity

    private func attributeHash(_ configure: (NSAttributeDescription) -> Void) -> Data {
        let attribute = ModelKit.attribute("title", .stringAttributeType)
        configure(attribute)
        return attribute.versionHash
    }

    @Test(
        "An attribute's hash ignores default value, validation rules, userInfo, renaming identifier, class name, cloud encryption and Spotlight indexing"
    )
    func attributeInvariance() {
        let base = attributeHash { _ in }
        #expect(attributeHash { $0.defaultValue = "Untitled" } == base)
        #expect(
            attributeHash {
                $0.setValidationPredicates([NSPredicate(value: true)], withValidationWarnings: ["always"])
            } == base)
        #expect(attributeHash { $0.userInfo = ["key": "value"] } == base)
        #expect(attributeHash { $0.renamingIdentifier = "oldTitle" } == base)
        #expect(attributeHash { $0.attributeValueClassName = "NSAttributedString" } == base)
        #expect(attributeHash { $0.allowsCloudEncryption = true } == base)
        #expect(attributeHash { $0.isIndexedBySpotlight = true } == base)
    }

    @Test("An attribute's hash changes with name, type, optionality, transience, modifier, external storage and history preservation")
    func attributeSensitivity() {
        let base = attributeHash { _ in }
        let variants: [Data] = [
            attributeHash { $0.name = "subtitle" },
            attributeHash { $0.attributeType = .integer64AttributeType },
            attributeHash { $0.isOptional = false },
            attributeHash { $0.isTransient = true },
            attributeHash { $0.versionHashModifier = "2" },
            attributeHash { $0.allowsExternalBinaryDataStorage = true },
            attributeHash { $0.preservesValueInHistoryOnDeletion = true },
        ]
        for variant in variants {
            #expect(variant != base)
        }
        #expect(Set(variants).count == variants.count)
    }

    private func relationshipHash(_ configure: (NSRelationshipDescription) -> Void) -> Data {
        let destination = ModelKit.entity("Tag")
        let relationship = ModelKit.relationship("tags", to: destination, toMany: true)
        configure(relationship)
        return relationship.versionHash
    }

    @Test("A relationship's hash ignores delete rule, userInfo and renaming identifier")
    func relationshipInvariance() {
        let base = relationshipHash { _ in }
        #expect(relationshipHash { $0.deleteRule = .cascadeDeleteRule } == base)
        #expect(relationshipHash { $0.deleteRule = .denyDeleteRule } == base)
        #expect(relationshipHash { $0.userInfo = ["a": 1] } == base)
        #expect(relationshipHash { $0.renamingIdentifier = "labels" } == base)
    }

    @Test("A relationship's hash changes with name, optionality, ordering, transience, counts and modifier")
    func relationshipSensitivity() {
        let base = relationshipHash { _ in }
        let variants: [Data] = [
            relationshipHash { $0.name = "labels" },
            relationshipHash { $0.isOptional = false },
            relationshipHash { $0.isOrdered = true },
            relationshipHash { $0.isTransient = true },
            relationshipHash { $0.maxCount = 1 },
            relationshipHash { $0.minCount = 1 },
            relationshipHash { $0.versionHashModifier = "2" },
        ]
        for variant in variants {
            #expect(variant != base)
        }
        #expect(Set(variants).count == variants.count)
    }

    private func entityHash(_ configure: (NSEntityDescription) -> Void) -> Data {
        let entity = ModelKit.entity("Note", [ModelKit.attribute("title", .stringAttributeType)])
        configure(entity)
        return entity.versionHash
    }

    @Test("An entity's hash ignores fetched properties, transient properties, class name, renaming identifier and userInfo")
    func entityInvariance() {
        let base = entityHash { _ in }
        #expect(
            entityHash {
                let fetched = NSFetchedPropertyDescription()
                fetched.name = "related"
                $0.properties = $0.properties + [fetched]
            } == base)
        #expect(
            entityHash {
                $0.properties = $0.properties + [ModelKit.attribute("scratch", .stringAttributeType, transient: true)]
            } == base)
        #expect(entityHash { $0.managedObjectClassName = "MyNote" } == base)
        #expect(entityHash { $0.renamingIdentifier = "Memo" } == base)
        #expect(entityHash { $0.userInfo = ["k": "v"] } == base)
    }

    @Test("An entity's hash changes with name, abstractness, attributes, relationships, constraints, superentity and modifier")
    func entitySensitivity() {
        let base = entityHash { _ in }
        let variants: [Data] = [
            entityHash { $0.name = "Memo" },
            entityHash { $0.isAbstract = true },
            entityHash { $0.properties = $0.properties + [ModelKit.attribute("body", .stringAttributeType)] },
            entityHash { $0.properties = $0.properties + [ModelKit.relationship("folder", to: ModelKit.entity("Folder"))] },
            entityHash { $0.uniquenessConstraints = [["title"]] },
            entityHash { $0.versionHashModifier = "2" },
        ]
        for variant in variants {
            #expect(variant != base)
        }
        #expect(Set(variants).count == variants.count)

        let parent = ModelKit.entity("Item")
        let child = ModelKit.entity("Note", [ModelKit.attribute("title", .stringAttributeType)])
        #expect(child.versionHash == base)
        parent.subentities = [child]
        #expect(child.versionHash != base)
        let hashWithEmptyParent = child.versionHash
        parent.properties = [ModelKit.attribute("created", .dateAttributeType)]
        #expect(child.versionHash != hashWithEmptyParent, "the superentity's hash and inherited properties count")
    }
}
