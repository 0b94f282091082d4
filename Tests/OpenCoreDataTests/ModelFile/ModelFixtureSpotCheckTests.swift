import OpenCoreData
import Testing

/// Real model files from public projects, loaded and compared by hand with their XML: types, flags,
/// default values parsed to the attribute's Swift type, relationships, fetched properties, templates,
/// configurations, fetch indexes, uniqueness constraints, derived and composite attributes.
@Suite("Real model files, checked by hand against their XML")
struct ModelFixtureSpotCheckTests {
    func load(_ name: String) throws -> NSManagedObjectModel {
        try NSManagedObjectModel.load(from: ModelFileKit.fixture(name))
    }

    func attribute(_ model: NSManagedObjectModel, _ entity: String, _ name: String) throws -> NSAttributeDescription {
        try #require(model.entitiesByName[entity]?.attributesByName[name], "\(entity).\(name)")
    }

    // MARK: WooCommerce (Model 117, the current of 100+ versions)

    @Test("WooCommerce: the current version's Order attributes have the XML's types, flags and defaults")
    func wooCommerceOrderAttributes() throws {
        let model = try load("woocommerce__woocommerce-ios__WooCommerce.xcdatamodeld")
        #expect(model.entities.count == 88)
        let customerID = try attribute(model, "Order", "customerID")
        #expect(customerID.attributeType == .integer64AttributeType)
        #expect(customerID.isOptional)
        #expect((customerID.defaultValue as? NSNumber)?.int64Value == 0)
        let dateCreated = try attribute(model, "Order", "dateCreated")
        #expect(dateCreated.attributeType == .dateAttributeType)
        #expect(dateCreated.defaultValue == nil)
        let exclusive = try attribute(model, "Order", "exclusiveForSearch")
        #expect(exclusive.attributeType == .booleanAttributeType)
        #expect(!exclusive.isOptional)
        #expect(exclusive.defaultValue as? Bool == false)
        let orderKey = try attribute(model, "Order", "orderKey")
        #expect(!orderKey.isOptional)
        #expect(orderKey.defaultValue as? String == "")
        #expect(try attribute(model, "Order", "paymentURL").attributeType == .URIAttributeType)
        #expect(try attribute(model, "Order", "statusKey").defaultValue == nil)
        #expect(model.entitiesByName["Order"]?.managedObjectClassName == "Order")
    }

    @Test("WooCommerce: Boolean YES is true, Decimal defaults are decimal numbers, transformables keep their class")
    func wooCommerceDefaults() throws {
        let model = try load("woocommerce__woocommerce-ios__WooCommerce.xcdatamodeld")
        #expect(try attribute(model, "PaymentGatewayAccount", "isLive").defaultValue as? Bool == true)
        #expect(try attribute(model, "PaymentGatewayAccount", "isInTestMode").defaultValue as? Bool == false)
        #expect(try attribute(model, "PaymentGatewayAccount", "hasOverdueRequirements").defaultValue == nil)
        let quantity = try attribute(model, "ProductBundleItem", "defaultQuantity")
        #expect(quantity.attributeType == .decimalAttributeType)
        #expect((quantity.defaultValue as? NSDecimalNumber)?.decimalValue == Decimal(0))
        #expect(try attribute(model, "ProductBundleItem", "isOptional").defaultValue as? Bool == true)
        let variations = try attribute(model, "ProductBundleItem", "allowedVariations")
        #expect(variations.attributeType == .transformableAttributeType)
        #expect(variations.valueTransformerName == "NSSecureUnarchiveFromData")
        #expect(variations.attributeValueClassName == "[Int64]")
    }

    @Test("WooCommerce: Order's relationships keep cardinality, order, delete rule and inverse")
    func wooCommerceRelationships() throws {
        let model = try load("woocommerce__woocommerce-ios__WooCommerce.xcdatamodeld")
        let order = try #require(model.entitiesByName["Order"])
        let items = try #require(order.relationshipsByName["items"])
        #expect(items.isToMany && items.isOrdered)
        #expect(items.maxCount == 0)
        #expect(items.deleteRule == .cascadeDeleteRule)
        #expect(items.destinationEntity?.name == "OrderItem")
        #expect(items.inverseRelationship?.name == "order")
        #expect(items.inverseRelationship?.inverseRelationship === items)
        let attribution = try #require(order.relationshipsByName["attributionInfo"])
        #expect(!attribution.isToMany && !attribution.isOrdered)
        #expect(attribution.deleteRule == .cascadeDeleteRule)
        #expect(attribution.inverseRelationship?.deleteRule == .nullifyDeleteRule)
        #expect(order.relationshipsByName.count == 13)
    }

