import OpenCoreData
import Testing

// Subclasses written as a Core Data user writes them, with `@Managed` in place of `@NSManaged`: some
// properties in the class, the rest in an extension (Xcode's "+CoreDataProperties" layout).

final class MacroNote: NSManagedObject {
    @Managed var title: String
    @Managed var subtitle: String?
    @Managed var priority: Int16
    @Managed var priorityOrNil: Int16?
    @Managed var size32: Int32
    @Managed var size32OrNil: Int32?
    @Managed var size64: Int64
    @Managed var size64OrNil: Int64?
    @Managed var count: Int
    @Managed var countOrNil: Int?
}

extension MacroNote {
    @Managed public var rating: Double
    @Managed public var ratingOrNil: Double?
    @Managed public var score: Float
    @Managed public var scoreOrNil: Float?
    @Managed public var isPinned: Bool
    @Managed public var isPinnedOrNil: Bool?
    @Managed public var price: Decimal
    @Managed public var priceOrNil: Decimal?
    @Managed public var created: Date
    @Managed public var createdOrNil: Date?
    @Managed public var payload: Data
    @Managed public var payloadOrNil: Data?
    @Managed public var identifier: UUID
    @Managed public var identifierOrNil: UUID?
    @Managed public var link: URL
    @Managed public var linkOrNil: URL?

    @Managed public var author: MacroAuthor?
    @Managed public var draftOf: MacroAuthor?
    @Managed public var tags: NSSet?
}

final class MacroAuthor: NSManagedObject {
    @Managed var name: String?
    @Managed var notes: Set<MacroNote>
    @Managed var drafts: NSOrderedSet?
}

final class MacroTag: NSManagedObject {
    @Managed var label: String
    @Managed var notes: NSSet
}

/// The model of the subclasses above, built in code; every attribute is optional in the model so that
/// unset values can be saved.
private func macroModel() -> NSManagedObjectModel {
    func attribute(_ name: String, _ type: NSAttributeType) -> NSAttributeDescription {
        let attribute = NSAttributeDescription()
        attribute.name = name
        attribute.attributeType = type
        attribute.isOptional = true
        return attribute
    }
    func relationship(
        _ name: String, to destination: NSEntityDescription, toMany: Bool,
        ordered: Bool = false
    ) -> NSRelationshipDescription {
        let relationship = NSRelationshipDescription()
        relationship.name = name
        relationship.destinationEntity = destination
        relationship.maxCount = toMany ? 0 : 1
        relationship.isOptional = true
        relationship.isOrdered = ordered
        return relationship
    }
    func inverses(_ first: NSRelationshipDescription, _ second: NSRelationshipDescription) {
        first.inverseRelationship = second
        second.inverseRelationship = first
    }
    func entity(_ name: String, _ type: NSManagedObject.Type) -> NSEntityDescription {
        let entity = NSEntityDescription()
        entity.name = name
        entity.managedObjectClassName = NSStringFromClass(type)
        return entity
    }

    let note = entity("MacroNote", MacroNote.self)
    let author = entity("MacroAuthor", MacroAuthor.self)
    let tag = entity("MacroTag", MacroTag.self)

    let typed: [(String, NSAttributeType)] = [
        ("title", .stringAttributeType), ("subtitle", .stringAttributeType),
        ("priority", .integer16AttributeType), ("size32", .integer32AttributeType),
        ("size64", .integer64AttributeType), ("count", .integer64AttributeType),
        ("rating", .doubleAttributeType), ("score", .floatAttributeType),
        ("isPinned", .booleanAttributeType), ("price", .decimalAttributeType),
        ("created", .dateAttributeType), ("payload", .binaryDataAttributeType),
        ("identifier", .UUIDAttributeType), ("link", .URIAttributeType),
    ]
    var noteAttributes: [NSPropertyDescription] = []
    for (name, type) in typed where name != "title" && name != "subtitle" {
        noteAttributes.append(attribute(name, type))
        noteAttributes.append(attribute(name + "OrNil", type))
    }
    noteAttributes.append(attribute("title", .stringAttributeType))
    noteAttributes.append(attribute("subtitle", .stringAttributeType))

    let noteAuthor = relationship("author", to: author, toMany: false)
    let authorNotes = relationship("notes", to: note, toMany: true)
    inverses(noteAuthor, authorNotes)
    let noteDraftOf = relationship("draftOf", to: author, toMany: false)
    let authorDrafts = relationship("drafts", to: note, toMany: true, ordered: true)
    inverses(noteDraftOf, authorDrafts)
    let noteTags = relationship("tags", to: tag, toMany: true)
    let tagNotes = relationship("notes", to: note, toMany: true)
    inverses(noteTags, tagNotes)

    note.properties = noteAttributes + [noteAuthor, noteDraftOf, noteTags]
    author.properties = [attribute("name", .stringAttributeType), authorNotes, authorDrafts]
    tag.properties = [attribute("label", .stringAttributeType), tagNotes]

    let model = NSManagedObjectModel()
    model.entities = [note, author, tag]
    return model
}

