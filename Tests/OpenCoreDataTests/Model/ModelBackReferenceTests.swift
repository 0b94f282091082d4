import Testing

@testable import OpenCoreDataCore

/// The references from a model's parts back to what holds them (a property's entity, a relationship's
/// destination, an entity's superentity and model) name their targets while those live, keep none of
/// them alive, and read `nil` once a target is gone, as weak references do.
@Suite("Model back references")
struct ModelBackReferenceTests {
    /// A Folder ← Note model: Note has a title and a to-one `folder`, Folder a to-many `notes`.
    private func makeModel() -> (model: NSManagedObjectModel, folder: NSEntityDescription, note: NSEntityDescription) {
        let folder = ModelKit.entity("Folder", [ModelKit.attribute("name", .stringAttributeType)])
        let note = ModelKit.entity(
            "Note",
            [
                ModelKit.attribute("title", .stringAttributeType),
                ModelKit.relationship("folder", to: folder),
            ])
        let model = NSManagedObjectModel()
        model.entities = [folder, note]
        return (model, folder, note)
    }

    @Test("Back references name their targets while the targets live")
    func namesLiveTargets() throws {
        let (model, folder, note) = makeModel()
        let title = try #require(note.attributesByName["title"])
        let toFolder = try #require(note.relationshipsByName["folder"])
        #expect(title.entity === note)
        #expect(toFolder.destinationEntity === folder)
        #expect(note.managedObjectModel === model)
        let child = ModelKit.entity("Child")
        note.subentities = [child]
        #expect(child.superentity === note)
    }

    @Test("A property keeps its entity neither alive nor reachable once it is gone")
    func propertyOutlivesEntity() throws {
        var note: NSEntityDescription? = ModelKit.entity("Note", [ModelKit.attribute("title", .stringAttributeType)])
        let title = try #require(note?.attributesByName["title"])
        weak let gone = note
        note = nil
        #expect(gone == nil)
        #expect(title._entity == nil)
    }

    @Test("A relationship's destination and a subentity's superentity read nil once the entity is gone")
    func destinationAndSuperentityOutlived() {
        var folder: NSEntityDescription? = ModelKit.entity("Folder")
        let toFolder = NSRelationshipDescription()
        toFolder.name = "folder"
        toFolder.destinationEntity = folder
        let note = ModelKit.entity("Note", [toFolder])
        var parent: NSEntityDescription? = ModelKit.entity("Parent")
        parent?.subentities = [note]
        #expect(note.superentity === parent)
        folder = nil
        parent = nil
        #expect(toFolder.destinationEntity == nil)
        #expect(note.superentity == nil)
    }

    @Test("An entity keeps its model neither alive nor reachable once it is gone")
    func entityOutlivesModel() {
        let note = ModelKit.entity("Note")
        var model: NSManagedObjectModel? = NSManagedObjectModel()
        model?.entities = [note]
        #expect(note._model === model)
        weak let gone = model
        model = nil
        #expect(gone == nil)
        #expect(note._model == nil)
    }
}
