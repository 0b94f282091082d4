import OpenCoreData
import Testing

/// A blog store whose coordinator logs its SQL into a recorder.
private struct LoggedStack {
    let directory = TemporaryDirectory()
    let recorder = SQLDebugLogRecorder()
    let coordinator: NSPersistentStoreCoordinator

    init(level: Int, fileName: String = "Blog.sqlite") throws {
        coordinator = NSPersistentStoreCoordinator(managedObjectModel: BlogModel.make())
        coordinator.sqlDebugLog = recorder.log(level: level)
        try coordinator.addPersistentStore(type: .sqlite, at: directory.file(fileName))
    }

    func context() -> NSManagedObjectContext {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    /// Saves three authors, then forgets what that logged.
    func seed() throws {
        let context = context()
        try context.performAndWait {
            for (name, age) in [("Ann", 31), ("Bob", 42), ("Zoë O'Hara", 27)] {
                context.make("Author", ["name": name, "age": age])
            }
            try context.save()
        }
        recorder.removeAll()
    }

    func fetchAuthors(_ format: String? = nil, _ arguments: [Any] = []) throws -> [NSManagedObject] {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Author")
        if let format { request.predicate = NSPredicate(format: format, argumentArray: arguments) }
        let context = context()
        return try context.performAndWait { try context.fetch(request) }
    }

    func entries(_ kind: SQLDebugLog.MessageKind) -> [String] {
        recorder.entries.filter { $0.kind == kind }.map(\.message)
    }
}

/// The `CoreData: annotation: total fetch execution time: 0.0012s for N rows.` shape, any time.
private func isFetchAnnotation(_ message: String, rows: Int) -> Bool {
    let prefix = "CoreData: annotation: total fetch execution time: "
    let suffix = "s for \(rows) rows."
    guard message.hasPrefix(prefix), message.hasSuffix(suffix) else { return false }
    let number = message.dropFirst(prefix.count).dropLast(suffix.count)
    guard let dot = number.firstIndex(of: ".") else { return false }
    return number[number.index(after: dot)...].count == 4 && Double(number) != nil
}

@Suite("SQL debug logging")
struct SQLDebugLoggingTests {
    @Test("level 1 logs each SQL statement the store runs, as Core Data writes it")
    func levelOneLogsStatements() throws {
        let stack = try LoggedStack(level: 1)
        #expect(stack.recorder.statements.contains { $0.hasPrefix("CREATE TABLE ZAUTHOR") })
        #expect(stack.recorder.messages.contains { $0.hasPrefix("CoreData: annotation: Connecting to sqlite database file at \"") })
        stack.recorder.removeAll()

        let context = stack.context()
        try context.performAndWait {
            context.make("Author", ["name": "Ann", "age": 31])
            try context.save()
        }
        #expect(stack.recorder.statements.contains { $0.hasPrefix("INSERT INTO ZAUTHOR") })
        #expect(stack.recorder.messages.contains { $0.hasPrefix("CoreData: sql: INSERT INTO ZAUTHOR") })
        stack.recorder.removeAll()

        _ = try stack.fetchAuthors("name == %@", ["Ann"])
        let selects = stack.recorder.statements.filter { $0.hasPrefix("SELECT") && $0.contains("ZAUTHOR") }
        #expect(selects.count == 1)
        #expect(selects.first?.contains("?") == true)
        // Level 1 shows neither transactions, nor connection set-up, nor values, timings or plans.
        for kind in [SQLDebugLog.MessageKind.transaction, .connection, .boundValues, .timing, .queryPlan] {
            #expect(stack.entries(kind).isEmpty, "\(kind) at level 1")
        }
        #expect(!stack.recorder.messages.contains { $0.contains("'Ann'") })
    }

    @Test("fetches and counts report their row count and time")
    func rowCountsAndTimings() throws {
        let stack = try LoggedStack(level: 1)
        try stack.seed()
        let authors = try stack.fetchAuthors("age > %@", [30])
        #expect(authors.count == 2)
        #expect(stack.entries(.annotation).contains { isFetchAnnotation($0, rows: 2) })

        stack.recorder.removeAll()
        let context = stack.context()
        let count = try context.performAndWait {
            try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Author"))
        }
        #expect(count == 3)
        #expect(
            stack.entries(.annotation).contains {
                $0.hasPrefix("CoreData: annotation: total count request execution time: ") && $0.hasSuffix("s for count of 3.")
            })
    }

