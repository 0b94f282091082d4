import OpenCoreData
import Testing

/// Version hashes of derived attributes and the property facts pinned by Apple-written stores
/// (VERSION-HASH.md, "Derived attributes"): a derived attribute's slot is SHA-256 of its derivation
/// expression's format text and nothing else; validation rules, renaming identifiers and default values
/// stay out of the hash; a nil inverse adds no bytes.
@Suite("Derived attribute version hashes")
struct DerivedAttributeVersionHashTests {
    /// The Book model of the Apple-written stores: Author ⟷ Book ⟷ Page, GraphicNovel a sub-entity of Book.
    /// `cover` names the transformable (`frontCover` in the later model version); `inverses` gives
    /// Book.pages and Page.book their inverses (the framework-1044 store has none).
    static func bookModel(
        cover: String = "frontCover", inverses: Bool = true,
        decorated: Bool = true
    ) -> NSManagedObjectModel {
        let author = ModelKit.entity("Author", [ModelKit.attribute("name", .stringAttributeType)])
        let page = ModelKit.entity("Page", [ModelKit.attribute("number", .integer64AttributeType, optional: false)])
        let book = ModelKit.entity("Book")
        let novel = ModelKit.entity("GraphicNovel", [ModelKit.attribute("isBlackAndWhite", .booleanAttributeType, optional: false)])
        book.subentities = [novel]

        let bookAuthor = ModelKit.relationship("author", to: author, optional: false)
        bookAuthor.minCount = 1
        let books = ModelKit.relationship("books", to: book, toMany: true)
        ModelKit.pair(bookAuthor, books)
        let pages = ModelKit.relationship("pages", to: page, toMany: true, optional: false)
        pages.minCount = 1
        pages.maxCount = 10000
        pages.deleteRule = .cascadeDeleteRule
        let pageBook = ModelKit.relationship("book", to: book)
        if inverses { ModelKit.pair(pages, pageBook) }

        let frontCover = ModelKit.attribute(cover, .transformableAttributeType, optional: false)
        let title = ModelKit.attribute("title", .stringAttributeType, optional: false)
        if decorated {
            frontCover.renamingIdentifier = "cover"
            frontCover.defaultValue = NSArray(array: ["placeholder"])
            title.setValidationPredicates(
                [NSPredicate(format: "length > 0"), NSPredicate(format: "length < 200")],
                withValidationWarnings: ["too short", "too long"])
        }
        let pagesCount = NSDerivedAttributeDescription()
        pagesCount.name = "pagesCount"
        pagesCount.attributeType = .integer64AttributeType
        pagesCount.isOptional = true
        pagesCount.derivationExpression = NSExpression(format: "pages.@count")

        book.properties = [
            bookAuthor, frontCover, pages, pagesCount,
            ModelKit.attribute("price", .decimalAttributeType, optional: false),
            ModelKit.attribute("publishedAt", .dateAttributeType, optional: false),
            title,
            ModelKit.attribute("uniqueID", .UUIDAttributeType, optional: false),
        ]
        book.uniquenessConstraints = [["uniqueID"]]
        author.properties += [books]
        page.properties += [pageBook]
        let model = NSManagedObjectModel()
        model.entities = [author, book, novel, page]
        return model
    }

    static func base64(_ model: NSManagedObjectModel, _ entity: String, _ property: String) -> String? {
        model.entitiesByName[entity]?.propertiesByName[property]?.versionHash.base64EncodedString()
    }

    @Test("a derivation written pages.@count is the function expression count:(pages)")
    func countForm() throws {
        let derived = NSDerivedAttributeDescription()
        derived.derivationExpression = NSExpression(format: "pages.@count")
        let expression = try #require(derived.derivationExpression)
        #expect(expression.expressionType == .function)
        #expect(expression.function == "count:")
        #expect(expression.description == "count:(pages)")
        // Other expressions are kept as written.
        derived.derivationExpression = NSExpression(format: "author.name")
        #expect(derived.derivationExpression?.description == "author.name")
    }

    @Test("the derived slot is SHA-256 of the expression text alone, whatever the name, type or flags")
    func derivedSlot() {
        let model = Self.bookModel()
        #expect(Self.base64(model, "Book", "pagesCount") == "UAgVl/sdZkhCnBs39zvGv2MpnRYM1vDVVZGf0UOpKW4=")
        let other = NSDerivedAttributeDescription()
        other.name = "somethingElse"
        other.attributeType = .integer32AttributeType
        other.isOptional = false
        other.versionHashModifier = nil
        other.derivationExpression = NSExpression(format: "count:(pages)")
        #expect(other.versionHash.base64EncodedString() == "UAgVl/sdZkhCnBs39zvGv2MpnRYM1vDVVZGf0UOpKW4=")
    }

