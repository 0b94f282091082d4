import OpenCoreData
import Testing

/// Core Data users' model code, written as Apple's documentation and the project's seed articles write
/// it, compiled and run against OpenCoreData. Each test pins one behavior such code relies on.
@Suite("Model API conformance")
struct ModelAPIConformanceTests {
    /// The first seed's User/Post model, in Swift.
    func makeBlogModel() -> NSManagedObjectModel {
        let model = NSManagedObjectModel()

        let userEntity = NSEntityDescription()
        userEntity.name = "User"
        userEntity.managedObjectClassName = "User"

        let nameAttribute = NSAttributeDescription()
        nameAttribute.name = "name"
        nameAttribute.attributeType = .stringAttributeType
        nameAttribute.isOptional = false

        let ageAttribute = NSAttributeDescription()
        ageAttribute.name = "age"
        ageAttribute.attributeType = .integer32AttributeType
        ageAttribute.isOptional = true
        ageAttribute.defaultValue = 0

        let emailAttribute = NSAttributeDescription()
        emailAttribute.name = "email"
        emailAttribute.attributeType = .stringAttributeType
        emailAttribute.isOptional = true

        let createdAtAttribute = NSAttributeDescription()
        createdAtAttribute.name = "createdAt"
        createdAtAttribute.attributeType = .dateAttributeType
        createdAtAttribute.isOptional = false
        createdAtAttribute.defaultValue = Date()

        userEntity.properties = [nameAttribute, ageAttribute, emailAttribute, createdAtAttribute]

        let postEntity = NSEntityDescription()
        postEntity.name = "Post"
        postEntity.managedObjectClassName = "Post"

        let titleAttribute = NSAttributeDescription()
        titleAttribute.name = "title"
        titleAttribute.attributeType = .stringAttributeType
        titleAttribute.isOptional = false

        let contentAttribute = NSAttributeDescription()
        contentAttribute.name = "content"
        contentAttribute.attributeType = .stringAttributeType
        contentAttribute.isOptional = true

        let publishedAtAttribute = NSAttributeDescription()
        publishedAtAttribute.name = "publishedAt"
        publishedAtAttribute.attributeType = .dateAttributeType
        publishedAtAttribute.isOptional = true

        postEntity.properties = [titleAttribute, contentAttribute, publishedAtAttribute]

        let userPostsRelationship = NSRelationshipDescription()
        userPostsRelationship.name = "posts"
        userPostsRelationship.destinationEntity = postEntity
        userPostsRelationship.minCount = 0
        userPostsRelationship.maxCount = 0
        userPostsRelationship.deleteRule = .cascadeDeleteRule

        let postAuthorRelationship = NSRelationshipDescription()
        postAuthorRelationship.name = "author"
        postAuthorRelationship.destinationEntity = userEntity
        postAuthorRelationship.minCount = 1
        postAuthorRelationship.maxCount = 1
        postAuthorRelationship.deleteRule = .nullifyDeleteRule

        userPostsRelationship.inverseRelationship = postAuthorRelationship
        postAuthorRelationship.inverseRelationship = userPostsRelationship

        userEntity.properties = userEntity.properties + [userPostsRelationship]
        postEntity.properties.append(postAuthorRelationship)

        model.entities = [userEntity, postEntity]
        return model
    }

    @Test("the seed's User/Post model built in code answers lookups by name")
    func seedModelLookups() throws {
        let model = makeBlogModel()
        #expect(model.entities.map(\.name) == ["User", "Post"])
        let user = try #require(model.entitiesByName["User"])
        #expect(user.managedObjectClassName == "User")
        #expect(user.attributesByName.keys.sorted() == ["age", "createdAt", "email", "name"])
        #expect(user.relationshipsByName.keys.sorted() == ["posts"])
        #expect(user.propertiesByName.count == 5)
        #expect(user.properties.last?.entity === user)
    }