    // MARK: Dates and small integers

    @Test("momdec: a Date default is a Date at the XML's defaultDateTimeInterval")
    func momdecDateDefault() throws {
        let model = try load("atomicbird__momdec__momdecTests.xcdatamodeld")
        let entity = try #require(model.entities.first { $0.attributesByName["dateAttribute"] != nil })
        let date = try #require(entity.attributesByName["dateAttribute"]?.defaultValue as? Date)
        #expect(date == Date(timeIntervalSinceReferenceDate: 388_411_200))
        #expect(entity.attributesByName["dateAttribute"]?.validationPredicates.count == 2)
    }

    @Test("mastodon: Emoji.createAt defaults to a Date; DomainBlock has a three-property uniqueness constraint")
    func mastodon() throws {
        let model = try load("mastodon__mastodon-ios__CoreData.xcdatamodeld")
        let createAt = try attribute(model, "Emoji", "createAt")
        #expect(!createAt.isOptional)
        #expect(createAt.defaultValue as? Date == Date(timeIntervalSinceReferenceDate: 631_123_200))
        let block = try #require(model.entitiesByName["DomainBlock"])
        #expect(block.uniquenessConstraints.count == 1)
        #expect(block.uniquenessConstraints.first as? [String] == ["userID", "domain", "blockedDomain"])
        #expect(block.managedObjectClassName == "CoreDataStack.DomainBlock")
    }

    @Test("iNaturalist: Integer 16 defaults are Int16-compatible numbers")
    func iNaturalistInteger16() throws {
        let model = try load("inaturalist__INaturalistIOS__INaturalist.xcdatamodeld")
        #expect(model.entities.count == 17)
        let position = try attribute(model, "ObservationPhoto", "position")
        #expect(position.attributeType == .integer16AttributeType)
        let number = try #require(position.defaultValue as? NSNumber)
        #expect(number.int16Value == 0)
        #expect(position.defaultValue as? Int16 == 0)
    }

    // MARK: Derived and composite attributes

    @Test("delawaremathguy: Tag.photoCount is derived from photos.@count; Rating.value defaults to Int16 0")
    func delawaremathguy() throws {
        let model = try load("delawaremathguy__CoreDataCloudKitShare__CoreDataCloudKitShare.xcdatamodeld")
        let photoCount = try #require(try attribute(model, "Tag", "photoCount") as? NSDerivedAttributeDescription)
        #expect(photoCount.attributeType == .integer64AttributeType)
        #expect(photoCount.derivationExpression?.description == "count:(photos)")
        #expect(photoCount.isReadOnly)
        #expect(try attribute(model, "Rating", "value").defaultValue as? Int16 == 0)
        #expect(model.entitiesByName["Tag"]?.relationshipsByName["photos"]?.inverseRelationship?.name == "tags")
    }

    @Test("fatbobman: CDEItem.location is a composite of the CDEItemLocation definition")
    func fatbobmanComposite() throws {
        let model = try load("fatbobman__CoreDataEvolution__CoreDataEvolutionIntegrationModel.xcdatamodeld")
        let location = try #require(try attribute(model, "CDEItem", "location") as? NSCompositeAttributeDescription)
        #expect(location.attributeType == .compositeAttributeType)
        #expect(location.isOptional)
        #expect(location.elements.map(\.name) == ["x", "y"])
        let x = try #require(location.elements.first)
        #expect(x.attributeType == .doubleAttributeType)
        #expect(!x.isOptional)
        #expect(x.defaultValue as? Double == 0)
        #expect(location.elements.last?.isOptional == true)
        #expect(try attribute(model, "CDEItem", "priority").defaultValue as? Int16 == 0)
        #expect(try attribute(model, "CDEItem", "keywords_payload").valueTransformerName == "NSSecureUnarchiveFromData")
    }

    // MARK: SwiftGen: everything at once