    @Test("faults and relationship faults fulfilled from the database are logged")
    func faultsAreLogged() throws {
        let stack = try LoggedStack(level: 1)
        let context = stack.context()
        let authorID = try context.performAndWait {
            let author = context.make("Author", ["name": "Ann"])
            for title in ["One", "Two"] { context.make("Post", ["title": title, "author": author]) }
            try context.save()
            return author.objectID
        }
        // A second coordinator on the file: its row cache is empty, so the rows come from the file.
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: stack.coordinator.managedObjectModel)
        coordinator.sqlDebugLog = stack.recorder.log(level: 1)
        try coordinator.addPersistentStore(type: .sqlite, at: stack.directory.file("Blog.sqlite"))
        let otherID = try #require(coordinator.managedObjectID(forURIRepresentation: authorID.uriRepresentation()))
        stack.recorder.removeAll()
        let other = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        other.persistentStoreCoordinator = coordinator
        let postCount = try other.performAndWait {
            let author = try other.existingObject(with: otherID)
            _ = author.value(forKey: "name")
            return (author.value(forKey: "posts") as? Set<NSManagedObject>)?.count ?? -1
        }
        #expect(postCount == 2)
        let annotations = stack.entries(.annotation)
        #expect(annotations.contains { $0.hasPrefix("CoreData: annotation: fault fulfilled from database for : x-coredata://") })
        #expect(
            annotations.contains {
                $0.hasPrefix("CoreData: annotation: to-many relationship fault \"posts\" for objectID x-coredata://") && $0.hasSuffix("Got 2 rows")
            })
    }

    @Test("level 2 adds transactions, statement timings and save timings")
    func levelTwoAddsTransactionsAndTimings() throws {
        let stack = try LoggedStack(level: 2)
        try stack.seed()
        let context = stack.context()
        try context.performAndWait {
            context.make("Tag", ["name": "swift"])
            try context.save()
        }
        let transactions = stack.entries(.transaction)
        #expect(transactions.contains { $0.hasPrefix("CoreData: sql: BEGIN IMMEDIATE") })
        #expect(transactions.contains { $0.hasPrefix("CoreData: sql: COMMIT") })
        let timings = stack.entries(.timing)
        #expect(timings.contains { $0.hasPrefix("CoreData: annotation: sql execution time: ") && $0.contains("INSERT INTO ZTAG") })
        #expect(timings.contains { $0.hasPrefix("CoreData: annotation: save executed in ") && $0.hasSuffix("1 inserted, 0 updated, 0 deleted.") })
        // Transactions are not data statements.
        #expect(!stack.recorder.statements.contains { $0.hasPrefix("BEGIN") || $0.hasPrefix("COMMIT") })
        #expect(stack.entries(.boundValues).isEmpty)
    }

    @Test("level 3 shows the values bound to each statement")
    func levelThreeShowsBoundValues() throws {
        let stack = try LoggedStack(level: 3)
        try stack.seed()
        let found = try stack.fetchAuthors("name == %@ AND age < %@", ["Zoë O'Hara", 40])
        #expect(found.count == 1)
        let values = stack.entries(.boundValues)
        #expect(
            values.contains {
                $0.hasPrefix("CoreData: details: SQLite bound values: SELECT") && $0.contains("'Zoë O''Hara'") && $0.contains("40")
            })
        #expect(stack.entries(.annotation).contains { isFetchAnnotation($0, rows: 1) })
        #expect(stack.entries(.queryPlan).isEmpty)

        stack.recorder.removeAll()
        let context = stack.context()
        try context.performAndWait {
            context.make("Author", ["name": "Eve", "age": 55])
            try context.save()
        }
        #expect(stack.entries(.boundValues).contains { $0.contains("INSERT INTO ZAUTHOR") && $0.contains("'Eve'") && $0.contains("55") })
    }

    @Test("level 4 adds each fetch's query plan")
    func levelFourAddsQueryPlans() throws {
        let stack = try LoggedStack(level: 4)
        try stack.seed()
        _ = try stack.fetchAuthors("age > %@", [30])
        let plan = stack.entries(.queryPlan)
        #expect(plan.contains { $0.hasPrefix("CoreData: details: query plan for: SELECT") })
        #expect(plan.contains { $0.hasPrefix("CoreData: details: query plan: ") && ($0.contains("SCAN") || $0.contains("SEARCH")) })
        // The log's own EXPLAIN statements are not reported as statements the store ran.
        #expect(!stack.recorder.messages.contains { $0.hasPrefix("CoreData: sql: EXPLAIN") })
    }

    @Test("logging is off unless asked for")
    func offByDefault() throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: BlogModel.make())
        #expect(coordinator.sqlDebugLog == nil)
        let environment = ProcessInfo.processInfo.environment
        if SQLDebugLog.level(arguments: CommandLine.arguments, environment: environment) == nil {
            #expect(SQLDebugLog.process == nil)
        }
        let stack = try LoggedStack(level: 0)
        try stack.seed()
        _ = try stack.fetchAuthors()
        #expect(stack.recorder.entries.isEmpty)
    }

    @Test("each coordinator's log receives only its own stores' statements")
    func coordinatorsLogSeparately() throws {
        let first = try LoggedStack(level: 1, fileName: "First.sqlite")
        let second = try LoggedStack(level: 1, fileName: "Second.sqlite")
        try first.seed()
        try second.seed()
        let context = second.context()
        _ = try context.performAndWait { try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Tag")) }
        _ = try first.fetchAuthors()
        #expect(first.recorder.statements.contains { $0.contains("FROM ZAUTHOR") })
        #expect(!first.recorder.statements.contains { $0.contains("FROM ZTAG") })
        #expect(second.recorder.statements.contains { $0.contains("FROM ZTAG") })
        #expect(!second.recorder.statements.contains { $0.contains("FROM ZAUTHOR") })
    }

    @Test(
        "the launch argument and the environment variable choose the level; bad values leave it off",
        arguments: [
            ([String](), [String: String](), nil as Int?),
            (["app", "-com.apple.CoreData.SQLDebug", "1"], [:], 1),
            (["app", "-com.apple.CoreData.SQLDebug", "3", "-other"], [:], 3),
            (["app", "-com.apple.CoreData.SQLDebug", "4"], [:], 4),
            (["app", "-com.apple.CoreData.SQLDebug", "9"], [:], 4),
            (["app", "-com.apple.CoreData.SQLDebug", "0"], [:], nil),
            (["app", "-com.apple.CoreData.SQLDebug", "-1"], [:], nil),
            (["app", "-com.apple.CoreData.SQLDebug", "two"], [:], nil),
            (["app", "-com.apple.CoreData.SQLDebug", ""], [:], nil),
            (["app", "-com.apple.CoreData.SQLDebug"], [:], nil),
            (["app", "-com.apple.CoreData.SQLDebug", "99999999999999999999999"], [:], 4),
            (["app", "-com.apple.CoreData.SQLDebugX", "2"], [:], nil),
            (["app", "1"], ["OPENCOREDATA_SQL_DEBUG": "2"], 2),
            ([], ["OPENCOREDATA_SQL_DEBUG": " 3 "], 3),
            ([], ["OPENCOREDATA_SQL_DEBUG": "yes"], nil),
            ([], ["OPENCOREDATA_SQL_DEBUG": "1.5"], nil),
            (["app", "-com.apple.CoreData.SQLDebug", "1"], ["OPENCOREDATA_SQL_DEBUG": "4"], 1),
            (["app", "-com.apple.CoreData.SQLDebug", "bad"], ["OPENCOREDATA_SQL_DEBUG": "2"], 2),
        ])
    func launchArgumentParsing(arguments: [String], environment: [String: String], expected: Int?) {
        #expect(SQLDebugLog.level(arguments: arguments, environment: environment) == expected)
        let log = SQLDebugLog(arguments: arguments, environment: environment)
        #expect(log?.level == expected)
        #expect(log?.logger.label == (expected == nil ? nil : "com.apple.CoreData.SQLDebug"))
    }

    @Test("SQL debug levels map onto swift-log levels, and the logger lets its level's messages through")
    func swiftLogLevels() {
        #expect(SQLDebugLog.MessageKind.statement.loggerLevel == .info)
        #expect(SQLDebugLog.MessageKind.annotation.loggerLevel == .info)
        #expect(SQLDebugLog.MessageKind.transaction.loggerLevel == .debug)
        #expect(SQLDebugLog.MessageKind.timing.loggerLevel == .debug)
        #expect(SQLDebugLog.MessageKind.boundValues.loggerLevel == .trace)
        #expect(SQLDebugLog.MessageKind.queryPlan.loggerLevel == .trace)
        let recorder = SQLDebugLogRecorder()
        #expect(SQLDebugLog(level: 1, logger: recorder.logger).logger.logLevel <= .info)
        #expect(SQLDebugLog(level: 3, logger: recorder.logger).logger.logLevel == .trace)
        #expect(SQLDebugLog(level: 7, logger: recorder.logger).level == 4)
        #expect(SQLDebugLog(level: -2, logger: recorder.logger).level == 0)
    }
}
