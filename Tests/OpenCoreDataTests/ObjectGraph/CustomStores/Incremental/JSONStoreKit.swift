import Foundation
import Testing

@testable import OpenCoreDataCore

/// A model and a coordinator with a `JSONFileStore` in a temporary directory.
enum JSONStoreKit {
    /// Person (name, age, score, joined; notes), Note (text; owner, tags), Tag (label; notes).
    static func model() -> NSManagedObjectModel {
        let person = ModelKit.entity(
            "Person",
            [
                ModelKit.attribute("name", .stringAttributeType),
                ModelKit.attribute("age", .integer64AttributeType),
                ModelKit.attribute("score", .doubleAttributeType),
                ModelKit.attribute("joined", .dateAttributeType),
            ])
        let note = ModelKit.entity("Note", [ModelKit.attribute("text", .stringAttributeType)])
        let tag = ModelKit.entity("Tag", [ModelKit.attribute("label", .stringAttributeType)])
        let notes = ModelKit.relationship("notes", to: note, toMany: true)
        let owner = ModelKit.relationship("owner", to: person)
        ModelKit.pair(notes, owner)
        let tags = ModelKit.relationship("tags", to: tag, toMany: true)
        let tagNotes = ModelKit.relationship("notes", to: note, toMany: true)
        ModelKit.pair(tags, tagNotes)
        person.properties += [notes]
        note.properties += [owner, tags]
        tag.properties += [tagNotes]
        let model = NSManagedObjectModel()
        model.entities = [person, note, tag]
        return model
    }

    /// A new temporary directory's store file location.
    static func url() -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("json-store-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent("store.json")
    }

    /// A coordinator of `model` with the JSON store at `url` added, and the store.
    static func open(_ url: URL, model: NSManagedObjectModel = model()) throws -> (NSPersistentStoreCoordinator, JSONFileStore) {
        JSONFileStore.register()
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let store = try coordinator.addPersistentStore(type: NSPersistentStore.StoreType(rawValue: JSONFileStore.storeType), at: url)
        return (coordinator, try #require(store as? JSONFileStore))
    }

    /// A store seeded by another coordinator (`seed(_:)`), opened by a new one: nothing of it is cached.
    static func seeded() throws -> (NSPersistentStoreCoordinator, JSONFileStore) {
        let url = url()
        let (writer, _) = try open(url)
        try seed(writer)
        return try open(url)
    }

    static func context(_ coordinator: NSPersistentStoreCoordinator) -> NSManagedObjectContext {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    /// Saves three people (Ann 31, Bo 22, Cy 45), two notes each and one tag on each first note; returns
    /// the context that saved them.
    @discardableResult
    static func seed(_ coordinator: NSPersistentStoreCoordinator) throws -> NSManagedObjectContext {
        let context = context(coordinator)
        try context.performAndWait {
            let urgent = NSEntityDescription.insertNewObject(forEntityName: "Tag", into: context)
            urgent.setValue("urgent", forKey: "label")
            for (name, age, score) in [("Ann", 31, 4.5), ("Bo", 22, 3.0), ("Cy", 45, 5.0)] {
                let person = NSEntityDescription.insertNewObject(forEntityName: "Person", into: context)
                person.setValue(name, forKey: "name")
                person.setValue(Int64(age), forKey: "age")
                person.setValue(score, forKey: "score")
                person.setValue(Date(timeIntervalSinceReferenceDate: Double(age) * 1000), forKey: "joined")
                for index in 1...2 {
                    let note = NSEntityDescription.insertNewObject(forEntityName: "Note", into: context)
                    note.setValue("\(name) \(index)", forKey: "text")
                    note.setValue(person, forKey: "owner")
                    if index == 1 { note.setValue(Set([urgent]), forKey: "tags") }
                }
            }
            try context.save()
        }
        return context
    }
}
