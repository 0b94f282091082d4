import ArgumentParser
import OpenCoreData

/// `ocd query STORE --model MODEL --entity E [...]`: runs a fetch request against a SQLite store and
/// prints the results as a table or as JSON.
struct QueryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Fetch from a SQLite store with a predicate, sort, limit, properties and grouping.",
        discussion: """
            Every result is a dictionary fetch (.dictionaryResultType): without --properties the entity's \
            attributes are shown. A property that contains "(" or "@" is an expression, named by its text: \
            --properties "name,posts.@count" or --group-by city --properties "city,count:(name)". \
            The store is opened read-only. Without --model, the model is the one the store keeps of itself \
            (Z_MODELCACHE), which every store Core Data or OpenCoreData wrote since 2011 has.
            """
    )

    @Argument(help: "The SQLite store file.")
    var store: String

    @Option(
        name: .long,
        help: "The model: an .xcdatamodeld bundle, an .xcdatamodel version folder, a compiled .momd or .mom; the store's own cache by default.")
    var model: String?

    @Option(name: .long, help: "The entity to fetch.")
    var entity: String

    @Option(name: .long, help: "A predicate in Core Data's format syntax, e.g. \"age > 30 AND name BEGINSWITH 'A'\".")
    var predicate: String?

    @Option(
        name: .long,
        help: "Sort keys separated by commas; a leading - sorts descending: name,-age (write --sort=-age when the first key is descending).")
    var sort: String?

    @Option(name: .long, help: "The maximum number of results.")
    var limit: Int?

    @Option(name: .long, help: "The properties (or expressions) to show, separated by commas.")
    var properties: String?

    @Option(name: .customLong("group-by"), help: "The properties to group by, separated by commas.")
    var groupBy: String?

    @Flag(name: .long, help: "Print a JSON array of objects instead of a table.")
    var json = false

    func run() throws {
        do {
            let (keys, rows) = try fetch()
            print(json ? QueryOutput.json(rows, keys: keys) : QueryOutput.table(rows, keys: keys), terminator: "")
        } catch let error as NSError {
            var message = "error: " + error.localizedDescription + "\n"
            if let format = error.userInfo[NSPredicateFormatStringErrorKey] as? String,
                let offset = error.userInfo[NSPredicateFormatOffsetErrorKey] as? Int
            {
                message += "  " + format + "\n  " + String(repeating: " ", count: max(0, offset)) + "^\n"
            }
            FileHandle.standardError.write(Data(message.utf8))
            throw ExitCode.failure
        }
    }

    /// Runs the request: the keys in column order, and the result dictionaries.
    private func fetch() throws -> ([String], [NSDictionary]) {
        let storeURL = URL(fileURLWithPath: store)
        guard FileManager.default.fileExists(atPath: storeURL.path) else {
            throw Self.error(NSFileReadNoSuchFileError, "\(storeURL.path): no such store file")
        }
        if let limit, limit < 0 { throw Self.error(NSFormattingError, "--limit must not be negative, not \(limit)") }
        let managedObjectModel =
            try model.map { try NSManagedObjectModel.load(from: URL(fileURLWithPath: $0)) }
            ?? NSManagedObjectModel.load(cachedInStoreAt: storeURL)
        guard let description = managedObjectModel.entitiesByName[entity] else {
            let names = managedObjectModel.entities.compactMap(\.name).sorted().joined(separator: ", ")
            throw Self.error(NSCoreDataError, "the model has no entity named \"\(entity)\"; it has \(names)")
        }
        let request = NSFetchRequest<NSDictionary>(entityName: entity)
        request.resultType = .dictionaryResultType
        if let predicate {
            request.predicate = try NSPredicate(validatingFormat: predicate)
        }
        if let sort {
            request.sortDescriptors = try Self.list(sort, option: "--sort").map { key in
                key.hasPrefix("-")
                    ? NSSortDescriptor(key: String(key.dropFirst()), ascending: false)
                    : NSSortDescriptor(key: key, ascending: true)
            }
        }
        if let limit { request.fetchLimit = limit }
        let groups = try groupBy.map { try Self.list($0, option: "--group-by") } ?? []
        var keys: [String]
        if let properties {
            keys = try Self.list(properties, option: "--properties")
        } else if !groups.isEmpty {
            keys = groups + ["count"]
        } else {
            var chain: [NSEntityDescription] = []
            var current: NSEntityDescription? = description
            while let next = current {
                chain.insert(next, at: 0)
                current = next.superentity
            }
            keys = []
            for property in chain.flatMap(\.properties) {
                guard let attribute = property as? NSAttributeDescription, !attribute.isTransient,
                    !keys.contains(attribute.name)
                else { continue }
                keys.append(attribute.name)
            }
        }
        request.propertiesToFetch = try keys.map { key -> Any in
            if key == "count", properties == nil, !groups.isEmpty {
                return Self.expression(named: "count", NSExpression(forFunction: "count:", arguments: [NSExpression(forKeyPath: groups[0])]))
            }
            guard key.contains("(") || key.contains("@") else { return key }
            return Self.expression(named: key, try NSExpression(validatingFormat: key))
        }
        if !groups.isEmpty { request.propertiesToGroupBy = groups }

        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: managedObjectModel)
        try coordinator.addPersistentStore(
            type: .sqlite, at: storeURL,
            options: [
                NSReadOnlyPersistentStoreOption: true,
                NSMigratePersistentStoresAutomaticallyOption: false,
                NSInferMappingModelAutomaticallyOption: false,
            ])
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let rows = try context.performAndWait { try context.fetch(request) }
        return (keys, rows)
    }

    /// An expression description named `name`.
    private static func expression(named name: String, _ expression: NSExpression) -> NSExpressionDescription {
        let description = NSExpressionDescription()
        description.name = name
        description.expression = expression
        return description
    }

    /// The comma-separated, trimmed, non-empty items of an option.
    private static func list(_ text: String, option: String) throws -> [String] {
        let items = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard !items.isEmpty, !items.contains(where: \.isEmpty) else {
            throw error(NSFormattingError, "\(option) \"\(text)\" has an empty item")
        }
        return items
    }

    private static func error(_ code: Int, _ message: String) -> NSError {
        NSError(domain: NSCocoaErrorDomain, code: code, userInfo: [NSLocalizedDescriptionKey: message])
    }
}