    @Test("maxCount 0 makes a to-many relationship and inverses point at each other")
    func seedRelationships() throws {
        let model = makeBlogModel()
        let posts = try #require(model.entitiesByName["User"]?.relationshipsByName["posts"])
        let author = try #require(model.entitiesByName["Post"]?.relationshipsByName["author"])
        #expect(posts.isToMany)
        #expect(!author.isToMany)
        #expect(posts.inverseRelationship === author)
        #expect(author.inverseRelationship === posts)
        #expect(posts.deleteRule == .cascadeDeleteRule)
        #expect(author.deleteRule == .nullifyDeleteRule)
        #expect(posts.destinationEntity?.name == "Post")
    }

    @Test("default values keep their Swift types")
    func defaultValueTypes() throws {
        let user = try #require(makeBlogModel().entitiesByName["User"])
        #expect(user.attributesByName["age"]?.defaultValue as? Int == 0)
        #expect(user.attributesByName["createdAt"]?.defaultValue is Date)
        #expect(user.attributesByName["email"]?.defaultValue == nil)
        #expect(user.attributesByName["createdAt"]?.attributeValueClassName == "NSDate")
        #expect(user.attributesByName["age"]?.attributeValueClassName == "NSNumber")
    }

    @Test("a new property is optional and persistent; a new relationship is to-one with nullify")
    func propertyDefaults() {
        let attribute = NSAttributeDescription()
        #expect(attribute.isOptional)
        #expect(!attribute.isTransient)
        #expect(attribute.attributeType == .undefinedAttributeType)
        #expect(!attribute.allowsExternalBinaryDataStorage)
        #expect(!attribute.preservesValueInHistoryOnDeletion)
        let relationship = NSRelationshipDescription()
        #expect(relationship.maxCount == 1)
        #expect(relationship.minCount == 0)
        #expect(!relationship.isToMany)
        #expect(!relationship.isOrdered)
        #expect(relationship.deleteRule == .nullifyDeleteRule)
    }

    @Test(
        "the Swift attribute type and NSAttributeType are two views of one value",
        arguments: [
            (NSAttributeDescription.AttributeType.undefined, NSAttributeType.undefinedAttributeType),
            (.integer16, .integer16AttributeType), (.integer32, .integer32AttributeType),
            (.integer64, .integer64AttributeType), (.decimal, .decimalAttributeType),
            (.double, .doubleAttributeType), (.float, .floatAttributeType), (.string, .stringAttributeType),
            (.boolean, .booleanAttributeType), (.date, .dateAttributeType), (.binaryData, .binaryDataAttributeType),
            (.uuid, .UUIDAttributeType), (.uri, .URIAttributeType), (.transformable, .transformableAttributeType),
            (.objectID, .objectIDAttributeType), (.composite, .compositeAttributeType),
        ])
    func attributeTypeStruct(type: NSAttributeDescription.AttributeType, legacy: NSAttributeType) {
        let attribute = NSAttributeDescription()
        attribute.type = type
        #expect(attribute.attributeType == legacy)
        let other = NSAttributeDescription()
        other.attributeType = legacy
        #expect(other.type == type)
        #expect(NSAttributeDescription.AttributeType(rawValue: legacy) == type)
        #expect(type.rawValue == legacy)
    }

    @Test("NSAttributeType raw values are Core Data's")
    func attributeTypeRawValues() {
        #expect(NSAttributeType.integer16AttributeType.rawValue == 100)
        #expect(NSAttributeType.stringAttributeType.rawValue == 700)
        #expect(NSAttributeType.transformableAttributeType.rawValue == 1800)
        #expect(NSAttributeType.objectIDAttributeType.rawValue == 2000)
        #expect(NSAttributeType.compositeAttributeType.rawValue == 2100)
        #expect(NSAttributeType(rawValue: 1100) == .UUIDAttributeType)
    }

    @Test("a composite attribute in code, as Apple's documentation builds it")
    func compositeAttributeInCode() throws {
        let richter = NSAttributeDescription()
        richter.name = "richter"
        richter.type = .double
        let mercalli = NSAttributeDescription()
        mercalli.name = "mercalli"
        mercalli.type = .double

        let magnitude = NSCompositeAttributeDescription()
        magnitude.name = "magnitude"
        magnitude.elements = [richter, mercalli]

        let quake = NSEntityDescription()
        quake.name = "Quake"
        quake.properties = [magnitude]
        let model = NSManagedObjectModel()
        model.entities = [quake]

        let found = try #require(model.entitiesByName["Quake"]?.attributesByName["magnitude"] as? NSCompositeAttributeDescription)
        #expect(found.attributeType == .compositeAttributeType)
        #expect(found.type == .composite)
        #expect(found.elements.map(\.name) == ["richter", "mercalli"])
        #expect(found.versionHash.count == 32)
    }

