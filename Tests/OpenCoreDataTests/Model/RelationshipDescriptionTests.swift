import OpenCoreData
import Testing

@Suite("Relationship descriptions")
struct RelationshipDescriptionTests {
    @Test("A new relationship is optional, to-one, unordered and nullifies on delete")
    func defaults() {
        let relationship = NSRelationshipDescription()
        #expect(relationship.isOptional)
        #expect(relationship.minCount == 0)
        #expect(relationship.maxCount == 1)
        #expect(!relationship.isToMany)
        #expect(!relationship.isOrdered)
        #expect(relationship.deleteRule == .nullifyDeleteRule)
        #expect(relationship.destinationEntity == nil)
        #expect(relationship.inverseRelationship == nil)
    }

    @Test("Delete rules have Core Data's raw values")
    func deleteRuleValues() {
        #expect(NSDeleteRule.noActionDeleteRule.rawValue == 0)
        #expect(NSDeleteRule.nullifyDeleteRule.rawValue == 1)
        #expect(NSDeleteRule.cascadeDeleteRule.rawValue == 2)
        #expect(NSDeleteRule.denyDeleteRule.rawValue == 3)
    }

    @Test("maxCount 0 means unbounded to-many; any maxCount other than 1 is to-many")
    func cardinality() {
        let relationship = NSRelationshipDescription()
        relationship.maxCount = 0
        #expect(relationship.isToMany)
        relationship.maxCount = 5
        #expect(relationship.isToMany)
        relationship.maxCount = 1
        #expect(!relationship.isToMany)
    }

    @Test("Destination and inverse connect two entities")
    func inverse() {
        let author = ModelKit.entity("Author")
        let book = ModelKit.entity("Book")
        let books = ModelKit.relationship("books", to: book, toMany: true)
        let writer = ModelKit.relationship("author", to: author)
        author.properties = [books]
        book.properties = [writer]
        ModelKit.pair(books, writer)
        books.deleteRule = .cascadeDeleteRule
        books.isOrdered = true
        #expect(books.destinationEntity === book)
        #expect(books.inverseRelationship === writer)
        #expect(writer.inverseRelationship?.entity === author)
        #expect(books.deleteRule == .cascadeDeleteRule)
        #expect(books.isOrdered)
        let model = NSManagedObjectModel()
        model.entities = [author, book]
        #expect(author.relationships(forDestination: book) == [books])
    }

    @Test("Copies keep counts, rule, ordering, destination and inverse")
    func copying() throws {
        let tag = ModelKit.entity("Tag")
        let relationship = ModelKit.relationship("tags", to: tag, toMany: true, optional: false)
        relationship.minCount = 1
        relationship.maxCount = 10
        relationship.deleteRule = .denyDeleteRule
        relationship.isOrdered = true
        let copy = try #require(relationship.copy() as? NSRelationshipDescription)
        #expect(copy !== relationship)
        #expect(copy.name == "tags")
        #expect(!copy.isOptional)
        #expect(copy.minCount == 1)
        #expect(copy.maxCount == 10)
        #expect(copy.deleteRule == .denyDeleteRule)
        #expect(copy.isOrdered)
        #expect(copy.destinationEntity === tag)
        #expect(copy.versionHash == relationship.versionHash)
    }

    @Test("Fetched properties hold their fetch request and are read-only")
    func fetchedProperty() {
        let fetched = NSFetchedPropertyDescription()
        fetched.name = "recentNotes"
        let request = NSFetchRequest<NSFetchRequestResult>(entityName: "Note")
        request.predicate = NSPredicate(format: "created > $FETCH_SOURCE.lastVisit")
        fetched.fetchRequest = request
        #expect(fetched.isReadOnly)
        #expect(fetched.fetchRequest?.entityName == "Note")
    }
}