/// Rendering fetched dictionaries.
enum QueryOutput {
    /// The rows as an aligned text table with a header, followed by the row count.
    static func table(_ rows: [NSDictionary], keys: [String]) -> String {
        let cells = rows.map { row in keys.map { key in text(row[key]) } }
        let widths = keys.indices.map { column in
            ([keys[column].count] + cells.map { $0[column].count }).max() ?? 0
        }
        func line(_ values: [String]) -> String {
            zip(values, widths).map { value, width in value.padding(toLength: width, withPad: " ", startingAt: 0) }
                .joined(separator: " | ").replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) + "\n"
        }
        var output = line(keys)
        output += widths.map { String(repeating: "-", count: $0) }.joined(separator: "-+-") + "\n"
        for row in cells { output += line(row) }
        output += "(\(rows.count) row\(rows.count == 1 ? "" : "s"))\n"
        return output
    }

    /// The rows as a JSON array of objects whose keys follow `keys`; missing values are null.
    static func json(_ rows: [NSDictionary], keys: [String]) -> String {
        let objects = rows.map { row in
            "  {" + keys.map { key in quoted(key) + ": " + jsonValue(row[key]) }.joined(separator: ", ") + "}"
        }
        return objects.isEmpty ? "[]\n" : "[\n" + objects.joined(separator: ",\n") + "\n]\n"
    }

    /// A value as table text; missing values are empty.
    static func text(_ value: Any?) -> String {
        switch value {
        case nil, is NSNull: return ""
        case let string as String: return string
        case let date as Date: return date.formatted(.iso8601)
        case let id as NSManagedObjectID: return id.uriRepresentation().absoluteString
        case let url as URL: return url.absoluteString
        case let uuid as UUID: return uuid.uuidString
        case let data as Data: return "<\(data.count) bytes>"
        case let number as NSNumber: return number.stringValue
        case let value?: return "\(value)"
        }
    }

    /// A value as JSON text.
    static func jsonValue(_ value: Any?) -> String {
        switch value {
        case nil, is NSNull: return "null"
        case let number as NSDecimalNumber: return number.stringValue
        case let number as NSNumber:
            if String(cString: number.objCType) == "c" || String(cString: number.objCType) == "B" {
                return number.boolValue ? "true" : "false"
            }
            let double = number.doubleValue
            return double.isFinite ? number.stringValue : "null"
        case let data as Data: return quoted(data.base64EncodedString())
        default: return quoted(text(value))
        }
    }

    /// A JSON string literal.
    static func quoted(_ string: String) -> String {
        var result = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20: result += String(format: "\\u%04x", scalar.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