    @Test("versionChecksum is a base64 string that follows the model's structure")
    func versionChecksum() throws {
        let first = makeBlogModel().versionChecksum
        #expect(first == makeBlogModel().versionChecksum)
        #expect(Data(base64Encoded: first) != nil)
        let changed = makeBlogModel()
        let extra = NSAttributeDescription()
        extra.name = "bio"
        extra.attributeType = .stringAttributeType
        try #require(changed.entitiesByName["User"]).properties.append(extra)
        #expect(changed.versionChecksum != first)
    }

    @Test("entityVersionHashesByName holds a 32-byte hash per entity")
    func entityVersionHashes() {
        let hashes = makeBlogModel().entityVersionHashesByName
        #expect(hashes.keys.sorted() == ["Post", "User"])
        #expect(hashes.values.allSatisfy { $0.count == 32 })
    }

    @Test("versionHashModifier changes a hash; renamingIdentifier, userInfo and defaults do not")
    func hashInputs() throws {
        let model = makeBlogModel()
        let email = try #require(model.entitiesByName["User"]?.attributesByName["email"])
        let before = email.versionHash
        email.renamingIdentifier = "mail"
        email.userInfo = ["note": "kept out of the hash"]
        email.defaultValue = "nobody@example.com"
        #expect(email.versionHash == before)
        email.versionHashModifier = "v2"
        #expect(email.versionHash != before)
    }

    @Test("entity(forEntityName:in:) finds an entity of a model")
    func entityForName() {
        let model = makeBlogModel()
        #expect(NSEntityDescription.entity(forEntityName: "Post", in: model)?.name == "Post")
        #expect(NSEntityDescription.entity(forEntityName: "Comment", in: model) == nil)
    }

    @Test("subentities inherit their superentity's properties and are kinds of it")
    func inheritance() throws {
        let model = makeBlogModel()
        let post = try #require(model.entitiesByName["Post"])
        let article = NSEntityDescription()
        article.name = "Article"
        let words = NSAttributeDescription()
        words.name = "wordCount"
        words.attributeType = .integer64AttributeType
        article.properties = [words]
        post.subentities = [article]
        model.entities.append(article)
        #expect(article.superentity === post)
        #expect(article.isKindOf(entity: post))
        #expect(!post.isKindOf(entity: article))
        #expect(article.attributesByName.keys.sorted() == ["content", "publishedAt", "title", "wordCount"])
        #expect(article.relationshipsByName["author"] != nil)
        #expect(article.properties.count == 1)
        #expect(post.subentitiesByName["Article"] === article)
    }

    @Test("relationships(forDestination:) lists the relationships that lead to an entity")
    func relationshipsForDestination() throws {
        let model = makeBlogModel()
        let user = try #require(model.entitiesByName["User"])
        let post = try #require(model.entitiesByName["Post"])
        #expect(user.relationships(forDestination: post).map(\.name) == ["posts"])
        #expect(user.relationships(forDestination: user).isEmpty)
    }

    @Test("fetch indexes and uniqueness constraints are declared as Apple's documentation shows")
    func indexesAndConstraints() throws {
        let model = makeBlogModel()
        let user = try #require(model.entitiesByName["User"])
        let email = try #require(user.attributesByName["email"])
        let element = NSFetchIndexElementDescription(property: email, collationType: .binary)
        element.isAscending = false
        let index = NSFetchIndexDescription(name: "byEmail", elements: [element])
        index.partialIndexPredicate = NSPredicate(format: "email != nil")
        user.indexes = [index]
        user.uniquenessConstraints = [["email"], ["name", "createdAt"]]
        #expect(user.indexes.first?.name == "byEmail")
        #expect(user.indexes.first?.entity === user)
        #expect(user.indexes.first?.elements.first?.property === email)
        #expect(user.indexes.first?.elements.first?.propertyName == "email")
        #expect(user.indexes.first?.elements.first?.isAscending == false)
        #expect(user.indexes.first?.partialIndexPredicate != nil)
        #expect(user.uniquenessConstraints.count == 2)
        #expect(user.uniquenessConstraints.last as? [String] == ["name", "createdAt"])
    }