/// A SQLite store in a new temporary directory, opened by a new container each time `open()` is called.
private struct MacroStore {
    let directory: URL
    let model = macroModel()

    init() throws {
        directory = try TestScratch.directory("ManagedMacroEndToEnd")
    }

    /// A background context of a new container on the store file.
    func open() throws -> NSManagedObjectContext {
        let container = NSPersistentContainer(name: "Macro", managedObjectModel: model)
        container.persistentStoreDescriptions = [
            NSPersistentStoreDescription(url: directory.appendingPathComponent("Macro.sqlite"))
        ]
        var loadError: (any Error)?
        container.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
        return container.newBackgroundContext()
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}

@Suite("@Managed subclasses saved and fetched")
struct ManagedMacroEndToEndTests {
    static let created = Date(timeIntervalSinceReferenceDate: 700_000_000.5)
    static let identifier = UUID(uuidString: "0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0") ?? UUID()
    static let link = URL(string: "https://example.com/notes/1?view=full") ?? URL(fileURLWithPath: "/")
    static let payload = Data([0, 1, 2, 254, 255])
    static let price = Decimal(string: "1234.5678") ?? 0

    @Test("every attribute type, optional and not, saves through @Managed setters and reads back through getters")
    func attributesRoundTrip() throws {
        let store = try MacroStore()
        defer { store.remove() }

        let writer = try store.open()
        try writer.performAndWait {
            let note = MacroNote(context: writer)
            note.title = "Groceries"
            note.subtitle = "for Sunday"
            note.priority = -7
            note.priorityOrNil = 7
            note.size32 = Int32.max
            note.size32OrNil = Int32.min
            note.size64 = Int64.max
            note.size64OrNil = Int64.min
            note.count = 42
            note.countOrNil = -42
            note.rating = 4.25
            note.ratingOrNil = -0.5
            note.score = 1.5
            note.scoreOrNil = 2.75
            note.isPinned = true
            note.isPinnedOrNil = false
            note.price = Self.price
            note.priceOrNil = Decimal(3)
            note.created = Self.created
            note.createdOrNil = Self.created.addingTimeInterval(60)
            note.payload = Self.payload
            note.payloadOrNil = Data()
            note.identifier = Self.identifier
            note.identifierOrNil = Self.identifier
            note.link = Self.link
            note.linkOrNil = Self.link
            try writer.save()
        }

        let reader = try store.open()
        try reader.performAndWait {
            let notes = try reader.fetch(NSFetchRequest<MacroNote>(entityName: "MacroNote"))
            try #require(notes.count == 1)
            let note = notes[0]
            #expect(note.title == "Groceries")
            #expect(note.subtitle == "for Sunday")
            #expect(note.priority == -7)
            #expect(note.priorityOrNil == 7)
            #expect(note.size32 == Int32.max)
            #expect(note.size32OrNil == Int32.min)
            #expect(note.size64 == Int64.max)
            #expect(note.size64OrNil == Int64.min)
            #expect(note.count == 42)
            #expect(note.countOrNil == -42)
            #expect(note.rating == 4.25)
            #expect(note.ratingOrNil == -0.5)
            #expect(note.score == 1.5)
            #expect(note.scoreOrNil == 2.75)
            #expect(note.isPinned == true)
            #expect(note.isPinnedOrNil == false)
            #expect(note.price == Self.price)
            #expect(note.priceOrNil == Decimal(3))
            #expect(note.created == Self.created)
            #expect(note.createdOrNil == Self.created.addingTimeInterval(60))
            #expect(note.payload == Self.payload)
            #expect(note.payloadOrNil == Data())
            #expect(note.identifier == Self.identifier)
            #expect(note.identifierOrNil == Self.identifier)
            #expect(note.link == Self.link)
            #expect(note.linkOrNil == Self.link)
        }
    }

