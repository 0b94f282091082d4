import OpenCoreData

final class Trip: NSManagedObject {
    @Managed var destination: String
    @Managed var name: String
    @Managed var startDate: Date
    @Managed var nights: Int64
    @Managed var note: String?
    @Managed var traveler: Traveler?
}

final class Traveler: NSManagedObject {
    @Managed var name: String?
    @Managed var trips: Set<Trip>
}

/// A SQLite store of trips and travelers in a temporary directory, logging its SQL.
struct TripStack {
    let directory = TemporaryDirectory()
    let recorder = SQLDebugLogRecorder()
    let coordinator: NSPersistentStoreCoordinator

    init() throws {
        coordinator = NSPersistentStoreCoordinator(managedObjectModel: TripStack.model())
        coordinator.sqlDebugLog = recorder.log(level: 1)
        try coordinator.addPersistentStore(type: .sqlite, at: directory.file("Trips.sqlite"))
    }

    func context() -> NSManagedObjectContext {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    static func model() -> NSManagedObjectModel {
        func attribute(_ name: String, _ type: NSAttributeType) -> NSAttributeDescription {
            let attribute = NSAttributeDescription()
            attribute.name = name
            attribute.attributeType = type
            attribute.isOptional = true
            return attribute
        }
        let trip = NSEntityDescription()
        trip.name = "Trip"
        trip.managedObjectClassName = NSStringFromClass(Trip.self)
        let traveler = NSEntityDescription()
        traveler.name = "Traveler"
        traveler.managedObjectClassName = NSStringFromClass(Traveler.self)
        let tripTraveler = NSRelationshipDescription()
        tripTraveler.name = "traveler"
        tripTraveler.destinationEntity = traveler
        tripTraveler.maxCount = 1
        tripTraveler.isOptional = true
        let travelerTrips = NSRelationshipDescription()
        travelerTrips.name = "trips"
        travelerTrips.destinationEntity = trip
        travelerTrips.maxCount = 0
        travelerTrips.isOptional = true
        tripTraveler.inverseRelationship = travelerTrips
        travelerTrips.inverseRelationship = tripTraveler
        trip.properties = [
            attribute("destination", .stringAttributeType), attribute("name", .stringAttributeType),
            attribute("startDate", .dateAttributeType), attribute("nights", .integer64AttributeType),
            attribute("note", .stringAttributeType), tripTraveler,
        ]
        traveler.properties = [attribute("name", .stringAttributeType), travelerTrips]
        let model = NSManagedObjectModel()
        model.entities = [trip, traveler]
        return model
    }

    /// Saves four trips, then forgets the SQL that logged.
    func seed(today: Date) throws {
        let context = context()
        try context.performAndWait {
            let ann = Traveler(context: context)
            ann.name = "Ann"
            let rows: [(String, String, TimeInterval, Int64)] = [
                ("New York", "Ann's birthday", 86_400, 3),
                ("New York", "Bob's birthday", 2 * 86_400, 5),
                ("New York", "Conference", 3 * 86_400, 2),
                ("Paris", "Another birthday", 4 * 86_400, 4),
                ("New York", "Old birthday", -86_400, 1),
            ]
            for (destination, name, offset, nights) in rows {
                let trip = Trip(context: context)
                trip.destination = destination
                trip.name = name
                trip.startDate = today.addingTimeInterval(offset)
                trip.nights = nights
                if nights > 2 { trip.traveler = ann }
            }
            try context.save()
        }
        recorder.removeAll()
    }
}