    @Test("userInfo dictionaries take any hashable keys")
    func userInfo() throws {
        let model = makeBlogModel()
        let user = try #require(model.entitiesByName["User"])
        user.userInfo = ["syncKey": "id", 1: true]
        #expect(user.userInfo?["syncKey"] as? String == "id")
        #expect(user.userInfo?[1] as? Bool == true)
        let name = try #require(user.attributesByName["name"])
        name.userInfo = [AnyHashable("mapping"): "full_name"]
        #expect(name.userInfo?["mapping"] as? String == "full_name")
    }

    @Test("validation predicates are set with their warnings")
    func validationPredicates() throws {
        let name = try #require(makeBlogModel().entitiesByName["User"]?.attributesByName["name"])
        name.setValidationPredicates(
            [NSPredicate(format: "length >= 2"), NSPredicate(format: "length <= 40")],
            withValidationWarnings: ["too short", "too long"])
        #expect(name.validationPredicates.count == 2)
        #expect(name.validationWarnings.first as? String == "too short")
        name.setValidationPredicates(nil, withValidationWarnings: nil)
        #expect(name.validationPredicates.isEmpty)
    }

    @Test("configurations group entities; nil and the default name mean the whole model")
    func configurations() throws {
        let model = makeBlogModel()
        let user = try #require(model.entitiesByName["User"])
        model.setEntities([user], forConfigurationName: "Cloud")
        #expect(model.configurations == ["Cloud"])
        #expect(model.entities(forConfigurationName: "Cloud")?.map(\.name) == ["User"])
        #expect(model.entities(forConfigurationName: nil)?.count == 2)
        #expect(model.entities(forConfigurationName: "Local") == nil)
    }

    @Test("store metadata written for a model is compatible with it and not with a changed model")
    func compatibility() throws {
        let model = makeBlogModel()
        let metadata: [String: Any] = [NSStoreModelVersionHashesKey: model.entityVersionHashesByName]
        #expect(model.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata))
        let changed = makeBlogModel()
        try #require(changed.entitiesByName["Post"]?.attributesByName["content"]).isOptional = false
        #expect(!changed.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata))
    }

