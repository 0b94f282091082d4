import Testing

@testable import OpenCoreDataCore

@Suite("Managed object models")
struct ManagedObjectModelTests {
    /// Author (name, books ↔ Book.author), Book (title, pages).
    private func makeModel() -> NSManagedObjectModel {
        let author = ModelKit.entity("Author", [ModelKit.attribute("name", .stringAttributeType)])
        let book = ModelKit.entity(
            "Book",
            [
                ModelKit.attribute("title", .stringAttributeType),
                ModelKit.attribute("pages", .integer32AttributeType),
            ])
        let books = ModelKit.relationship("books", to: book, toMany: true)
        let writer = ModelKit.relationship("author", to: author)
        author.properties = author.properties + [books]
        book.properties = book.properties + [writer]
        ModelKit.pair(books, writer)
        let model = NSManagedObjectModel()
        model.entities = [author, book]
        return model
    }

    @Test("A new model is empty and editable")
    func emptyModel() {
        let model = NSManagedObjectModel()
        #expect(model.entities.isEmpty)
        #expect(model.entitiesByName.isEmpty)
        #expect(model.configurations.isEmpty)
        #expect(model.fetchRequestTemplatesByName.isEmpty)
        #expect(model.versionIdentifiers.isEmpty)
        #expect(model.localizationDictionary == nil)
        #expect(model._isEditable)
    }

    @Test("Entities are kept in order and looked up by name; each knows its model")
    func entities() {
        let model = makeModel()
        #expect(model.entities.map(\.name) == ["Author", "Book"])
        #expect(model.entitiesByName["Book"]?.name == "Book")
        for entity in model.entities {
            #expect(entity.managedObjectModel === model)
        }
    }

    @Test("Configurations group entities; nil names every entity")
    func configurations() throws {
        let model = makeModel()
        let book = try #require(model.entitiesByName["Book"])
        model.setEntities([book], forConfigurationName: "Cloud")
        #expect(model.configurations == ["Cloud"])
        #expect(model.entities(forConfigurationName: "Cloud")?.map(\.name) == ["Book"])
        #expect(model.entities(forConfigurationName: nil)?.count == 2)
        #expect(model.entities(forConfigurationName: "Missing") == nil)
        model.setEntities(model.entities, forConfigurationName: "Cloud")
        #expect(model.configurations == ["Cloud"])
        #expect(model.entities(forConfigurationName: "Cloud")?.count == 2)
    }

    @Test("Fetch request templates are stored, replaced and removed by name")
    func templates() throws {
        let model = makeModel()
        let request = NSFetchRequest<NSFetchRequestResult>(entityName: "Book")
        request.predicate = NSPredicate(format: "pages > 100")
        model.setFetchRequestTemplate(request, forName: "LongBooks")
        #expect(model.fetchRequestTemplate(forName: "LongBooks") === request)
        #expect(model.fetchRequestTemplatesByName.keys.sorted() == ["LongBooks"])
        model.setFetchRequestTemplate(nil, forName: "LongBooks")
        #expect(model.fetchRequestTemplate(forName: "LongBooks") == nil)
    }

    @Test("fetchRequestFromTemplate substitutes $VARIABLES and leaves the template unchanged")
    func templateSubstitution() throws {
        let model = makeModel()
        let template = NSFetchRequest<NSFetchRequestResult>(entityName: "Book")
        template.entity = model.entitiesByName["Book"]
        template.predicate = NSPredicate(format: "title == $TITLE AND pages >= $MIN")
        template.fetchLimit = 3
        model.setFetchRequestTemplate(template, forName: "ByTitle")
        let request = try #require(
            model.fetchRequestFromTemplate(
                withName: "ByTitle",
                substitutionVariables: ["TITLE": "Dune", "MIN": 10]))
        #expect(request !== template)
        #expect(request.predicate?.predicateFormat == "title == \"Dune\" AND pages >= 10")
        #expect(request.fetchLimit == 3)
        #expect(request.entity === model.entitiesByName["Book"])
        #expect(template.predicate?.predicateFormat == "title == $TITLE AND pages >= $MIN")
        #expect(model.fetchRequestFromTemplate(withName: "Missing", substitutionVariables: [:]) == nil)

