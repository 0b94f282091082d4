import OpenCoreData
import Testing

/// The third seed's Restaurant (`/work/shared/seeds/003_98d85a418275fd89.txt`), with `@Managed` where the
/// article writes `@NSManaged`.
final class Restaurant: NSManagedObject {
    @Managed var address: String?
    @Managed var name: String?
    @Managed var phoneNumber: String?
    @Managed var rating: Double
}

/// A SQLite store of the seed's restaurants, logging its SQL.
struct RestaurantStack {
    let directory = TemporaryDirectory()
    let recorder = SQLDebugLogRecorder()
    let context: NSManagedObjectContext

    init() throws {
        let entity = NSEntityDescription()
        entity.name = "Restaurant"
        entity.managedObjectClassName = NSStringFromClass(Restaurant.self)
        entity.properties = [
            ("address", NSAttributeType.stringAttributeType), ("name", .stringAttributeType),
            ("phoneNumber", .stringAttributeType), ("rating", .doubleAttributeType),
        ].map { name, type in
            let attribute = NSAttributeDescription()
            attribute.name = name
            attribute.attributeType = type
            attribute.isOptional = true
            return attribute
        }
        let model = NSManagedObjectModel()
        model.entities = [entity]
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        coordinator.sqlDebugLog = recorder.log(level: 1)
        try coordinator.addPersistentStore(type: .sqlite, at: directory.file("Restaurants.sqlite"))
        context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let context = context
        try context.performAndWait {
            for (name, rating) in [("Beijing", 4.5), ("Shanghai", 3.5), ("Xian", 3.9), ("Harbin", 2.0)] {
                let restaurant = Restaurant(context: context)
                restaurant.name = name
                restaurant.rating = rating
            }
            try context.save()
        }
        recorder.removeAll()
    }
}

@Suite("The third seed's #Predicate samples")
struct SeedTypedPredicateTests {
    @Test("`#Predicate<Restaurant> { $0.rating > 3.5 }` converts with NSPredicate(_:) and fetches in SQL")
    func restaurantRating() throws {
        let stack = try RestaurantStack()
        let p = #Predicate<Restaurant> {
            $0.rating > 3.5
        }

        let predicate = NSPredicate(p)
        #expect(predicate?.predicateFormat == "rating > 3.5")
        let request = NSFetchRequest<Restaurant>(entityName: "Restaurant")
        request.predicate = predicate
        request.sortDescriptors = [NSSortDescriptor(SortDescriptor(\Restaurant.rating, order: .reverse))]
        let context = stack.context
        let names = try context.performAndWait { try context.fetch(request).map(\.name) }
        #expect(names == ["Beijing", "Xian"])
        let selects = stack.recorder.statements.filter { $0.hasPrefix("SELECT") && $0.contains("ZRESTAURANT") }
        #expect(selects.count == 1)
        #expect(selects.first?.contains("ZRATING > ?") == true)
    }

    @Test("the trip predicate the article writes for SwiftData converts for Core Data and fetches in SQL")
    func tripPredicate() throws {
        let stack = try TripStack()
        let today = Date()
        try stack.seed(today: today)
        let tripPredicate = #Predicate<Trip> {
            $0.destination == "New York" && $0.name.contains("birthday") && $0.startDate > today
        }
        let predicate = try #require(NSPredicate(tripPredicate))
        #expect(
            predicate.predicateFormat
                == NSPredicate(format: "(destination == 'New York' AND name CONTAINS 'birthday') AND startDate > %@", today).predicateFormat)
        let request = NSFetchRequest<Trip>(entityName: "Trip")
        request.predicate = predicate
        let context = stack.context()
        let names = try context.performAndWait { try context.fetch(request).map(\.name).sorted() }
        #expect(names == ["Ann's birthday", "Bob's birthday"])
        let selects = stack.recorder.statements.filter { $0.hasPrefix("SELECT") && $0.contains("ZTRIP") }
        #expect(selects.count == 1)
    }
}
