import Foundation
import Testing

@testable import OpenCoreDataCore

/// A model with one entity, `Note` (`rank`: Integer 64).
private func noteModel() -> NSManagedObjectModel {
    let model = NSManagedObjectModel()
    model.entities = [ModelKit.entity("Note", [ModelKit.attribute("rank", .integer64AttributeType)])]
    return model
}

/// The ranks of the notes in the store, read by a new coordinator.
private func storedRanks(_ stack: GraphStack) throws -> [Int64] {
    let reader = stack.context(try stack.secondCoordinator())
    return try reader.all("Note", sortedBy: "rank").map { $0.value(forKey: "rank") as! Int64 }
}

/// The ways a context is asked for an object it inserted, before it saves.
enum InsertedObjectLookup: String, CaseIterable, Sendable {
    case objectWithID, registeredObjectForID, existingObjectWithID, registeredObjects, insertedObjects, isInserted
}

@Suite("Inserted objects, registered before they are indexed by ID")
struct InsertedObjectRegistrationTests {
    @Test("every lookup finds each of many inserted objects under its temporary ID", arguments: InsertedObjectLookup.allCases)
    func lookupsFindInsertedObjects(lookup: InsertedObjectLookup) throws {
        let stack = try GraphStack(model: noteModel())
        let context = stack.context()
        let notes = (0..<500).map { context.make("Note", ["rank": Int64($0)]) }
        #expect(notes.allSatisfy { $0.objectID.isTemporaryID })
        switch lookup {
        case .objectWithID:
            #expect(notes.allSatisfy { context.object(with: $0.objectID) === $0 })
        case .registeredObjectForID:
            #expect(notes.allSatisfy { context.registeredObject(for: $0.objectID) === $0 })
        case .existingObjectWithID:
            #expect(try notes.allSatisfy { try context.existingObject(with: $0.objectID) === $0 })
        case .registeredObjects:
            #expect(context.registeredObjects == Set(notes))
        case .insertedObjects:
            #expect(context.insertedObjects == Set(notes))
        case .isInserted:
            #expect(notes.allSatisfy { $0.isInserted })
        }
    }

    @Test("inserts, lookups, deletes and events interleaved leave exactly the remaining objects inserted, and a save writes them")
    func interleavedInsertsLookupsAndDeletes() throws {
        let stack = try GraphStack(model: noteModel())
        let context = stack.context()
        var notes = (0..<100).map { context.make("Note", ["rank": Int64($0)]) }
        // A lookup in the middle, then more inserts after it.
        #expect(context.registeredObject(for: notes[42].objectID) === notes[42])
        notes += (100..<250).map { context.make("Note", ["rank": Int64($0)]) }
        context.processPendingChanges()
        notes += (250..<300).map { context.make("Note", ["rank": Int64($0)]) }
        // Deleting a new object takes it out of the inserted objects.
        let deleted = notes.enumerated().filter { $0.offset % 3 == 0 }.map(\.element)
        for note in deleted { context.delete(note) }
        let remaining = notes.enumerated().filter { $0.offset % 3 != 0 }.map(\.element)
        #expect(context.insertedObjects == Set(remaining))
        #expect(deleted.allSatisfy { !$0.isInserted })
        #expect(remaining.allSatisfy { context.registeredObject(for: $0.objectID) === $0 })
        try context.save()
        #expect(try storedRanks(stack) == remaining.map { $0.value(forKey: "rank") as! Int64 })
        #expect(remaining.allSatisfy { !$0.objectID.isTemporaryID && context.registeredObject(for: $0.objectID) === $0 })
    }

    @Test("a save retires the temporary IDs: the objects are found under their permanent IDs only")
    func saveRetiresTemporaryIDs() throws {
        let stack = try GraphStack(model: noteModel())
        let context = stack.context()
        let notes = (0..<200).map { context.make("Note", ["rank": Int64($0)]) }
        let temporaryIDs = notes.map(\.objectID)
        try context.save()
        #expect(temporaryIDs.allSatisfy { context.registeredObject(for: $0) == nil })
        #expect(notes.allSatisfy { context.registeredObject(for: $0.objectID) === $0 })
        #expect(context.insertedObjects.isEmpty)
        #expect(context.registeredObjects == Set(notes))
    }

