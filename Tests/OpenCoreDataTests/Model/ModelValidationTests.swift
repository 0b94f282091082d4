import Testing

@testable import OpenCoreDataCore

@Suite("Model consistency checks")
struct ModelValidationTests {
    /// Validates the model and returns the thrown error, checking domain and code.
    private func problem(in model: NSManagedObjectModel, sourceLocation: SourceLocation = #_sourceLocation) -> NSError? {
        do {
            try model._validateForUse()
            Issue.record("the model passed validation", sourceLocation: sourceLocation)
            return nil
        } catch let error as NSError {
            #expect(error.domain == NSCocoaErrorDomain, sourceLocation: sourceLocation)
            #expect(error.code == NSCoreDataError, sourceLocation: sourceLocation)
            return error
        }
    }

    private func model(_ entities: [NSEntityDescription]) -> NSManagedObjectModel {
        let model = NSManagedObjectModel()
        model.entities = entities
        return model
    }

    @Test("A consistent model passes")
    func consistent() throws {
        let owner = ModelKit.entity("Person")
        let pet = ModelKit.entity("Pet")
        let pets = ModelKit.relationship("pets", to: pet, toMany: true)
        let ownerLink = ModelKit.relationship("owner", to: owner)
        owner.properties = [ModelKit.attribute("name", .stringAttributeType), pets]
        pet.properties = [ownerLink]
        ModelKit.pair(pets, ownerLink)
        try model([owner, pet])._validateForUse()
    }

    @Test("An entity without a name is reported")
    func unnamedEntity() {
        let error = problem(in: model([NSEntityDescription()]))
        #expect(error?.localizedDescription.contains("has no name") == true)
    }

    @Test("Two entities with the same name are reported with the name")
    func duplicateEntities() {
        let error = problem(in: model([ModelKit.entity("Note"), ModelKit.entity("Note")]))
        #expect(error?.userInfo[ModelValidation.entityKey] as? String == "Note")
        #expect(error?.localizedDescription.contains("more than one entity named Note") == true)
    }

    @Test("A relationship without a destination names the entity and the relationship")
    func missingDestination() {
        let error = problem(in: model([ModelKit.entity("Pet", [ModelKit.relationship("owner", to: nil)])]))
        #expect(error?.userInfo[ModelValidation.entityKey] as? String == "Pet")
        #expect(error?.userInfo[ModelValidation.propertyKey] as? String == "owner")
        #expect(error?.localizedDescription == "The relationship owner of the entity Pet has no destination entity.")
    }