    @Test("a predicate on a value written through @Managed finds the object in the store")
    func fetchByManagedValue() throws {
        let store = try MacroStore()
        defer { store.remove() }

        let writer = try store.open()
        try writer.performAndWait {
            for (title, priority) in [("low", Int16(1)), ("high", Int16(9)), ("middle", Int16(5))] {
                let note = MacroNote(context: writer)
                note.title = title
                note.priority = priority
            }
            try writer.save()
        }

        let reader = try store.open()
        let titles = try reader.performAndWait {
            let request = NSFetchRequest<MacroNote>(entityName: "MacroNote")
            request.predicate = NSPredicate(format: "priority >= %@", 5)
            request.sortDescriptors = [NSSortDescriptor(key: "priority", ascending: false)]
            return try reader.fetch(request).map(\.title)
        }
        #expect(titles == ["high", "middle"])
    }

    @Test(
        "unset non-optional values read as zero, false, empty, the reference date, the nil UUID or about:blank; unset optionals as nil, before and after a save"
    )
    func unsetValues() throws {
        let store = try MacroStore()
        defer { store.remove() }

        func expectUnset(_ note: MacroNote) {
            #expect(note.priority == 0)
            #expect(note.size32 == 0)
            #expect(note.size64 == 0)
            #expect(note.count == 0)
            #expect(note.rating == 0)
            #expect(note.score == 0)
            #expect(note.isPinned == false)
            #expect(note.price == 0)
            #expect(note.payload == Data())
            // Where an optional declaration reads nil, a non-optional one reads a fixed value: never a trap.
            #expect(note.created == Date(timeIntervalSinceReferenceDate: 0))
            #expect(note.identifier.uuidString == "00000000-0000-0000-0000-000000000000")
            #expect(note.link.absoluteString == "about:blank")
            #expect(note.subtitle == nil)
            #expect(note.priorityOrNil == nil)
            #expect(note.countOrNil == nil)
            #expect(note.ratingOrNil == nil)
            #expect(note.isPinnedOrNil == nil)
            #expect(note.priceOrNil == nil)
            #expect(note.createdOrNil == nil)
            #expect(note.payloadOrNil == nil)
            #expect(note.identifierOrNil == nil)
            #expect(note.linkOrNil == nil)
            #expect(note.author == nil)
        }

        let writer = try store.open()
        try writer.performAndWait {
            let note = MacroNote(context: writer)
            note.title = "empty"
            expectUnset(note)
            try writer.save()
        }
        let reader = try store.open()
        try reader.performAndWait {
            let notes = try reader.fetch(NSFetchRequest<MacroNote>(entityName: "MacroNote"))
            try #require(notes.count == 1)
            expectUnset(notes[0])
        }
    }

    @Test("setting an optional @Managed property to nil clears the stored value")
    func clearingOptionals() throws {
        let store = try MacroStore()
        defer { store.remove() }

        let writer = try store.open()
        try writer.performAndWait {
            let note = MacroNote(context: writer)
            note.title = "to clear"
            note.subtitle = "gone soon"
            note.countOrNil = 3
            note.identifierOrNil = Self.identifier
            try writer.save()
            note.subtitle = nil
            note.countOrNil = nil
            note.identifierOrNil = nil
            #expect(note.hasChanges)
            try writer.save()
        }
        let reader = try store.open()
        try reader.performAndWait {
            let notes = try reader.fetch(NSFetchRequest<MacroNote>(entityName: "MacroNote"))
            try #require(notes.count == 1)
            #expect(notes[0].subtitle == nil)
            #expect(notes[0].countOrNil == nil)
            #expect(notes[0].identifierOrNil == nil)
            #expect(notes[0].value(forKey: "subtitle") == nil)
        }
    }

    @Test("a @Managed setter is a change the context tracks, visible through key-value coding")
    func settersAreChanges() throws {
        let store = try MacroStore()
        defer { store.remove() }

        let context = try store.open()
        try context.performAndWait {
            let note = MacroNote(context: context)
            note.title = "first"
            try context.save()
            #expect(!note.hasChanges)

            note.title = "second"
            note.priority = 3
            #expect(note.hasChanges)
            #expect(context.updatedObjects.contains(note))
            #expect(note.value(forKey: "title") as? String == "second")
            #expect((note.value(forKey: "priority") as? NSNumber)?.int16Value == 3)
            #expect(Set(note.changedValues().keys) == ["title", "priority"])

            note.setValue("third", forKey: "title")
            #expect(note.title == "third")
        }
    }