    @Test("objects inserted after a save are saved by the next one, and only they")
    func insertsAfterASave() throws {
        let stack = try GraphStack(model: noteModel())
        let context = stack.context()
        let first = (0..<150).map { context.make("Note", ["rank": Int64($0)]) }
        try context.save()
        let second = (150..<300).map { context.make("Note", ["rank": Int64($0)]) }
        #expect(context.insertedObjects == Set(second))
        try context.save()
        #expect(try storedRanks(stack) == (0..<300).map(Int64.init))
        #expect((first + second).allSatisfy { context.registeredObject(for: $0.objectID) === $0 })
    }

    @Test("undoing many inserts takes them out of the context; redoing puts them back")
    func undoAndRedoOfInserts() throws {
        let stack = try GraphStack(model: noteModel())
        let context = stack.context()
        context.undoManager = UndoManager()
        context.undoManager?.beginUndoGrouping()
        let notes = (0..<120).map { context.make("Note", ["rank": Int64($0)]) }
        context.undoManager?.endUndoGrouping()
        context.undoManager?.undo()
        #expect(context.insertedObjects.isEmpty)
        #expect(notes.allSatisfy { context.registeredObject(for: $0.objectID) == nil })
        context.undoManager?.redo()
        #expect(context.insertedObjects == Set(notes))
        #expect(notes.allSatisfy { context.registeredObject(for: $0.objectID) === $0 })
        try context.save()
        #expect(try storedRanks(stack).count == 120)
    }
}

/// An entry of a test log: a key and a label telling entries with the same key apart.
private struct TestEntry: LazilyIndexedEntry, Equatable {
    let key: Int
    let label: String
}

@Suite("LazilyIndexedLog, the order-keeping index of a context's new objects")
struct LazilyIndexedLogTests {
    @Test("a copy keeps its entries when the original appends, updates and removes after it, and each finds only its own")
    func copiesDiverge() {
        var original = LazilyIndexedLog<TestEntry>()
        for key in 0..<40 { original.appendNew(TestEntry(key: key, label: "a")) }
        var copy = original
        #expect(copy.isUnchanged(since: original))
        original.appendNew(TestEntry(key: 40, label: "original"))
        copy.appendNew(TestEntry(key: 40, label: "copy"))
        #expect(!copy.isUnchanged(since: original))
        // Lookups through either index the shared entries, then their own.
        #expect(original[40]?.label == "original")
        #expect(copy[40]?.label == "copy")
        original.remove(3)
        original.update(TestEntry(key: 5, label: "b"))
        #expect(original[3] == nil && copy[3]?.label == "a")
        #expect(original[5]?.label == "b" && copy[5]?.label == "a")
        #expect(original.count == 40 && copy.count == 41)
        #expect(copy.entries.compactMap { $0?.key } == Array(0...40))
    }

    @Test("entries keep the order they were added in through removals and compaction, and updates keep their place")
    func orderThroughRemovals() {
        var log = LazilyIndexedLog<TestEntry>()
        for key in 0..<100 { log.appendNew(TestEntry(key: key, label: "")) }
        for key in stride(from: 0, to: 100, by: 2) { log.remove(key) }
        log.update(TestEntry(key: 51, label: "changed"))
        log.appendNew(TestEntry(key: 100, label: ""))
        let keys = log.entries.compactMap { $0?.key }
        #expect(keys == Array(stride(from: 1, to: 100, by: 2)) + [100])
        #expect(log[51]?.label == "changed")
        #expect(log.count == 51)
        for key in keys { #expect(log[key]?.key == key) }
        #expect(log[2] == nil)
    }

    @Test("an entry appended again under a key already there replaces the first in its place, as an update would")
    func appendedTwice() {
        var log = LazilyIndexedLog<TestEntry>()
        log.appendNew(TestEntry(key: 1, label: "first"))
        log.appendNew(TestEntry(key: 2, label: ""))
        log.appendNew(TestEntry(key: 1, label: "second"))
        #expect(log[1]?.label == "second")
        #expect(log.count == 2)
        #expect(log.entries.compactMap { $0 } == [TestEntry(key: 1, label: "second"), TestEntry(key: 2, label: "")])
    }

    @Test("removing entries by a test gives them back in order and keeps the rest findable")
    func removeAllWhere() {
        var log = LazilyIndexedLog<TestEntry>()
        for key in 0..<30 { log.appendNew(TestEntry(key: key, label: "")) }
        let removed = log.removeAll { $0.key % 3 == 0 }
        #expect(removed.map(\.key) == Array(stride(from: 0, to: 30, by: 3)))
        #expect(log.count == 20)
        #expect((0..<30).allSatisfy { (log[$0] != nil) == ($0 % 3 != 0) })
    }
}
