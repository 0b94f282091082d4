import OpenCoreData
import Testing

/// `ocd query` run as a process against a copy of an Apple-written store (CoreDataPlus's SampleModel:
/// Person, Car with subentities SportCar and ExpensiveSportCar).
@Suite("ocd query")
struct QueryCommandTests {
    /// The `ocd` executable SwiftPM built next to the test bundle.
    static func executable() throws -> URL {
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var directory = testBinary.deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("ocd")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        let root = Fixtures.packageRoot
        let fallback = root.appendingPathComponent(".build/debug/ocd")
        try #require(FileManager.default.isExecutableFile(atPath: fallback.path), "ocd is built with the tests")
        return fallback
    }

    /// A copy of the SampleModel_V1 store and its model bundle.
    static func sample() throws -> (directory: URL, store: URL, model: URL) {
        let source = Fixtures.stores.appendingPathComponent("alemar11__CoreDataPlus__SampleModel_V1")
        let directory = try Fixtures.temporaryDirectory()
        let store = directory.appendingPathComponent("SampleModel_V1.sqlite")
        try FileManager.default.copyItem(at: source.appendingPathComponent("SampleModel_V1.sqlite"), to: store)
        return (directory, store, source.appendingPathComponent("SampleModel.xcdatamodeld"))
    }

    /// Runs `ocd query` with arguments; returns the exit status, standard output and standard error.
    static func run(_ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
        let result = try StoreProcesses.ocd(["query"] + arguments)
        return (result.status, result.output, result.error)
    }

    @Test("a predicate, a sort and a limit print a table of the chosen properties")
    func table() throws {
        let (directory, store, model) = try Self.sample()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try Self.run([
            store.path, "--model", model.path, "--entity", "Person",
            "--predicate", "lastName == 'Gleaves' OR lastName == 'Moreton'",
            "--sort", "lastName,-firstName", "--limit", "3",
            "--properties", "firstName,lastName,cars.@count",
        ])
        #expect(result.status == 0, "\(result.error)")
        #expect(
            result.output == """
                firstName | lastName | cars.@count
                ----------+----------+------------
                Vaughn    | Gleaves  | 0
                Lorayne   | Gleaves  | 0
                Faron     | Moreton  | 2
                (3 rows)

                """)
    }

    @Test("without --model the store's own cached model is used")
    func cachedModel() throws {
        let (directory, store, _) = try Self.sample()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try Self.run([
            store.path, "--entity", "Person",
            "--predicate", "lastName == 'Gleaves' OR lastName == 'Moreton'",
            "--sort", "lastName,-firstName", "--limit", "3",
            "--properties", "firstName,lastName,cars.@count",
        ])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.hasPrefix("firstName | lastName | cars.@count"))
        #expect(result.output.contains("Faron     | Moreton  | 2"))
        let old = directory.appendingPathComponent("Recipes.sqlite")
        try FileManager.default.copyItem(at: Fixtures.stores.appendingPathComponent("magicalpanda__MagicalRecord__Recipes/Recipes.sqlite"), to: old)
        let refused = try Self.run([old.path, "--entity", "Recipe"])
        #expect(refused.status != 0)
        #expect(refused.error.contains("no model cache"))
    }

    @Test("--group-by counts rows per group (subentity rows included); --json prints objects in property order")
    func groupedJSON() throws {
        let (directory, store, model) = try Self.sample()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try Self.run([
            store.path, "--model", model.path, "--entity", "Car",
            "--group-by", "maker", "--sort=-count,maker", "--limit", "4", "--json",
        ])
        #expect(result.status == 0, "\(result.error)")
        #expect(
            result.output == """
                [
                  {"maker": "FIAT", "count": 103},
                  {"maker": "Kia", "count": 4},
                  {"maker": "Alfa Romeo", "count": 3},
                  {"maker": "Renault", "count": 3}
                ]

                """)
    }

    @Test("expressions in --properties: the @count of a to-many relationship per row, also as a sort key")
    func expressions() throws {
        let (directory, store, model) = try Self.sample()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try Self.run([
            store.path, "--model", model.path, "--entity", "Person",
            "--properties", "firstName,lastName,cars.@count", "--sort=-cars.@count,lastName",
            "--limit", "3", "--json",
        ])
        #expect(result.status == 0, "\(result.error)")
        #expect(
            result.output == """
                [
                  {"firstName": "Theodora", "lastName": "Stone", "cars.@count": 100},
                  {"firstName": "Juliana", "lastName": "Pyke", "cars.@count": 3},
                  {"firstName": "Ross", "lastName": "Hurowitz", "cars.@count": 2}
                ]

                """)
    }

    @Test("a bad predicate prints the parser's message and position and exits non-zero")
    func badPredicate() throws {
        let (directory, store, model) = try Self.sample()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try Self.run([store.path, "--model", model.path, "--entity", "Person", "--predicate", "name == 'x' AND"])
        #expect(result.status != 0)
        #expect(result.output.isEmpty)
        #expect(result.error.hasPrefix("error: Unable to parse the format string"))
        #expect(result.error.contains("at offset"))
        #expect(result.error.contains("  name == 'x' AND\n"))
        #expect(result.error.contains("^"))
    }

    @Test("an unknown entity, a missing store and a predicate naming no property fail with a message")
    func otherErrors() throws {
        let (directory, store, model) = try Self.sample()
        defer { try? FileManager.default.removeItem(at: directory) }
        let entity = try Self.run([store.path, "--model", model.path, "--entity", "Nope"])
        #expect(entity.status != 0)
        #expect(entity.error.contains("no entity named \"Nope\""))
        #expect(entity.error.contains("Car, ExpensiveSportCar, Person, SportCar"))
        let missing = try Self.run([directory.appendingPathComponent("none.sqlite").path, "--model", model.path, "--entity", "Person"])
        #expect(missing.status != 0)
        #expect(missing.error.contains("no such store file"))
        let property = try Self.run([store.path, "--model", model.path, "--entity", "Person", "--predicate", "colour == 'red'"])
        #expect(property.status != 0)
        #expect(property.error.contains("colour"))
    }
}
