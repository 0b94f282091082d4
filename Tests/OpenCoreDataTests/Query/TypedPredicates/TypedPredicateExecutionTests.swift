import OpenCoreData
import Testing

/// A predicate converted from `#Predicate` runs wherever a format-string predicate runs, and gives the
/// same objects there: pending changes, the in-memory store, a fetched results controller and
/// `filtered(using:)`.
@Suite("Typed predicates run wherever format-string predicates run")
struct TypedPredicateExecutionTests {
    /// Trips of more than two nights in New York, latest first, as a typed predicate and sort, and as
    /// the format string and descriptor that say the same.
    private static let typed = #Predicate<Trip> { $0.destination == "New York" && $0.nights > 2 }
    private static let format = NSPredicate(format: "destination == %@ AND nights > 2", "New York")

    private static func converted() throws -> NSPredicate {
        try #require(NSPredicate(typed))
    }

    private static func request(_ predicate: NSPredicate) -> NSFetchRequest<Trip> {
        let request = NSFetchRequest<Trip>(entityName: "Trip")
        request.predicate = predicate
        request.sortDescriptors = [NSSortDescriptor(SortDescriptor(\Trip.startDate, order: .reverse))]
        return request
    }

    @Test("a fetch that includes pending changes applies the converted predicate to unsaved objects")
    func pendingChanges() throws {
        let stack = try TripStack()
        let today = Date()
        try stack.seed(today: today)
        let context = stack.context()
        let (typedNames, formatNames) = try context.performAndWait {
            let added = Trip(context: context)
            added.destination = "New York"
            added.name = "Unsaved"
            added.startDate = today.addingTimeInterval(10 * 86_400)
            added.nights = 7
            let changed = try #require(try context.fetch(Self.request(Self.format)).first { $0.name == "Ann's birthday" })
            changed.nights = 1
            return (
                try context.fetch(Self.request(Self.converted())).map(\.name),
                try context.fetch(Self.request(Self.format)).map(\.name)
            )
        }
        #expect(typedNames == ["Unsaved", "Bob's birthday"])
        #expect(typedNames == formatNames)
    }

    @Test("the in-memory store evaluates the converted predicate as the SQLite store runs it")
    func inMemoryStore() throws {
        let sqlite = try TripStack()
        try sqlite.seed(today: Date(timeIntervalSinceReferenceDate: 0))
        let source = sqlite.context()
        let request = try Self.request(Self.converted())
        let fromSQLite = try source.performAndWait { try source.fetch(request).map(\.name) }
        let rows = try source.performAndWait {
            try source.fetch(NSFetchRequest<Trip>(entityName: "Trip")).map { ($0.destination, $0.name, $0.startDate, $0.nights) }
        }

        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: TripStack.model())
        try coordinator.addPersistentStore(type: .inMemory, at: URL(fileURLWithPath: "/dev/null"))
        let memory = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        memory.persistentStoreCoordinator = coordinator
        let fromMemory = try memory.performAndWait {
            for (destination, name, startDate, nights) in rows {
                let copy = Trip(context: memory)
                copy.destination = destination
                copy.name = name
                copy.startDate = startDate
                copy.nights = nights
            }
            try memory.save()
            memory.reset()
            return try memory.fetch(request).map(\.name)
        }
        #expect(fromSQLite == ["Bob's birthday", "Ann's birthday"])
        #expect(fromMemory == fromSQLite)
    }

    @Test("a fetched results controller fetches and tracks changes with the converted predicate")
    func fetchedResultsController() throws {
        let stack = try TripStack()
        let today = Date()
        try stack.seed(today: today)
        let context = stack.context()
        let request = try Self.request(Self.converted())
        let delegate = ContentChangeCounter()
        let (first, afterSave, changes) = try context.performAndWait {
            let controller = NSFetchedResultsController(
                fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: nil, cacheName: nil)
            controller.delegate = delegate
            try controller.performFetch()
            let first = controller.fetchedObjects?.map(\.name)
            let trip = Trip(context: context)
            trip.destination = "New York"
            trip.name = "Later"
            trip.startDate = today.addingTimeInterval(20 * 86_400)
            trip.nights = 3
            let excluded = Trip(context: context)
            excluded.destination = "Paris"
            excluded.name = "Elsewhere"
            excluded.startDate = today.addingTimeInterval(30 * 86_400)
            excluded.nights = 9
            try context.save()
            return (first, controller.fetchedObjects?.map(\.name), delegate.changes)
        }
        #expect(first == ["Bob's birthday", "Ann's birthday"])
        #expect(afterSave == ["Later", "Bob's birthday", "Ann's birthday"])
        #expect(changes >= 1)
    }

    @Test("filtered(using:) keeps the elements the converted predicate accepts, as for the format string")
    func filteredUsing() throws {
        let stack = try TripStack()
        try stack.seed(today: Date())
        let context = stack.context()
        try context.performAndWait {
            let trips = try context.fetch(NSFetchRequest<Trip>(entityName: "Trip"))
            let typedNames = trips.filtered(using: try Self.converted()).map(\.name).sorted()
            #expect(typedNames == ["Ann's birthday", "Bob's birthday"])
            #expect(typedNames == trips.filtered(using: Self.format).map(\.name).sorted())
            #expect(Set(trips).filtered(using: try Self.converted()).count == 2)
        }
    }
}

/// Counts the content changes a fetched results controller reports.
private final class ContentChangeCounter: NSObject, NSFetchedResultsControllerDelegate {
    var changes = 0

    func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {
        changes += 1
    }
}
