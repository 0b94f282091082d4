import OpenCoreData
import Testing

final class Shelf: NSManagedObject {
    @Managed var name: String
    @Managed var volumes: [Volume]
    @Managed var picks: [Volume]
    @Managed var counts: [Int]?
}

final class Volume: NSManagedObject {
    @Managed var title: String
    @Managed var pages: Int64
    @Managed var shelf: Shelf?
    @Managed var pickedBy: Set<Shelf>
}

/// Shelves with ordered to-many relationships — `volumes` kept by its inverse's key and `Z_FOK_` order
/// column, `picks` a many-to-many join table with an order column — and a transformable array.
struct ShelfStack {
    let directory = TemporaryDirectory()
    let coordinator: NSPersistentStoreCoordinator

    init() throws {
        coordinator = NSPersistentStoreCoordinator(managedObjectModel: ShelfStack.model())
        try coordinator.addPersistentStore(type: .sqlite, at: directory.file("Shelves.sqlite"))
        let context = self.context()
        try context.performAndWait {
            var volumes: [Volume] = []
            for (index, title) in ["Alpha", "beta", "Gamma", "delta", "Epsilon", "zeta", "Eta", "theta"].enumerated() {
                let volume = Volume(context: context)
                volume.title = title
                volume.pages = Int64((index * 37) % 11 * 10 + 5)
                volumes.append(volume)
            }
            // The order deliberately differs from the insertion order.
            let layouts: [(String, [Int], [Int], [Int]?)] = [
                ("Full", [3, 0, 5], [7, 1], [4, 9, 2]),
                ("Single", [6], [], [1]),
                ("Empty", [], [2, 5, 0], nil),
                ("Pair", [1, 7], [3], []),
            ]
            for (name, owned, picked, counts) in layouts {
                let shelf = Shelf(context: context)
                shelf.name = name
                shelf.volumes = owned.map { volumes[$0] }
                shelf.picks = picked.map { volumes[$0] }
                shelf.counts = counts
            }
            try context.save()
        }
    }

