import OpenCoreData
import Testing

/// Bad text: predicate format strings (truncated, unbalanced, with too few arguments) and `ocd` command
/// lines.
extension BadInputRobustnessTests {
    /// Valid format strings about SampleModel's Person, with their arguments.
    static func personFormats() -> [(String, [Any])] {
        [
            ("firstName == %@ AND lastName BEGINSWITH[cd] %@", ["Vaughn", "G"]),
            ("ANY cars.maker IN %@ OR (updatedAt > %@ AND NOT firstName LIKE 'J*')", [["Audi", "BMW"], Date(timeIntervalSinceReferenceDate: 0)]),
            ("SUBQUERY(cars, $c, $c.maker == 'Audi' AND $c.isLimitedEdition == YES).@count > 0", []),
            ("%K CONTAINS[c] 'a' AND cars.@count BETWEEN {1, 3}", ["firstName"]),
            ("lastName MATCHES '[A-Z][a-z]+' OR firstName ENDSWITH \"x\" OR lastName IN {'a', \"b\"}", []),
            ("(firstName == 'A' OR (lastName == 'B' AND (updatedAt == nil)))", []),
        ]
    }

    @Test("truncated, unbalanced and under-supplied format strings parse or throw NSFormattingError; parsed ones fetch or throw")
    func damagedFormats() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = try Kit.sampleModel.copy(into: directory)
        let model = try NSManagedObjectModel.load(from: Kit.sampleModel.modelURL)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, at: url, options: [NSReadOnlyPersistentStoreOption: true])
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        context.performAndWait {
            let person = NSEntityDescription.insertNewObject(forEntityName: "Person", into: context)
            person.setValue("Ann", forKey: "firstName")
            person.setValue("Gleaves", forKey: "lastName")
        }
        var generator = Kit.Generator(state: 42)
        var texts: [(String, [Any])] = []
        for (format, arguments) in Self.personFormats() {
            let characters = Array(format)
            for length in 0..<characters.count { texts.append((String(characters[..<length]), arguments)) }
            for insertion in ["(", ")", "'", "\"", "{", "}", "%@", "[c]", "$"] {
                var changed = characters
                changed.insert(contentsOf: insertion, at: Int.random(in: 0...changed.count, using: &generator))
                texts.append((String(changed), arguments))
            }
            if !arguments.isEmpty { texts.append((format, Array(arguments.dropLast()))) }
        }
        var parsed = 0, rejected = 0
        for (text, arguments) in texts {
            let predicate: NSPredicate
            do {
                predicate = try NSPredicate(validatingFormat: text, argumentArray: arguments)
            } catch {
                let error = Kit.expectCocoaError(error, text)
                #expect(error.code == NSFormattingError, "\(text): \(error)")
                rejected += 1
                continue
            }
            parsed += 1
            let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
            request.predicate = predicate
            context.performAndWait {
                do {
                    _ = try context.fetch(request)
                } catch {
                    let error = error as NSError
                    #expect(error.domain == NSCocoaErrorDomain, "\(text): \(error)")
                }
            }
        }
        #expect(parsed > 0 && rejected > texts.count / 2)
    }

    @Test(
        "format strings with too few arguments are errors naming the missing argument",
        arguments: [
            ("name == %@", 0), ("%K == %@", 1), ("a == %@ AND b == %@", 1), ("%1$@ == %2$@", 1), ("a BETWEEN {%@, %@}", 1),
        ])
    func missingArguments(_ format: String, _ count: Int) throws {
        let arguments = Array(repeating: "x" as Any, count: count)
        let error = try #require(throws: NSError.self) { try NSPredicate(validatingFormat: format, argumentArray: arguments) }
        #expect(error.domain == NSCocoaErrorDomain && error.code == NSFormattingError)
        #expect(error.localizedDescription.contains("argument"), "\(error.localizedDescription)")
        let expression = try #require(throws: NSError.self) { try NSExpression(validatingFormat: "%@ + %@", argumentArray: [1]) }
        #expect(expression.code == NSFormattingError)
    }

    @Test(
        "unknown functions and wrong argument counts in expression text are errors, not traps",
        arguments: [
            "nosuch:(1)", "sum:()", "now(1)", "FUNCTION(1, 'nosuch:')", "FUNCTION(1)", "average:(1, 2", "count:(1, 2)",
            "CAST(1)", "TERNARY(1 == 1, 2)", "SUBQUERY(a, $x)", "{1, 2}[", "@sum.a", "a[FIRST", "a.@nosuch", "modulus:by:(1)",
            "random(1)", "randomn:()", "sqrt:(1, 2)", "distinctUnionOfObjects:", "%K", "$", "1 +", "-", "(((1)",
        ])
    func badExpressions(_ text: String) throws {
        do {
            let expression = try NSExpression(validatingFormat: text, argumentArray: [])
            _ = expression.description
        } catch {
            let error = Kit.expectCocoaError(error, text)
            #expect(error.code == NSFormattingError, "\(text): \(error)")
        }
    }

    // MARK: - ocd

    @Test("bad ocd arguments exit with a message and a failure status, never a crash, and leave the store unchanged")
    func badCommandLines() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Kit.sampleModel.copy(into: directory).path
        let model = Kit.sampleModel.modelURL.deletingLastPathComponent().path
        let garbage = directory.appendingPathComponent("garbage.sqlite").path
        try Data("SQLite format 3\0 this is not a database".utf8).write(to: URL(fileURLWithPath: garbage))
        let truncated = directory.appendingPathComponent("truncated.sqlite").path
        try Data(try Data(contentsOf: URL(fileURLWithPath: store)).prefix(5000)).write(to: URL(fileURLWithPath: truncated))
        let badModel = try ModelFileKit.writeVersion("<model><entity", named: "Broken", in: directory).path
        let query = ["query", store, "--model", model, "--entity", "Person"]
        let commands: [[String]] = [
            ["query", directory.appendingPathComponent("absent.sqlite").path, "--model", model, "--entity", "Person"],
            ["query", garbage, "--model", model, "--entity", "Person"],
            ["query", truncated, "--model", model, "--entity", "Person"],
            ["query", directory.path, "--model", model, "--entity", "Person"],
            ["query", store, "--model", directory.appendingPathComponent("absent.xcdatamodeld").path, "--entity", "Person"],
            ["query", store, "--model", badModel, "--entity", "Person"],
            ["query", store, "--model", garbage, "--entity", "Person"],
            ["query", store, "--model", model, "--entity", "Nobody"],
            query + ["--predicate", "firstName =="],
            query + ["--predicate", "firstName == %@"],
            query + ["--predicate", "(firstName == 'a'"],
            query + ["--predicate", "ghost == 1"],
            query + ["--predicate", "firstName == 'unterminated"],
            query + ["--sort", "-"],
            query + ["--sort", "ghost"],
            query + ["--sort", "firstName,,lastName"],
            query + ["--limit=-3"],
            query + ["--limit", "-3"],
            query + ["--limit", "many"],
            ["query", store],
            ["no-such-command"],
            query + ["--properties", "ghost"],
            query + ["--properties", "firstName("],
            query + ["--properties", ""],
            query + ["--group-by", "ghost"],
            ["migrate", garbage, "--model", model],
            ["migrate", store, "--model", badModel],
            ["migrate", store, "--model", model, "--to", "No Such Version"],
            ["migrate", directory.appendingPathComponent("absent.sqlite").path, "--model", model],
            ["model", "print", garbage],
            ["model", "print", badModel],
            ["model", "print", model, "--version", "No Such Version"],
            ["model", "print", directory.appendingPathComponent("absent.xcdatamodeld").path],
        ]
        let before = Kit.storeBytes(URL(fileURLWithPath: store))
        for arguments in commands {
            let result = try Kit.ocd(arguments)
            let line = arguments.joined(separator: " ")
            #expect(result.exited, "ocd crashed: \(line)\n\(result.error)")
            // 1: the command's own error; 64: ArgumentParser's usage error.
            #expect(result.status == 1 || result.status == 64, "status \(result.status): \(line)\n\(result.output)\(result.error)")
            #expect(result.error.lowercased().contains("error"), "\(line): \(result.error)")
            #expect(!result.error.contains("Fatal error"), "\(line): \(result.error)")
        }
        #expect(Kit.storeBytes(URL(fileURLWithPath: store)) == before)
    }

    @Test("ocd migrate on a store whose Z_PRIMARYKEY is damaged fails with status 1 and leaves the store unchanged")
    func migrateDamagedStore() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bundle = try MigrationBundleKit.writeBundle(in: directory)
        let store = directory.appendingPathComponent("Catalog.sqlite")
        try MigrationBundleKit.fillStore(at: store, bundle: bundle, groups: 2, items: 5)
        try Kit.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = 'many'", on: store)
        let before = Kit.storeBytes(store)
        let result = try Kit.ocd(["migrate", store.path, "--model", bundle.path])
        #expect(result.exited, "ocd crashed: \(result.error)")
        #expect(result.status == 1)
        #expect(result.error.contains("Z_MAX"), "\(result.error)")
        #expect(Kit.storeBytes(store) == before)
    }
}
