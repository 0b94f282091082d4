import Testing

@testable import OpenCoreDataCore

@Suite("Entity descriptions")
struct EntityDescriptionTests {
    /// Item (abstract: created) ← Note (title, folder → Folder) ← Checklist (items); Folder (notes).
    private func makeModel() -> (
        model: NSManagedObjectModel, item: NSEntityDescription, note: NSEntityDescription,
        checklist: NSEntityDescription, folder: NSEntityDescription
    ) {
        let item = ModelKit.entity("Item", [ModelKit.attribute("created", .dateAttributeType)])
        item.isAbstract = true
        let folder = ModelKit.entity("Folder")
        let toFolder = ModelKit.relationship("folder", to: folder)
        let note = ModelKit.entity("Note", [ModelKit.attribute("title", .stringAttributeType), toFolder])
        let checklist = ModelKit.entity("Checklist", [ModelKit.attribute("items", .transformableAttributeType)])
        let notes = ModelKit.relationship("notes", to: note, toMany: true)
        folder.properties = [ModelKit.attribute("name", .stringAttributeType), notes]
        ModelKit.pair(toFolder, notes)
        item.subentities = [note]
        note.subentities = [checklist]
        let model = NSManagedObjectModel()
        model.entities = [item, note, checklist, folder]
        return (model, item, note, checklist, folder)
    }

    @Test("A new entity has no name, no properties, is concrete and is represented by NSManagedObject")
    func defaults() {
        let entity = NSEntityDescription()
        #expect(entity.name == nil)
        #expect(entity.properties.isEmpty)
        #expect(!entity.isAbstract)
        #expect(entity.managedObjectClassName == "NSManagedObject")
        #expect(entity.superentity == nil)
        #expect(entity.subentities.isEmpty)
        #expect(entity.uniquenessConstraints.isEmpty)
        #expect(entity.indexes.isEmpty)
    }

    @Test("Setting subentities sets their superentity")
    func subentitiesSetSuperentity() {
        let fixture = makeModel()
        #expect(fixture.note.superentity === fixture.item)
        #expect(fixture.checklist.superentity === fixture.note)
        #expect(fixture.item.subentitiesByName["Note"] === fixture.note)
        fixture.item.subentities = []
        #expect(fixture.note.superentity == nil)
    }

    @Test("properties holds only the entity's own properties; the by-name dictionaries include inherited ones")
    func inheritedProperties() {
        let fixture = makeModel()
        #expect(fixture.checklist.properties.map(\.name) == ["items"])
        #expect(Set(fixture.checklist.propertiesByName.keys) == ["created", "title", "folder", "items"])
        #expect(Set(fixture.checklist.attributesByName.keys) == ["created", "title", "items"])
        #expect(Set(fixture.checklist.relationshipsByName.keys) == ["folder"])
        #expect(fixture.checklist.propertiesByName["title"] === fixture.note.propertiesByName["title"])
        #expect(fixture.item.propertiesByName.keys.sorted() == ["created"])
    }

    @Test("Each property knows its entity")
    func propertyEntity() {
        let fixture = makeModel()
        for property in fixture.note.properties {
            #expect(property.entity === fixture.note)
        }
        #expect(fixture.checklist.propertiesByName["created"]?.entity === fixture.item)
    }

    @Test("isKindOf(entity:) is true for the entity itself and its superentities only")
    func isKindOf() {
        let fixture = makeModel()
        #expect(fixture.checklist.isKindOf(entity: fixture.checklist))
        #expect(fixture.checklist.isKindOf(entity: fixture.note))
        #expect(fixture.checklist.isKindOf(entity: fixture.item))
        #expect(!fixture.item.isKindOf(entity: fixture.note))
        #expect(!fixture.folder.isKindOf(entity: fixture.item))
    }

    @Test("relationships(forDestination:) returns own and inherited relationships to that entity")
    func relationshipsForDestination() {
        let fixture = makeModel()
        #expect(fixture.note.relationships(forDestination: fixture.folder).map(\.name) == ["folder"])
        #expect(fixture.checklist.relationships(forDestination: fixture.folder).map(\.name) == ["folder"])
        #expect(fixture.folder.relationships(forDestination: fixture.note).map(\.name) == ["notes"])
        #expect(fixture.folder.relationships(forDestination: fixture.checklist).isEmpty)
        #expect(fixture.item.relationships(forDestination: fixture.folder).isEmpty)
    }

    @Test("entity(forEntityName:in:) finds entities of a model by name")
    func lookupByName() {
        let fixture = makeModel()
        #expect(NSEntityDescription.entity(forEntityName: "Folder", in: fixture.model) === fixture.folder)
        #expect(NSEntityDescription.entity(forEntityName: "Missing", in: fixture.model) == nil)
        #expect(fixture.folder.managedObjectModel === fixture.model)
    }

    @Test("Indexes and uniqueness constraints are kept as given, and indexes know their entity")
    func indexesAndConstraints() throws {
        let fixture = makeModel()
        let title = try #require(fixture.note.propertiesByName["title"])
        let element = NSFetchIndexElementDescription(property: title, collationType: .binary)
        element.isAscending = false
        let index = NSFetchIndexDescription(name: "byTitle", elements: [element])
        fixture.note.indexes = [index]
        fixture.note.uniquenessConstraints = [["title"], ["title", "folder"]]
        #expect(index.entity === fixture.note)
        #expect(element.indexDescription === index)
        #expect(element.propertyName == "title")
        #expect(element.property === title)
        #expect(!element.isAscending)
        #expect(fixture.note.uniquenessConstraints.map { $0.compactMap { $0 as? String } } == [["title"], ["title", "folder"]])
    }

    @Test("A copied entity has equal but distinct properties and belongs to no model")
    func copying() throws {
        let fixture = makeModel()
        fixture.note.userInfo = ["color": "blue"]
        fixture.note.renamingIdentifier = "Memo"
        fixture.note.versionHashModifier = "v2"
        let copy = try #require(fixture.note.copy() as? NSEntityDescription)
        #expect(copy !== fixture.note)
        #expect(copy.name == "Note")
        #expect(copy.managedObjectClassName == "Note")
        #expect(copy.renamingIdentifier == "Memo")
        #expect(copy.versionHashModifier == "v2")
        #expect(copy.userInfo?["color"] as? String == "blue")
        #expect(copy.properties.map(\.name) == fixture.note.properties.map(\.name))
        #expect(copy.properties.first !== fixture.note.properties.first)
        #expect(copy.properties.first?.entity === copy)
        #expect(copy._model == nil)
        #expect(copy.versionHash == fixture.note.versionHash)
    }

    @Test("Model copies relink superentities, destinations and inverses to the copied entities")
    func modelCopy() throws {
        let fixture = makeModel()
        let copy = try #require(fixture.model.copy() as? NSManagedObjectModel)
        let note = try #require(copy.entitiesByName["Note"])
        let folder = try #require(copy.entitiesByName["Folder"])
        #expect(note !== fixture.note)
        #expect(note.superentity === copy.entitiesByName["Item"])
        let toFolder = try #require(note.relationshipsByName["folder"])
        #expect(toFolder.destinationEntity === folder)
        #expect(toFolder.inverseRelationship === folder.relationshipsByName["notes"])
        #expect(copy.entityVersionHashesByName == fixture.model.entityVersionHashesByName)
    }
}