    func context() -> NSManagedObjectContext {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    static func model() -> NSManagedObjectModel {
        func attribute(_ name: String, _ type: NSAttributeType, optional: Bool = false) -> NSAttributeDescription {
            let attribute = NSAttributeDescription()
            attribute.name = name
            attribute.attributeType = type
            attribute.isOptional = optional
            return attribute
        }
        func relationship(_ name: String, _ destination: NSEntityDescription, toMany: Bool, ordered: Bool = false) -> NSRelationshipDescription {
            let relationship = NSRelationshipDescription()
            relationship.name = name
            relationship.destinationEntity = destination
            relationship.maxCount = toMany ? 0 : 1
            relationship.isOptional = true
            relationship.isOrdered = ordered
            return relationship
        }
        let shelf = NSEntityDescription()
        shelf.name = "Shelf"
        shelf.managedObjectClassName = NSStringFromClass(Shelf.self)
        let volume = NSEntityDescription()
        volume.name = "Volume"
        volume.managedObjectClassName = NSStringFromClass(Volume.self)
        let volumes = relationship("volumes", volume, toMany: true, ordered: true)
        let owner = relationship("shelf", shelf, toMany: false)
        volumes.inverseRelationship = owner
        owner.inverseRelationship = volumes
        let picks = relationship("picks", volume, toMany: true, ordered: true)
        let pickedBy = relationship("pickedBy", shelf, toMany: true)
        picks.inverseRelationship = pickedBy
        pickedBy.inverseRelationship = picks
        let counts = attribute("counts", .transformableAttributeType, optional: true)
        shelf.properties = [attribute("name", .stringAttributeType), volumes, picks, counts]
        volume.properties = [attribute("title", .stringAttributeType), attribute("pages", .integer64AttributeType), owner, pickedBy]
        let model = NSManagedObjectModel()
        model.entities = [shelf, volume]
        return model
    }
}

/// Subscripts of ordered to-many relationships (`first`, `last`, `[n]`: `objectFrom:withIndex:`) and the
/// statistics of a to-many's values (`@max.#self`, `@min.#self`) run in SQL and agree with in-memory
/// evaluation; where the store keeps no order or no column, the fetch throws 134091.
@Suite("Typed predicates over ordered relationships and collection statistics, in SQL")
struct TypedPredicateCollectionFetchTests {
    /// The names of the objects the SQL fetch, the predicate in memory and (when given) Foundation's own
    /// evaluation select; each must agree with the others.
    static func expectAgreement<T: NSManagedObject>(
        _ predicate: NSPredicate, typed: Predicate<T>? = nil, entity: String, key: String,
        in context: NSManagedObjectContext, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Set<String> {
        let request = NSFetchRequest<T>(entityName: entity)
        request.predicate = predicate
        let fetched = Set(try context.fetch(request).compactMap { $0.value(forKey: key) as? String })
        let all = try context.fetch(NSFetchRequest<T>(entityName: entity))
        let inMemory = Set(all.filter { predicate.evaluate(with: $0) }.compactMap { $0.value(forKey: key) as? String })
        #expect(fetched == inMemory, "SQL and in-memory differ for \(predicate.predicateFormat)", sourceLocation: sourceLocation)
        if let typed {
            let foundation = Set(try all.filter { try typed.evaluate($0) }.compactMap { $0.value(forKey: key) as? String })
            #expect(fetched == foundation, "SQL and Predicate.evaluate differ for \(predicate.predicateFormat)", sourceLocation: sourceLocation)
        }
        return fetched
    }

    /// The code of the error a fetch with `predicate` throws, or `nil`.
    static func fetchErrorCode(_ predicate: NSPredicate, entity: String, in context: NSManagedObjectContext) -> Int? {
        let request = NSFetchRequest<NSManagedObject>(entityName: entity)
        request.predicate = predicate
        do {
            _ = try context.fetch(request)
            return nil
        } catch {
            return (error as NSError).code
        }
    }

    @Test("first and last of an ordered to-many kept by its inverse's key, typed and as format strings")
    func firstAndLast() throws {
        let stack = try ShelfStack()
        let context = stack.context()
        try context.performAndWait {
            let title = "delta"
            let first = #Predicate<Shelf> { $0.volumes.first?.title == title }
            #expect(try NSPredicate(converting: first).predicateFormat == "TERNARY(volumes[0] != nil, volumes[0].title, nil) == \"delta\"")
            #expect(try Self.expectAgreement(try NSPredicate(converting: first), typed: first, entity: "Shelf", key: "name", in: context) == ["Full"])

            let pages: Int64 = 40
            let last = #Predicate<Shelf> { ($0.volumes.last?.pages ?? 0) > pages }
            let lastSelected = try Self.expectAgreement(try NSPredicate(converting: last), typed: last, entity: "Shelf", key: "name", in: context)
            #expect(!lastSelected.isEmpty)

            let none = #Predicate<Shelf> { $0.volumes.first == nil }
            #expect(try Self.expectAgreement(try NSPredicate(converting: none), typed: none, entity: "Shelf", key: "name", in: context) == ["Empty"])

            #expect(
                try Self.expectAgreement(NSPredicate(format: "volumes[1].title == 'Alpha'"), entity: "Shelf", key: "name", in: context) as Set<String>
                    == ["Full"])
            #expect(
                try Self.expectAgreement(NSPredicate(format: "volumes[-2].title == 'beta'"), entity: "Shelf", key: "name", in: context) as Set<String>
                    == ["Pair"])
            #expect(
                try Self.expectAgreement(NSPredicate(format: "volumes[LAST].title == 'zeta'"), entity: "Shelf", key: "name", in: context)
                    as Set<String> == ["Full"])
            #expect(try Self.expectAgreement(NSPredicate(format: "volumes[5] == nil"), entity: "Shelf", key: "name", in: context).count == 4)
        }
    }

    @Test("subscripts of an ordered many-to-many join table, and through a subscripted object's to-one")
    func joinTableSubscripts() throws {
        let stack = try ShelfStack()
        let context = stack.context()
        try context.performAndWait { () throws -> Void in
            let first = #Predicate<Shelf> { $0.picks.first?.title == "Gamma" }
            #expect(
                try Self.expectAgreement(try NSPredicate(converting: first), typed: first, entity: "Shelf", key: "name", in: context) == ["Empty"])
            #expect(
                try Self.expectAgreement(NSPredicate(format: "picks[LAST].title == 'Alpha'"), entity: "Shelf", key: "name", in: context)
                    as Set<String> == ["Empty"])
            #expect(
                try Self.expectAgreement(NSPredicate(format: "picks[0].shelf.name == 'Full'"), entity: "Shelf", key: "name", in: context)
                    as Set<String> == ["Pair"])
        }
    }

    @Test("subscripts the store cannot compute throw 134091: an unordered relationship, a variable index")
    func unsupportedSubscripts() throws {
        let stack = try ShelfStack()
        let context = stack.context()
        context.performAndWait {
            let unsupported = NSPersistentStoreUnsupportedRequestTypeError
            #expect(Self.fetchErrorCode(NSPredicate(format: "pickedBy[0].name == 'Full'"), entity: "Volume", in: context) == unsupported)
            #expect(Self.fetchErrorCode(NSPredicate(format: "volumes[pages].title == 'x'"), entity: "Shelf", in: context) == unsupported)
            #expect(Self.fetchErrorCode(NSPredicate(format: "counts[0] == 4"), entity: "Shelf", in: context) == unsupported)
        }
    }

    @Test("max() and min() convert as Apple's conversion does, and statistics of a to-many's values run in SQL")
    func statistics() throws {
        let stack = try ShelfStack()
        let context = stack.context()
        try context.performAndWait {
            let limit = 5
            let typed = #Predicate<Shelf> { ($0.counts?.max() ?? 0) > limit }
            let converted = try NSPredicate(converting: typed)
            #expect(converted.predicateFormat.contains("counts.@max.#self"))
            let shelves = try context.fetch(NSFetchRequest<Shelf>(entityName: "Shelf"))
            let inMemory = Set(shelves.filter { converted.evaluate(with: $0) }.map(\.name))
            #expect(inMemory == Set(try shelves.filter { try typed.evaluate($0) }.map(\.name)))
            #expect(inMemory == ["Full"])
            // A transformable array has no column to aggregate.
            #expect(Self.fetchErrorCode(converted, entity: "Shelf", in: context) == NSPersistentStoreUnsupportedRequestTypeError)

            for format in [
                "volumes.pages.@max.#self > 60", "volumes.pages.@min.#self < 30", "picks.pages.@max.#self == picks.@max.pages",
                "volumes.pages.@sum.#self > 100", "volumes.pages.@avg.#self >= 40",
            ] {
                _ = try Self.expectAgreement(NSPredicate(format: format), entity: "Shelf", key: "name", in: context) as Set<String>
            }
            #expect(
                Self.fetchErrorCode(NSPredicate(format: "volumes.@max.#self != nil"), entity: "Shelf", in: context)
                    == NSPersistentStoreUnsupportedRequestTypeError)
        }
    }
}
