import Testing

@testable import OpenCoreDataCore

/// `NSMappingModel.inferredMappingModel(forSourceModel:destinationModel:)`: which entity and property
/// mappings Core Data infers, and the 134190 error naming why when it cannot.
@Suite("Inferred mapping models")
struct InferredMappingTests {
    @Test("identical entities copy, changed ones transform, new ones add, vanished ones remove")
    func mappingTypes() throws {
        let source = MigrationKit.libraryV1()
        let clean = MigrationKit.libraryV1()
        clean.entitiesByName["Tag"]?.properties += [ModelKit.attribute("color", .stringAttributeType)]
        clean.entities += [ModelKit.entity("Shelf")]
        let mapping = try NSMappingModel.inferredMappingModel(forSourceModel: source, destinationModel: clean)
        let byDestination = Dictionary(uniqueKeysWithValues: mapping.entityMappings.compactMap { m in m.destinationEntityName.map { ($0, m) } })
        #expect(byDestination["Person"]?.mappingType == .copyEntityMappingType)
        #expect(byDestination["Tag"]?.mappingType == .transformEntityMappingType)
        #expect(byDestination["Shelf"]?.mappingType == .addEntityMappingType)
        #expect(byDestination["Tag"]?.name == "IEM_Transform_Tag")
        #expect(byDestination["Person"]?.name == "IEM_Copy_Person")
        #expect(byDestination["Shelf"]?.name == "IEM_Add_Shelf")
        let color = try #require(byDestination["Tag"]?.attributeMappings?.first { $0.name == "color" })
        #expect(color.valueExpression == nil)
        let label = try #require(byDestination["Tag"]?.attributeMappings?.first { $0.name == "label" })
        #expect(label.valueExpression?.description == "$source.label")
        #expect(mapping.entityMappingsByName["IEM_Transform_Tag"] === byDestination["Tag"])
        // A transform lists the attribute and relationship mappings of every destination property.
        let tag = try #require(byDestination["Tag"])
        #expect(Set(tag.attributeMappings?.compactMap(\.name) ?? []) == Set(clean.entitiesByName["Tag"]?.attributesByName.keys.map { $0 } ?? []))
        #expect(
            Set(tag.relationshipMappings?.compactMap(\.name) ?? []) == Set(clean.entitiesByName["Tag"]?.relationshipsByName.keys.map { $0 } ?? []))

        let removed = try NSMappingModel.inferredMappingModel(forSourceModel: clean, destinationModel: source)
        let remove = try #require(removed.entityMappings.first { $0.mappingType == .removeEntityMappingType })
        #expect(remove.sourceEntityName == "Shelf" && remove.destinationEntityName == nil)
        #expect(remove.name == "IEM_Remove_Shelf")
    }

    @Test("renaming identifiers map renamed entities, attributes and relationships")
    func renames() throws {
        let source = MigrationKit.libraryV1()
        let destination = MigrationKit.libraryV1()
        let person = try #require(destination.entitiesByName["Person"])
        person.name = "Reader"
        person.renamingIdentifier = "Person"
        let alias = try #require(person.attributesByName["nickname"])
        alias.name = "alias"
        alias.renamingIdentifier = "nickname"
        let shelf = try #require(person.relationshipsByName["books"])
        shelf.name = "shelf"
        shelf.renamingIdentifier = "books"
        let mapping = try NSMappingModel.inferredMappingModel(forSourceModel: source, destinationModel: destination)
        let reader = try #require(mapping.entityMappings.first { $0.destinationEntityName == "Reader" })
        #expect(reader.sourceEntityName == "Person")
        #expect(reader.mappingType == .transformEntityMappingType)
        #expect(reader.attributeMappings?.first { $0.name == "alias" }?.valueExpression?.description == "$source.nickname")
        #expect(reader.relationshipMappings?.first { $0.name == "shelf" }?._sourcePropertyName == "books")
        #expect(!mapping.entityMappings.contains { $0.mappingType == .removeEntityMappingType })
    }

    @Test("134190 names the entity and attribute whose type changed")
    func typeChange() throws {
        let destination = MigrationKit.libraryV1()
        destination.entitiesByName["Book"]?.attributesByName["price"]?.attributeType = .stringAttributeType
        let error = try #require(throws: NSError.self) {
            _ = try NSMappingModel.inferredMappingModel(forSourceModel: MigrationKit.libraryV1(), destinationModel: destination)
        }
        #expect(error.domain == NSCocoaErrorDomain)
        #expect(error.code == NSInferredMappingModelError)
        #expect(error.localizedDescription.contains("price"))
        #expect(error.localizedDescription.contains("Book"))
    }

    @Test("integer widths may change; an attribute turned relationship cannot be inferred")
    func widthsAndKinds() throws {
        let wider = MigrationKit.libraryV1()
        wider.entitiesByName["Person"]?.attributesByName["age"]?.attributeType = .integer64AttributeType
        _ = try NSMappingModel.inferredMappingModel(forSourceModel: MigrationKit.libraryV1(), destinationModel: wider)

        let kinds = MigrationKit.libraryV1()
        let book = try #require(kinds.entitiesByName["Book"])
        let tag = try #require(kinds.entitiesByName["Tag"])
        book.properties = book.properties.filter { $0.name != "title" } + [ModelKit.relationship("title", to: tag)]
        let error = try #require(throws: NSError.self) {
            _ = try NSMappingModel.inferredMappingModel(forSourceModel: MigrationKit.libraryV1(), destinationModel: kinds)
        }
        #expect(error.code == NSInferredMappingModelError)
        #expect(error.localizedDescription.contains("title"))
    }
}
