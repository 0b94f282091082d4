import ArgumentParser
import OpenCoreData

/// `ocd demo`: the README's main job.
///
/// Builds the first seed's User/Post model, opens a SQLite store for it (in the current directory unless
/// told otherwise; `--store postgres://user:password@host:port/database` opens a PostgreSQL store
/// instead), replaces its contents with a few hundred users and their posts, and runs the seed's
/// queries through fetch requests, printing results and timings. Running it again starts from the store
/// the last run left.
struct Demo: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Build the first seed's User/Post store and run the seed's queries on it."
    )

    @Option(
        name: .customLong("store"),
        help: "The SQLite store file to use, or a PostgreSQL server's postgres://user:password@host:port/database URL.")
    var storePath: String = "ocd-demo.sqlite"

    @Flag(help: "Keep the store in memory instead of a SQLite file.")
    var inMemory = false

    @Option(help: "How many users to insert (user i has i % 10 posts).")
    var users: Int = 300

    @Flag(help: "Also print the model as a tree with its version hashes.")
    var showModel = false

    func validate() throws {
        guard (1...1_000_000).contains(users) else {
            throw ValidationError("--users must be between 1 and 1000000.")
        }
    }

    func run() throws {
        let model = DemoModel.make()
        if showModel {
            print(model.treeDescription, terminator: "")
            for (entity, hash) in model.entityVersionHashesByName.sorted(by: { $0.key < $1.key }) {
                print("  versionHash \(entity): \(hash.map { String(format: "%02x", $0) }.joined())")
            }
            print("")
        }

        let store = try DemoStore(argument: storePath, inMemory: inMemory)
        let container = try DemoStack.open(model: model, store: store)
        let context = container.viewContext
        print("Store: \(store.displayName(of: container.persistentStoreCoordinator.persistentStores.first))")

        let found = try DemoTiming.measure("read what an earlier run left") {
            try context.count(for: NSFetchRequest<NSFetchRequestResult>(entityName: "User"))
        }
        print("  \(found) user(s) from an earlier run")
        if found > 0 {
            try DemoTiming.measure("delete them") { try DemoData.deleteAll(in: context) }
        }
        let inserted = try DemoTiming.measure("insert \(users) users with posts and save") {
            try DemoData.insert(users: users, into: context)
        }
        print("  \(inserted.users) users, \(inserted.posts) posts saved\n")

        for query in DemoQueries.all {
            try query.run(in: context)
        }
    }
}

/// Opening the demo's Core Data stack.
enum DemoStack {
    static func open(model: NSManagedObjectModel, store: DemoStore) throws -> NSPersistentContainer {
        let container = NSPersistentContainer(name: "Demo", managedObjectModel: model)
        container.persistentStoreDescriptions = [store.description()]
        var failure: (any Error)?
        container.loadPersistentStores { _, error in failure = error }
        if let failure { throw failure }
        return container
    }
}

/// Wall-clock timing of the demo's steps.
enum DemoTiming {
    @discardableResult
    static func measure<T>(_ label: String, _ work: () throws -> T) throws -> T {
        let clock = ContinuousClock()
        let start = clock.now
        let value = try work()
        print("\(label): \(clock.now - start)")
        return value
    }
}