    @Test("A destination outside the model is reported")
    func danglingDestination() {
        let outsider = ModelKit.entity("Person")
        let error = problem(in: model([ModelKit.entity("Pet", [ModelKit.relationship("owner", to: outsider)])]))
        #expect(
            error?.localizedDescription.contains("destination entity Person of the relationship owner of the entity Pet is not in the model") == true)
        withExtendedLifetime(outsider) {}
    }

    @Test("An inverse whose own inverse is another relationship is reported")
    func inverseOfInverse() {
        let person = ModelKit.entity("Person")
        let pet = ModelKit.entity("Pet")
        let pets = ModelKit.relationship("pets", to: pet, toMany: true)
        let formerPets = ModelKit.relationship("formerPets", to: pet, toMany: true)
        let owner = ModelKit.relationship("owner", to: person)
        person.properties = [pets, formerPets]
        pet.properties = [owner]
        pets.inverseRelationship = owner
        owner.inverseRelationship = pets
        formerPets.inverseRelationship = owner
        let error = problem(in: model([person, pet]))
        #expect(error?.userInfo[ModelValidation.propertyKey] as? String == "formerPets")
        #expect(error?.localizedDescription.contains("the inverse of owner is pets") == true)
    }

    @Test("An inverse that belongs to another entity than the destination is reported")
    func inverseOnWrongEntity() {
        let person = ModelKit.entity("Person")
        let pet = ModelKit.entity("Pet")
        let toy = ModelKit.entity("Toy")
        let pets = ModelKit.relationship("pets", to: pet, toMany: true)
        let toyOwner = ModelKit.relationship("owner", to: person)
        person.properties = [pets]
        toy.properties = [toyOwner]
        pets.inverseRelationship = toyOwner
        toyOwner.inverseRelationship = pets
        let error = problem(in: model([person, pet, toy]))
        #expect(error?.userInfo[ModelValidation.entityKey] as? String == "Person")
        #expect(error?.userInfo[ModelValidation.propertyKey] as? String == "pets")
        #expect(error?.localizedDescription.contains("belongs to Toy, not to the destination entity Pet") == true)
    }

    @Test("An inverse on the destination's superentity, leading back to a superentity, is accepted")
    func inheritedInverse() throws {
        let animal = ModelKit.entity("Animal")
        let dog = ModelKit.entity("Dog")
        let person = ModelKit.entity("Person")
        let owner = ModelKit.relationship("owner", to: person)
        let animals = ModelKit.relationship("animals", to: animal, toMany: true)
        animal.properties = [owner]
        animal.subentities = [dog]
        let dogs = ModelKit.relationship("dogs", to: dog, toMany: true)
        person.properties = [animals, dogs]
        ModelKit.pair(animals, owner)
        dogs.inverseRelationship = nil
        try model([animal, dog, person])._validateForUse()
    }

    @Test("A property that repeats a superentity's property name is reported")
    func duplicateInheritedName() {
        let item = ModelKit.entity("Item", [ModelKit.attribute("title", .stringAttributeType)])
        let note = ModelKit.entity("Note", [ModelKit.attribute("title", .stringAttributeType)])
        item.subentities = [note]
        let error = problem(in: model([item, note]))
        #expect(error?.userInfo[ModelValidation.entityKey] as? String == "Note")
        #expect(error?.userInfo[ModelValidation.propertyKey] as? String == "title")
        #expect(error?.localizedDescription.contains("same name as a property of its superentity Item") == true)
    }

    @Test("Two properties with one name in an entity are reported")
    func duplicateOwnName() {
        let note = ModelKit.entity(
            "Note",
            [
                ModelKit.attribute("title", .stringAttributeType),
                ModelKit.attribute("title", .integer16AttributeType),
            ])
        let error = problem(in: model([note]))
        #expect(error?.userInfo[ModelValidation.propertyKey] as? String == "title")
    }

    @Test("An abstract entity without a concrete subentity is reported")
    func abstractLeaf() {
        let shape = ModelKit.entity("Shape")
        shape.isAbstract = true
        let polygon = ModelKit.entity("Polygon")
        polygon.isAbstract = true
        shape.subentities = [polygon]
        let error = problem(in: model([shape, polygon]))
        #expect(error?.localizedDescription.contains("abstract entity") == true)
        let details = error?.userInfo[NSDetailedErrorsKey] as? [NSError]
        #expect(Set(details?.compactMap { $0.userInfo[ModelValidation.entityKey] as? String } ?? []) == ["Shape", "Polygon"])

        let square = ModelKit.entity("Square")
        polygon.subentities = [square]
        #expect(throws: Never.self) { try model([shape, polygon, square])._validateForUse() }
    }

    @Test("Several problems are all listed under NSDetailedErrorsKey")
    func severalProblems() {
        let error = problem(
            in: model([
                ModelKit.entity("A", [ModelKit.relationship("b", to: nil)]),
                ModelKit.entity("A"),
            ]))
        #expect((error?.userInfo[NSDetailedErrorsKey] as? [NSError])?.count == 2)
        #expect(error?.localizedDescription.contains("and 1 more model problem") == true)
    }

    @Test("A minimum count above the maximum count is reported")
    func counts() {
        let tag = ModelKit.entity("Tag")
        let tags = ModelKit.relationship("tags", to: tag, toMany: true)
        tags.minCount = 5
        tags.maxCount = 3
        let error = problem(in: model([ModelKit.entity("Note", [tags]), tag]))
        #expect(error?.userInfo[ModelValidation.propertyKey] as? String == "tags")
        #expect(error?.localizedDescription.contains("minimum count (5) above its maximum count (3)") == true)
    }

    @Test("A negative count is reported")
    func negativeCounts() {
        let tag = ModelKit.entity("Tag")
        let tags = ModelKit.relationship("tags", to: tag, toMany: true)
        tags.minCount = -1
        let error = problem(in: model([ModelKit.entity("Note", [tags]), tag]))
        #expect(error?.userInfo[ModelValidation.propertyKey] as? String == "tags")
        #expect(error?.localizedDescription.contains("negative count") == true)
    }

    @Test("A uniqueness constraint naming a missing property is reported")
    func constraintOnMissingProperty() {
        let note = ModelKit.entity("Note", [ModelKit.attribute("title", .stringAttributeType)])
        note.uniquenessConstraints = [["title"], ["slug"]]
        let error = problem(in: model([note]))
        #expect(error?.userInfo[ModelValidation.propertyKey] as? String == "slug")
        #expect(error?.localizedDescription.contains("uniqueness constraint of the entity Note names slug") == true)
    }

    @Test("An index over a property of another entity is reported")
    func indexOnForeignProperty() {
        let other = ModelKit.attribute("name", .stringAttributeType)
        let tag = ModelKit.entity("Tag", [other])
        let note = ModelKit.entity("Note", [ModelKit.attribute("title", .stringAttributeType)])
        note.indexes = [
            NSFetchIndexDescription(
                name: "byName",
                elements: [NSFetchIndexElementDescription(property: other, collationType: .binary)])
        ]
        let error = problem(in: model([note, tag]))
        #expect(error?.userInfo[ModelValidation.entityKey] as? String == "Note")
        #expect(error?.localizedDescription.contains("index byName of the entity Note uses the property name") == true)
    }

    @Test("An inheritance cycle built in code is reported, and lookups and hashes still finish")
    func inheritanceCycle() throws {
        let first = ModelKit.entity("First")
        let second = ModelKit.entity("Second")
        first.properties = [ModelKit.attribute("a", .stringAttributeType)]
        second.properties = [ModelKit.attribute("b", .stringAttributeType)]
        first.subentities = [second]
        second.subentities = [first]
        let cyclic = model([first, second])
        #expect(first.attributesByName.keys.sorted() == ["a", "b"])
        #expect(!first.isKindOf(entity: ModelKit.entity("Other")))
        #expect(first.versionHash.count == 32)
        #expect(cyclic.versionChecksum.isEmpty == false)
        let error = try #require(problem(in: cyclic))
        #expect(error.localizedDescription.contains("inherits from itself"))
        let lonely = ModelKit.entity("Lonely")
        lonely.subentities = [lonely]
        #expect(lonely.versionHash.count == 32)
        #expect(!lonely.isKindOf(entity: first))
        let selfError = try #require(problem(in: model([lonely])))
        #expect(selfError.localizedDescription.contains("Lonely"))
    }
}
