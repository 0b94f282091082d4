import ArgumentParser
import OpenCoreData

/// `ocd demo`: the README's main job.
///
/// Until the SQLite store lands, the demo shows the two layers that exist: it builds the first seed's
/// User/Post model, prints it with its version hashes, and runs the seed's queries in memory over a
/// few hundred generated users and posts.
struct Demo: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Build the first seed's User/Post model, show it, and run the seed's queries."
    )

    @Option(help: "How many users to generate (each has 0 to 9 posts).")
    var users: Int = 300

    func validate() throws {
        guard (1...1_000_000).contains(users) else {
            throw ValidationError("--users must be between 1 and 1000000.")
        }
    }

    func run() throws {
        let model = DemoModel.make()
        print("== The model (first seed: User ⇄ Post)\n")
        print(model.treeDescription, terminator: "")
        print("\n== Version hashes")
        for (entity, hash) in model.entityVersionHashesByName.sorted(by: { $0.key < $1.key }) {
            print("  \(entity): \(hash.map { String(format: "%02x", $0) }.joined())")
        }
        print("  versionChecksum: \(model.versionChecksum)")

        let data = DemoData.generate(users: users)
        print("\n== Queries from the seed, evaluated in memory over \(data.count) users\n")
        for query in DemoQueries.all {
            try query.run(on: data)
        }
    }
}