    @Test("a to-one relationship set through @Managed saves and fetches back, and its inverse to-many reads it")
    func toOneRoundTrip() throws {
        let store = try MacroStore()
        defer { store.remove() }

        let writer = try store.open()
        try writer.performAndWait {
            let ann = MacroAuthor(context: writer)
            ann.name = "Ann"
            try writer.save()
            for title in ["first", "second"] {
                let note = MacroNote(context: writer)
                note.title = title
                note.author = ann
                #expect(note.author === ann)
            }
            let orphan = MacroNote(context: writer)
            orphan.title = "orphan"
            try writer.save()
        }

        let reader = try store.open()
        try reader.performAndWait {
            let notes = try reader.fetch(NSFetchRequest<MacroNote>(entityName: "MacroNote"))
            let authorsByTitle = Dictionary(uniqueKeysWithValues: notes.map { ($0.title, $0.author?.name) })
            let expected: [String: String?] = ["first": "Ann", "second": "Ann", "orphan": .none]
            #expect(authorsByTitle == expected)

            let authors = try reader.fetch(NSFetchRequest<MacroAuthor>(entityName: "MacroAuthor"))
            try #require(authors.count == 1)
            #expect(Set(authors[0].notes.map(\.title)) == ["first", "second"])
        }
    }

    @Test("an unordered NSSet relationship (many-to-many) set through @Managed saves and fetches back from both sides")
    func manyToManyRoundTrip() throws {
        let store = try MacroStore()
        defer { store.remove() }

        let writer = try store.open()
        try writer.performAndWait {
            let work = MacroTag(context: writer)
            work.label = "work"
            let home = MacroTag(context: writer)
            home.label = "home"
            try writer.save()

            let first = MacroNote(context: writer)
            first.title = "first"
            first.tags = NSSet(array: [work, home])
            let second = MacroNote(context: writer)
            second.title = "second"
            second.tags = NSSet(array: [work])
            #expect(first.tags?.count == 2)
            try writer.save()
        }

        let reader = try store.open()
        try reader.performAndWait {
            let notes = try reader.fetch(NSFetchRequest<MacroNote>(entityName: "MacroNote"))
            let labelsByTitle = Dictionary(
                uniqueKeysWithValues: notes.map { note in
                    (note.title, Set((note.tags?.allObjects ?? []).compactMap { ($0 as? MacroTag)?.label }))
                })
            #expect(labelsByTitle == ["first": ["work", "home"], "second": ["work"]])

            let request = NSFetchRequest<MacroTag>(entityName: "MacroTag")
            request.predicate = NSPredicate(format: "label == %@", "work")
            let work = try #require(try reader.fetch(request).first)
            let titles = work.notes.allObjects.compactMap { ($0 as? MacroNote)?.title }
            #expect(Set(titles) == ["first", "second"])
        }
    }

    @Test("an ordered NSOrderedSet relationship set through @Managed keeps its order in the store")
    func orderedRoundTrip() throws {
        let store = try MacroStore()
        defer { store.remove() }

        let writer = try store.open()
        try writer.performAndWait {
            let ann = MacroAuthor(context: writer)
            ann.name = "Ann"
            let drafts = ["draft c", "draft a", "draft b"].map { title in
                let draft = MacroNote(context: writer)
                draft.title = title
                return draft
            }
            ann.drafts = NSOrderedSet(array: drafts)
            #expect(ann.drafts?.array.count == 3)
            try writer.save()
        }

        let reader = try store.open()
        try reader.performAndWait {
            let authors = try reader.fetch(NSFetchRequest<MacroAuthor>(entityName: "MacroAuthor"))
            try #require(authors.count == 1)
            let drafts = try #require(authors[0].drafts)
            #expect(drafts.array.compactMap { ($0 as? MacroNote)?.title } == ["draft c", "draft a", "draft b"])
            for case let draft as MacroNote in drafts.array {
                #expect(draft.draftOf === authors[0])
            }
        }
    }

    @Test("assigning a Set through @Managed replaces a to-many relationship")
    func replacingToMany() throws {
        let store = try MacroStore()
        defer { store.remove() }

        let writer = try store.open()
        try writer.performAndWait {
            let ann = MacroAuthor(context: writer)
            let notes = ["one", "two", "three"].map { title in
                let note = MacroNote(context: writer)
                note.title = title
                return note
            }
            ann.notes = Set(notes)
            try writer.save()
            ann.notes = Set(notes.filter { $0.title != "two" })
            try writer.save()
        }
        let reader = try store.open()
        try reader.performAndWait {
            let authors = try reader.fetch(NSFetchRequest<MacroAuthor>(entityName: "MacroAuthor"))
            try #require(authors.count == 1)
            #expect(Set(authors[0].notes.map(\.title)) == ["one", "three"])
        }
    }
}
