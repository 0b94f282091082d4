import Foundation
import OpenCoreData
import OpenCoreDataPostgreSQL
import Testing

/// The server the tests use, a new PostgreSQL schema per test, and a small model.
enum PostgreSQLTestKit {
    /// The server's URL, from `OPENCOREDATA_POSTGRES_URL` (`Scripts/with-postgres.sh` sets it), or from its
    /// short alias `OCD_POSTGRES_URL`.
    static var serverURL: String? {
        let environment = ProcessInfo.processInfo.environment
        for name in ["OPENCOREDATA_POSTGRES_URL", "OCD_POSTGRES_URL"] {
            if let value = environment[name], !value.isEmpty { return value }
        }
        return nil
    }

    /// Whether the tests run: with a server, and always under CI (where a missing server fails them).
    static var enabled: Bool { serverURL != nil || ProcessInfo.processInfo.environment["CI"] == "true" }

    static let reason: Comment = "needs a PostgreSQL server: run Scripts/with-postgres.sh swift test --filter OpenCoreDataPostgreSQLTests"

    /// The server's URL; fails the test with how to get one when there is none.
    static func server() throws -> URL {
        let text = try #require(serverURL, "OPENCOREDATA_POSTGRES_URL is not set: run the tests through Scripts/with-postgres.sh")
        return try #require(URL(string: text))
    }

    /// A store URL naming a new schema of its own.
    static func newStoreURL() throws -> URL {
        var components = try #require(URLComponents(url: try server(), resolvingAgainstBaseURL: false))
        components.queryItems = [URLQueryItem(name: "schema", value: "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: ""))]
        return try #require(components.url)
    }

    /// Person (name, age, score, joined, active, photo, uuid, balance; notes, tags), Note (text, rank;
    /// owner, tags), Tag (label; notes), and Employee, a subentity of Person (salary).
    static func model(extraAttribute: String? = nil) -> NSManagedObjectModel {
        func attribute(_ name: String, _ type: NSAttributeType) -> NSAttributeDescription {
            let attribute = NSAttributeDescription()
            attribute.name = name
            attribute.attributeType = type
            attribute.isOptional = true
            return attribute
        }
        func relationship(_ name: String, to destination: NSEntityDescription, toMany: Bool) -> NSRelationshipDescription {
            let relationship = NSRelationshipDescription()
            relationship.name = name
            relationship.destinationEntity = destination
            relationship.maxCount = toMany ? 0 : 1
            relationship.isOptional = true
            return relationship
        }
        func entity(_ name: String, _ properties: [NSPropertyDescription]) -> NSEntityDescription {
            let entity = NSEntityDescription()
            entity.name = name
            entity.managedObjectClassName = "NSManagedObject"
            entity.properties = properties
            return entity
        }
        var personAttributes = [
            attribute("name", .stringAttributeType), attribute("age", .integer64AttributeType),
            attribute("score", .doubleAttributeType), attribute("joined", .dateAttributeType),
            attribute("active", .booleanAttributeType), attribute("photo", .binaryDataAttributeType),
            attribute("uuid", .UUIDAttributeType), attribute("balance", .decimalAttributeType),
            attribute("level", .integer16AttributeType),
        ]
        if let extraAttribute { personAttributes.append(attribute(extraAttribute, .stringAttributeType)) }
        let person = entity("Person", personAttributes)
        let employee = entity("Employee", [attribute("salary", .integer32AttributeType)])
        person.subentities = [employee]
        let note = entity("Note", [attribute("text", .stringAttributeType), attribute("rank", .integer32AttributeType)])
        let tag = entity("Tag", [attribute("label", .stringAttributeType)])
        let notes = relationship("notes", to: note, toMany: true)
        let owner = relationship("owner", to: person, toMany: false)
        notes.inverseRelationship = owner
        owner.inverseRelationship = notes
        notes.deleteRule = .cascadeDeleteRule
        let tags = relationship("tags", to: tag, toMany: true)
        let tagNotes = relationship("notes", to: note, toMany: true)
        tags.inverseRelationship = tagNotes
        tagNotes.inverseRelationship = tags
        person.properties += [notes]
        note.properties += [owner, tags]
        tag.properties += [tagNotes]
        let model = NSManagedObjectModel()
        model.entities = [person, employee, note, tag]
        return model
    }

    /// A coordinator of `model` with the PostgreSQL store at `url` added.
    static func open(_ url: URL, model: NSManagedObjectModel = model()) throws -> NSPersistentStoreCoordinator {
        PostgreSQLStore.register()
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        _ = try coordinator.addPersistentStore(type: .postgreSQL, at: url)
        return coordinator
    }

    static func context(_ coordinator: NSPersistentStoreCoordinator) -> NSManagedObjectContext {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    /// Saves Ann (31), Bo (22), Cy (45), Émile (38, an employee) and Dee (no age), two notes each with the
    /// tag "urgent" on each first note; returns a store opened afresh by a new coordinator.
    static func seeded() throws -> (URL, NSPersistentStoreCoordinator) {
        let url = try newStoreURL()
        try seed(try open(url))
        return (url, try open(url))
    }

    /// Saves the people and notes of ``seeded()`` through a coordinator of ``model(extraAttribute:)``,
    /// whatever its store.
    static func seed(_ writer: NSPersistentStoreCoordinator) throws {
        let context = context(writer)
        try context.performAndWait { () throws -> Void in
            let urgent = NSEntityDescription.insertNewObject(forEntityName: "Tag", into: context)
            urgent.setValue("urgent", forKey: "label")
            let people: [(String, Int64?, Double, String)] = [
                ("Ann", 31, 4.5, "Person"), ("Bo", 22, 3.0, "Person"), ("Cy", 45, 5.0, "Person"),
                ("Émile", 38, 4.0, "Employee"), ("Dee", nil, 1.0, "Person"),
            ]
            for (name, age, score, entity) in people {
                let person = NSEntityDescription.insertNewObject(forEntityName: entity, into: context)
                person.setValue(name, forKey: "name")
                person.setValue(age, forKey: "age")
                person.setValue(score, forKey: "score")
                person.setValue(Date(timeIntervalSinceReferenceDate: Double(age ?? 0) * 1000.25), forKey: "joined")
                if entity == "Employee" { person.setValue(Int32(5000), forKey: "salary") }
                for index in 1...2 {
                    let note = NSEntityDescription.insertNewObject(forEntityName: "Note", into: context)
                    note.setValue("\(name) note \(index)", forKey: "text")
                    note.setValue(Int32(index), forKey: "rank")
                    note.setValue(person, forKey: "owner")
                    if index == 1 { note.setValue(Set([urgent]), forKey: "tags") }
                }
            }
            try context.save()
        }
    }

    /// Runs `psql` on the store's database and returns its unaligned output (through ``HelperProcess``:
    /// its output goes to files, never to a pipe that could fill up).
    static func psql(_ sql: String) throws -> String {
        let outcome = try HelperProcess.run(
            "/usr/bin/psql", [try server().absoluteString, "-X", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-c", sql])
        #expect(outcome.status == 0, "psql failed on \(sql): \(outcome.errors)")
        return outcome.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The schema a store URL names.
    static func schema(of url: URL) -> String {
        URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "schema" }?.value ?? "public"
    }
}
