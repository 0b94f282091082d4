import OpenCoreData
import Testing

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
        writer.setValue(
            NSSet(array: [context.make("Article", ["title": "A"]), context.make("Article", ["title": "B"])]),
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

    /// Writer(name, totalViews = articles.@sum.views) ->> Article(title, views, writerName = writer.name,
    /// shout = uppercase:(writer.name)); Note(text, writerName = about.name) -> Writer with no inverse.
    static func relatedModel() -> NSManagedObjectModel {
        let writer = ModelKit.entity("Writer")
        let article = ModelKit.entity("Article")
        let note = ModelKit.entity("Note")
        for entity in [writer, article, note] { entity.managedObjectClassName = "NSManagedObject" }
        let articles = ModelKit.relationship("articles", to: article, toMany: true)
        let by = ModelKit.relationship("writer", to: writer)
        ModelKit.pair(articles, by)
        writer.properties = [
            ModelKit.attribute("name", .stringAttributeType),
            DerivedModel.derived("totalViews", .integer64AttributeType, NSExpression(format: "articles.@sum.views")),
            articles,
        ]
        article.properties = [
            ModelKit.attribute("title", .stringAttributeType),
            ModelKit.attribute("views", .integer64AttributeType),
            DerivedModel.derived("writerName", .stringAttributeType, NSExpression(format: "writer.name")),
            DerivedModel.derived("shout", .stringAttributeType, NSExpression(format: "uppercase:(writer.name)")),
            by,
        ]
        note.properties = [
            ModelKit.attribute("text", .stringAttributeType),
            DerivedModel.derived("writerName", .stringAttributeType, NSExpression(format: "about.name")),
            ModelKit.relationship("about", to: writer),
        ]
        let model = NSManagedObjectModel()
        model.entities = [writer, article, note]
        return model
    }

    @Test(
        "changing a value a related object's derived attribute reads recomputes that object at save",
        arguments: TestStoreKind.allCases)
    func recomputedFromRelatedChange(_ kind: TestStoreKind) throws {
        let stack = try GraphStack(kind, model: Self.relatedModel())
        let context = stack.context()
        let writer = context.make("Writer", ["name": "Ada"])
        let first = context.make("Article", ["title": "A", "views": Int64(3), "writer": writer])
        context.make("Article", ["title": "B", "views": Int64(4), "writer": writer])
        let note = context.make("Note", ["text": "n", "about": writer])
        try context.save()
        #expect(first.value(forKey: "writerName") as? String == "Ada")
        #expect((writer.value(forKey: "totalViews") as? NSNumber)?.intValue == 7)

        // Only the writer changes; its articles and the note (no inverse) read its name.
        let editor = stack.context()
        let ada = try #require(try editor.all("Writer").first)
        ada.setValue("Grace", forKey: "name")
        try editor.save()
        let reader = stack.context()
        let names = try reader.all("Article", sortedBy: "title").compactMap { $0.value(forKey: "writerName") as? String }
        #expect(names == ["Grace", "Grace"])
        let shouts = try reader.all("Article", sortedBy: "title").compactMap { $0.value(forKey: "shout") as? String }
        #expect(shouts == ["GRACE", "GRACE"])
        #expect(try reader.all("Note").first?.value(forKey: "writerName") as? String == "Grace")
        _ = note

        // Only an article changes; the writer's sum reads its views.
        let article = try #require(try editor.all("Article", predicate: NSPredicate(format: "title == 'A'")).first)
        article.setValue(Int64(10), forKey: "views")
        try editor.save()
        let again = stack.context()
        #expect((try again.all("Writer").first?.value(forKey: "totalViews") as? NSNumber)?.intValue == 14)
    }
}