        model.setFetchRequestTemplate(NSFetchRequest(entityName: "Author"), forName: "Authors")
        let authors = try #require(model.fetchRequestFromTemplate(withName: "Authors", substitutionVariables: [:]))
        #expect(authors.entity === model.entitiesByName["Author"], "the entity is resolved by name")
    }

    @Test("Version identifiers and the localization dictionary are kept")
    func identifiersAndLocalization() {
        let model = makeModel()
        model.versionIdentifiers = ["1.2", 3]
        model.localizationDictionary = ["Entity/Book": "Livre"]
        #expect(model.versionIdentifiers == ["1.2", 3])
        #expect(model.localizationDictionary?["Entity/Book"] == "Livre")
    }

    // MARK: Merging

    @Test("Merging combines copies of the entities, configurations and templates of several models")
    func merging() throws {
        let first = makeModel()
        first.setEntities(first.entities, forConfigurationName: "Library")
        first.setFetchRequestTemplate(NSFetchRequest(entityName: "Book"), forName: "AllBooks")
        first.versionIdentifiers = ["A"]
        let second = NSManagedObjectModel()
        let shelf = ModelKit.entity("Shelf", [ModelKit.attribute("label", .stringAttributeType)])
        second.entities = [shelf]
        second.setEntities([shelf], forConfigurationName: "Library")
        second.versionIdentifiers = ["B"]
        let merged = try #require(NSManagedObjectModel(byMerging: [first, second]))
        #expect(Set(merged.entitiesByName.keys) == ["Author", "Book", "Shelf"])
        #expect(merged.entitiesByName["Shelf"] !== shelf)
        #expect(merged.entitiesByName["Shelf"]?.managedObjectModel === merged)
        #expect(shelf.managedObjectModel === second)
        #expect(merged.entities(forConfigurationName: "Library")?.count == 3)
        #expect(merged.fetchRequestTemplate(forName: "AllBooks")?.entityName == "Book")
        #expect(merged.versionIdentifiers == ["A", "B"])
        #expect(merged.entityVersionHashesByName["Book"] == first.entityVersionHashesByName["Book"])
        let books = try #require(merged.entitiesByName["Author"]?.relationshipsByName["books"])
        #expect(books.destinationEntity === merged.entitiesByName["Book"])
        #expect(NSManagedObjectModel(byMerging: [first, second])?.entities.count == 3)
    }

    @Test("Relationships between merged models connect to the merged entities")
    func mergingAcrossModels() throws {
        let people = NSManagedObjectModel()
        let person = ModelKit.entity("Person")
        people.entities = [person]
        let pets = NSManagedObjectModel()
        let pet = ModelKit.entity("Pet", [ModelKit.relationship("owner", to: person)])
        pets.entities = [pet]
        let merged = try #require(NSManagedObjectModel(byMerging: [people, pets]))
        let owner = try #require(merged.entitiesByName["Pet"]?.relationshipsByName["owner"])
        #expect(owner.destinationEntity === merged.entitiesByName["Person"])
    }

    @Test("Merging models that share an entity name fails")
    func mergingConflict() {
        #expect(NSManagedObjectModel(byMerging: [makeModel(), makeModel()]) == nil)
        #expect(NSManagedObjectModel(byMerging: nil)?.entities.isEmpty == true)
    }

    // MARK: Store metadata

    @Test("A configuration is compatible with metadata holding its entities' version hashes")
    func compatibility() throws {
        let model = makeModel()
        let metadata: [String: Any] = [
            NSStoreModelVersionHashesKey: model.entityVersionHashesByName,
            NSStoreTypeKey: "SQLite",
        ]
        #expect(model.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata))

        var changed = model.entityVersionHashesByName
        changed["Book"] = Data(repeating: 0, count: 32)
        #expect(!model.isConfiguration(withName: nil, compatibleWithStoreMetadata: [NSStoreModelVersionHashesKey: changed]))

        var extra = model.entityVersionHashesByName
        extra["Shelf"] = Data(repeating: 1, count: 32)
        #expect(!model.isConfiguration(withName: nil, compatibleWithStoreMetadata: [NSStoreModelVersionHashesKey: extra]))
        #expect(!model.isConfiguration(withName: nil, compatibleWithStoreMetadata: [:]))

        let book = try #require(model.entitiesByName["Book"])
        model.setEntities([book], forConfigurationName: "Books")
        #expect(model.isConfiguration(withName: "Books", compatibleWithStoreMetadata: metadata))
        #expect(!model.isConfiguration(withName: "Missing", compatibleWithStoreMetadata: metadata))
    }

    @Test("Metadata read back as NSDictionary of NSData is understood")
    func compatibilityWithBridgedValues() {
        let model = makeModel()
        let hashes = NSMutableDictionary()
        for (name, hash) in model.entityVersionHashesByName {
            hashes[NSString(string: name)] = NSData(data: hash)
        }
        #expect(model.isConfiguration(withName: nil, compatibleWithStoreMetadata: [NSStoreModelVersionHashesKey: hashes]))
    }

    @Test("The merged model for store metadata exists only when the hashes match")
    func mergingForMetadata() {
        let model = makeModel()
        let metadata: [String: Any] = [NSStoreModelVersionHashesKey: model.entityVersionHashesByName]
        #expect(NSManagedObjectModel(byMerging: [model], forStoreMetadata: metadata) != nil)
        #expect(NSManagedObjectModel(byMerging: [model], forStoreMetadata: [NSStoreModelVersionHashesKey: [String: Data]()]) == nil)
    }

    // MARK: Use by a coordinator

    @Test("A model in use is immutable, keeps its hashes and can be marked again")
    func markInUse() throws {
        let model = makeModel()
        let template = NSFetchRequest<NSFetchRequestResult>(entityName: "Book")
        template.predicate = NSPredicate(format: "pages > $MIN")
        model.setFetchRequestTemplate(template, forName: "Long")
        let hashes = model.entityVersionHashesByName
        let checksum = model.versionChecksum
        let propertyNames = model.entities.map { $0.propertiesByName.keys.sorted() }
        #expect(!template._isImmutableTemplate)
        try model._markInUse()
        #expect(model.entities.map { $0.propertiesByName.keys.sorted() } == propertyNames)
        #expect(model.entitiesByName["Author"]?.relationshipsByName["books"]?.destinationEntity === model.entitiesByName["Book"])
        #expect(model.entitiesByName["Book"]?.attributesByName.keys.sorted() == ["pages", "title"])
        #expect(!model._isEditable)
        #expect(template._isImmutableTemplate)
        let request = try #require(model.fetchRequestFromTemplate(withName: "Long", substitutionVariables: ["MIN": 300]))
        #expect(!request._isImmutableTemplate)
        #expect(request.predicate?.predicateFormat == "pages > 300")
        request.fetchLimit = 1
        #expect(request.fetchLimit == 1)
        #expect(model.entityVersionHashesByName == hashes)
        #expect(model.versionChecksum == checksum)
        try model._markInUse()
        #expect(!model._isEditable)
        let copy = try #require(model.copy() as? NSManagedObjectModel)
        #expect(copy._isEditable, "a copy of a model in use is editable")
    }

    @Test("An inconsistent model is not marked in use")
    func inconsistentModelStaysEditable() {
        let model = NSManagedObjectModel()
        model.entities = [ModelKit.entity("Pet", [ModelKit.relationship("owner", to: nil)])]
        #expect(throws: NSError.self) { try model._markInUse() }
        #expect(model._isEditable)
    }

    @Test("Models can be shared across tasks")
    func sendable() async throws {
        let model = makeModel()
        try model._markInUse()
        let counts = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<4 {
                group.addTask { model.entitiesByName.count }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(counts == [2, 2, 2, 2])
    }
}