    @Test("SwiftGen: derived attributes, fetched property, index, constraint and inheritance")
    func swiftGenEntities() throws {
        let model = try load("SwiftGen__SwiftGen__Model.xcdatamodeld")
        let canonical = try #require(try attribute(model, "ChildEntity", "canonicalOptionalString") as? NSDerivedAttributeDescription)
        #expect(canonical.derivationExpression != nil)
        #expect(canonical.attributeType == .stringAttributeType)
        let now = try #require(try attribute(model, "ChildEntity", "now") as? NSDerivedAttributeDescription)
        #expect(now.attributeType == .doubleAttributeType)
        let child = try #require(model.entitiesByName["ChildEntity"])
        #expect(child.superentity?.name == "MainEntity")
        #expect(child.attributesByName["uuid"] != nil)
        #expect(child.userInfo?["key"] as? String == "value")
        let main = try #require(model.entitiesByName["MainEntity"])
        let fetched = try #require(main.propertiesByName["fetchedProperty"] as? NSFetchedPropertyDescription)
        #expect(fetched.fetchRequest?.entityName == "NewEntity")
        #expect(fetched.fetchRequest?.predicate != nil)
        #expect(fetched.userInfo?["key"] as? String == "value")
        #expect(main.userInfo?["key"] as? String == "value")
        let newEntity = try #require(model.entitiesByName["NewEntity"])
        #expect(newEntity.superentity?.name == "AbstractEntity")
        #expect(newEntity.managedObjectClassName == "CheckedNewEntity")
        let index = try #require(newEntity.indexes.first)
        #expect(index.name == "byIdentifierIndex")
        #expect(index.elements.first?.property?.name == "identifier")
        #expect(index.elements.first?.collationType == .binary)
        #expect(index.elements.first?.isAscending == true)
        #expect(newEntity.uniquenessConstraints.first as? [String] == ["identifier"])
        let oneToMany = try #require(main.relationshipsByName["oneToMany"])
        #expect(oneToMany.isToMany && oneToMany.isOrdered)
        #expect(oneToMany.inverseRelationship?.isToMany == false)
    }

    @Test("SwiftGen: fetch request templates and the Custom configuration")
    func swiftGenTemplates() throws {
        let model = try load("SwiftGen__SwiftGen__Model.xcdatamodeld")
        #expect(model.fetchRequestTemplatesByName.keys.sorted() == ["DictionaryFetchRequest", "ObjectFetchRequest", "ObjectIDFetchRequest"])
        #expect(model.fetchRequestTemplate(forName: "DictionaryFetchRequest")?.resultType == .dictionaryResultType)
        #expect(model.fetchRequestTemplate(forName: "ObjectIDFetchRequest")?.resultType == .managedObjectIDResultType)
        let object = try #require(model.fetchRequestTemplate(forName: "ObjectFetchRequest"))
        #expect(object.resultType == .managedObjectResultType)
        #expect(object.returnsDistinctResults)
        #expect(object.entityName == "MainEntity")
        let request = try #require(
            model.fetchRequestFromTemplate(
                withName: "ObjectIDFetchRequest",
                substitutionVariables: ["NAME": "a", "NEEDLE": "b"]))
        #expect(request.predicate?.predicateFormat == #"oneToOne.name == "a" OR string == "b""#)
        #expect(model.configurations == ["Custom"])
        #expect(model.entities(forConfigurationName: "Custom")?.map(\.name) == ["NewEntity"])
    }

    // MARK: CoreStore

    @Test("CoreStore: two configurations each hold their entity; ordered and unordered to-many self relationships")
    func coreStore() throws {
        let model = try load("JohnEstropia__CoreStore__Model.xcdatamodeld")
        #expect(model.configurations.sorted() == ["Config1", "Config2"])
        #expect(model.entities(forConfigurationName: "Config1")?.map(\.name) == ["TestEntity1AAA"])
        #expect(model.entities(forConfigurationName: "Config2")?.map(\.name) == ["TestEntity2"])
        let ordered = try #require(model.entitiesByName["TestEntity2"]?.relationshipsByName["testToManyOrdered"])
        #expect(ordered.isOrdered && ordered.isToMany)
        #expect(ordered.destinationEntity === model.entitiesByName["TestEntity2"])
        let unordered = try #require(model.entitiesByName["TestEntity1AAA"]?.relationshipsByName["testToManyUnordered"])
        #expect(!unordered.isOrdered && unordered.isToMany)
        #expect(try attribute(model, "TestEntity1AAA", "testDecimal").attributeType == .decimalAttributeType)
        #expect(try attribute(model, "TestEntity1AAA", "testNumber").attributeType == .integer32AttributeType)
    }
}
