import Testing
import OpenCoreData

/// Writer(name, postCount = posts.@count, searchName = lowercase:(name), touched = now()) ->> Article(title).
enum DerivedModel {
    static func derived(_ name: String, _ type: NSAttributeType, _ expression: NSExpression) -> NSDerivedAttributeDescription {
        let attribute = NSDerivedAttributeDescription()
        attribute.name = name
        attribute.attributeType = type
        attribute.derivationExpression = expression
        return attribute
    }

    static func make() -> NSManagedObjectModel {
        let writer = ModelKit.entity("Writer")
        let article = ModelKit.entity("Article")
        writer.managedObjectClassName = "NSManagedObject"
        article.managedObjectClassName = "NSManagedObject"
        let articles = ModelKit.relationship("articles", to: article, toMany: true)
        let by = ModelKit.relationship("writer", to: writer)
        ModelKit.pair(articles, by)
        writer.properties = [
            ModelKit.attribute("name", .stringAttributeType),
            derived("articleCount", .integer64AttributeType, NSExpression(format: "articles.@count")),
            derived("searchName", .stringAttributeType, NSExpression(format: "lowercase:(name)")),
            derived("touched", .dateAttributeType, NSExpression(format: "now()")),
            articles,
        ]
        article.properties = [ModelKit.attribute("title", .stringAttributeType), by]
        let model = NSManagedObjectModel()
        model.entities = [writer, article]
        return model
    }
}

@Suite("Derived attributes: recomputed from their expression at every save")
struct DerivedAttributeTests {
    @Test("derived values are computed at save and stored", arguments: TestStoreKind.allCases)
    func computedAtSave(_ kind: TestStoreKind) throws {
        let stack = try GraphStack(kind, model: DerivedModel.make())
        let context = stack.context()
        let writer = context.make("Writer", ["name": "Lu XUN"])
        writer.setValue(NSSet(array: [context.make("Article", ["title": "A"]), context.make("Article", ["title": "B"])]),
                        forKey: "articles")
        #expect(writer.value(forKey: "articleCount") == nil, "not computed before the save")
        try context.save()
        #expect((writer.value(forKey: "articleCount") as? NSNumber)?.intValue == 2)
        #expect(writer.value(forKey: "searchName") as? String == "lu xun")
        let firstTouch = try #require(writer.value(forKey: "touched") as? Date)

        let reader = stack.context()
        let stored = try #require(try reader.all("Writer").first)
        #expect((stored.value(forKey: "articleCount") as? NSNumber)?.intValue == 2)
        #expect(stored.value(forKey: "searchName") as? String == "lu xun")
        #expect(stored.value(forKey: "touched") as? Date == firstTouch)
    }

    @Test("a later save recomputes the values from the changed object", arguments: TestStoreKind.allCases)
    func recomputed(_ kind: TestStoreKind) throws {
        let stack = try GraphStack(kind, model: DerivedModel.make())
        let context = stack.context()
        let writer = context.make("Writer", ["name": "Ada"])
        try context.save()
        #expect((writer.value(forKey: "articleCount") as? NSNumber)?.intValue == 0)
        writer.setValue("GRACE", forKey: "name")
        writer.setValue(NSSet(array: [context.make("Article", ["title": "C"])]), forKey: "articles")
        try context.save()
        let reader = stack.context()
        let stored = try #require(try reader.all("Writer").first)
        #expect(stored.value(forKey: "searchName") as? String == "grace")
        #expect((stored.value(forKey: "articleCount") as? NSNumber)?.intValue == 1)
        let found = try stack.context().all("Writer", predicate: NSPredicate(format: "articleCount == 1 AND searchName == 'grace'"))
        #expect(found.count == 1)
    }

    @Test("a derived attribute is read-only in the model and is not validated")
    func readOnly() throws {
        let attribute = DerivedModel.derived("x", .stringAttributeType, NSExpression(format: "lowercase:(name)"))
        attribute.isOptional = false
        #expect(attribute.isReadOnly)
        let stack = try GraphStack(model: DerivedModel.make())
        let context = stack.context()
        let writer = context.make("Writer", ["name": "N"])
        try writer.validateForInsert()
    }
}