    @Test("fetch request templates substitute their variables")
    func templates() throws {
        let model = makeBlogModel()
        let template = NSFetchRequest<NSFetchRequestResult>(entityName: "User")
        template.predicate = NSPredicate(format: "email == $EMAIL")
        model.setFetchRequestTemplate(template, forName: "UserByEmail")
        #expect(model.fetchRequestTemplatesByName.keys.sorted() == ["UserByEmail"])
        #expect(model.fetchRequestTemplate(forName: "UserByEmail") === template)
        let request = try #require(
            model.fetchRequestFromTemplate(
                withName: "UserByEmail",
                substitutionVariables: ["EMAIL": "a@example.com"]))
        #expect(request.predicate?.predicateFormat == #"email == "a@example.com""#)
        #expect(request.entity === model.entitiesByName["User"])
        #expect(template.predicate?.predicateFormat == "email == $EMAIL")
        #expect(model.fetchRequestFromTemplate(withName: "Missing", substitutionVariables: [:]) == nil)
    }

    @Test("a fetched property carries its fetch request and is read-only")
    func fetchedProperty() throws {
        let model = makeBlogModel()
        let user = try #require(model.entitiesByName["User"])
        let recent = NSFetchedPropertyDescription()
        recent.name = "recentPosts"
        let request = NSFetchRequest<NSFetchRequestResult>(entityName: "Post")
        request.predicate = NSPredicate(format: "author == $FETCH_SOURCE")
        recent.fetchRequest = request
        user.properties.append(recent)
        #expect(user.propertiesByName["recentPosts"] is NSFetchedPropertyDescription)
        #expect(recent.isReadOnly)
        #expect(recent.fetchRequest?.entityName == "Post")
        #expect(user.attributesByName["recentPosts"] == nil)
        #expect(user.relationshipsByName["recentPosts"] == nil)
    }

    @Test("a derived attribute holds its derivation expression and is read-only")
    func derivedAttribute() throws {
        let model = makeBlogModel()
        let user = try #require(model.entitiesByName["User"])
        let postCount = NSDerivedAttributeDescription()
        postCount.name = "postCount"
        postCount.attributeType = .integer64AttributeType
        postCount.derivationExpression = NSExpression(format: "posts.@count")
        user.properties.append(postCount)
        let found = try #require(user.attributesByName["postCount"] as? NSDerivedAttributeDescription)
        #expect(found.isReadOnly)
        #expect(found.derivationExpression?.description == "count:(posts)")
    }

    @Test("an expression description names a computed value for dictionary fetches")
    func expressionDescription() {
        let description = NSExpressionDescription()
        description.name = "latest"
        description.expression = NSExpression(forFunction: "max:", arguments: [NSExpression(forKeyPath: "publishedAt")])
        description.expressionResultType = .dateAttributeType
        #expect(description.name == "latest")
        #expect(description.expressionResultType == .dateAttributeType)
        #expect(description.isReadOnly)
    }

    @Test("attribute flags Apple still documents are settable")
    func attributeFlags() throws {
        let photo = NSAttributeDescription()
        photo.name = "photo"
        photo.attributeType = .binaryDataAttributeType
        photo.allowsExternalBinaryDataStorage = true
        photo.preservesValueInHistoryOnDeletion = true
        photo.isIndexedBySpotlight = true
        photo.allowsCloudEncryption = true
        photo.isTransient = true
        #expect(photo.allowsExternalBinaryDataStorage)
        #expect(photo.preservesValueInHistoryOnDeletion)
        #expect(photo.isIndexedBySpotlight)
        #expect(photo.allowsCloudEncryption)
        #expect(photo.isTransient)
        let colors = NSAttributeDescription()
        colors.attributeType = .transformableAttributeType
        colors.valueTransformerName = "NSSecureUnarchiveFromData"
        colors.attributeValueClassName = "NSArray"
        #expect(colors.valueTransformerName == "NSSecureUnarchiveFromData")
        #expect(colors.attributeValueClassName == "NSArray")
    }

    @Test("version identifiers and the localization dictionary are kept by the model")
    func versionIdentifiersAndLocalization() {
        let model = makeBlogModel()
        model.versionIdentifiers = ["2.1"]
        model.localizationDictionary = ["Entity/User": "Utilisateur", "Property/name/Entity/User": "Nom"]
        #expect(model.versionIdentifiers.contains("2.1"))
        #expect(model.localizationDictionary?["Entity/User"] == "Utilisateur")
    }

    @Test("a copied model is editable and independent of the original")
    func copying() throws {
        let model = makeBlogModel()
        let copy = try #require(model.copy() as? NSManagedObjectModel)
        #expect(copy.entities.count == 2)
        #expect(copy.entitiesByName["User"] !== model.entitiesByName["User"])
        let posts = try #require(copy.entitiesByName["User"]?.relationshipsByName["posts"])
        #expect(posts.destinationEntity === copy.entitiesByName["Post"])
        #expect(copy.versionChecksum == model.versionChecksum)
    }

    @Test("models merge with init(byMerging:); a clash of entity names gives nil")
    func merging() {
        let blog = makeBlogModel()
        let tags = NSManagedObjectModel()
        let tag = NSEntityDescription()
        tag.name = "Tag"
        tags.entities = [tag]
        #expect(NSManagedObjectModel(byMerging: [blog, tags])?.entities.count == 3)
        #expect(NSManagedObjectModel(byMerging: nil)?.entities.isEmpty == true)
        #expect(NSManagedObjectModel(byMerging: [blog, makeBlogModel()]) == nil)
    }
}