    @Test("each of Book's property slots is the one the Apple-written store implies")
    func propertySlots() {
        let model = Self.bookModel()
        let expected = [
            "author": "Jq16lroIOJiW/6ugxbROLsO9qys3geTtNfpxw4wDilw=",
            "frontCover": "J2yZX2WuRgrc51d58JzByWY2JpTlghDqWEMzW0V6HzA=",
            "pages": "iL/Z5V/bxRSAff+nKOHyAyEURTV3a2EEPQOKgZC2Uew=",
            "price": "YLM6AExkf/FbXynIUumHCXn1iyzUx6DYO8w8z8LwMRM=",
            "publishedAt": "cMUyUtsQF2WZF11DTfdL6JEemZfWcuqLEtegpxWpkWQ=",
            "title": "Sr0aCBFLRQgCdF5LENoE8q+3Hnz3stU6sZohotdcJWg=",
            "uniqueID": "MtXm3WjQEf2sZb91Da+qiTEpePmA0gI9jJIHHjCnqQs=",
        ]
        for (name, slot) in expected {
            #expect(Self.base64(model, "Book", name) == slot, "Book.\(name)")
        }
    }

    @Test(
        "Book and GraphicNovel hash as in Apple's stores (frameworks 1344 and 1044)",
        arguments: [
            (
                "frontCover", true, "33ac3733a780db28955479ba9f9989cd9acd0ee1dade9b545e4b746751730100",
                "7073b5a03ae1be6509a5e88664a1a68805503b112176c4cceee9f30fdcdb72cc"
            ),
            ("cover", true, "01e4ee17f1b2903db05607419b4a713d72df80c90b4510b83a60b9135323f5e7", nil),
            ("cover", false, "52c037264a8ab276d07b8becb9ca0bee8d688e192023ed9177b9a19c3e8d19a9", nil),
        ] as [(String, Bool, String, String?)])
    func entityHashes(_ cover: String, _ inverses: Bool, _ book: String, _ novel: String?) {
        let hashes = Self.bookModel(cover: cover, inverses: inverses).entityVersionHashesByName
        #expect(hashes["Book"].map(ModelKit.hex) == book)
        if let novel { #expect(hashes["GraphicNovel"].map(ModelKit.hex) == novel) }
    }

    @Test("GraphicNovel's base64 hash is Apple's")
    func graphicNovelBase64() {
        let hashes = Self.bookModel().entityVersionHashesByName
        #expect(hashes["Book"]?.base64EncodedString() == "M6w3M6eA2yiVVHm6n5mJzZrNDuHa3ptUXkt0Z1FzAQA=")
        #expect(hashes["GraphicNovel"]?.base64EncodedString() == "cHO1oDrhvmUJpeiGZKGmiAVQOxEhdsTM7unzD9zbcsw=")
    }

    @Test("validation predicates, a renaming identifier and a custom default value stay out of the hash")
    func decorationsStayOut() {
        let plain = Self.bookModel(decorated: false)
        let decorated = Self.bookModel(decorated: true)
        #expect(Self.base64(plain, "Book", "title") == Self.base64(decorated, "Book", "title"))
        #expect(Self.base64(plain, "Book", "frontCover") == Self.base64(decorated, "Book", "frontCover"))
        #expect(plain.entityVersionHashesByName == decorated.entityVersionHashesByName)
    }

    @Test("a nil inverse adds no bytes to a relationship's hash")
    func nilInverse() {
        let withInverse = Self.bookModel(cover: "cover", inverses: true)
        let without = Self.bookModel(cover: "cover", inverses: false)
        #expect(Self.base64(withInverse, "Book", "pages") != Self.base64(without, "Book", "pages"))
        let relationship = NSRelationshipDescription()
        relationship.name = "pages"
        relationship.destinationEntity = without.entitiesByName["Page"]
        relationship.maxCount = 10000
        relationship.minCount = 1
        relationship.isOptional = false
        #expect(relationship.versionHash == without.entitiesByName["Book"]?.relationshipsByName["pages"]?.versionHash)
    }

    @Test("a model file's derived pages.@count hashes as count:(pages)")
    func modelFile() throws {
        let model = try ModelFileKit.load(
            """
            <entity name="Book">
                <attribute name="pagesCount" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="pages.@count" usesScalarValueType="YES"/>
                <relationship name="pages" optional="YES" toMany="YES" destinationEntity="Page"/>
            </entity>
            <entity name="Page"/>
            """)
        #expect(Self.base64(model, "Book", "pagesCount") == "UAgVl/sdZkhCnBs39zvGv2MpnRYM1vDVVZGf0UOpKW4=")
    }
}
