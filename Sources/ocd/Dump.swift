import ArgumentParser
import OpenCoreData

/// `ocd dump STORE --entity NAME`: every object of an entity as JSON Lines or CSV.
struct Dump: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dump",
        abstract: "Print every object of an entity of a SQLite store as JSON Lines or CSV.",
        discussion: """
            Each object is one line: its object ID URI as "objectID", its attributes, and its relationships as \\
            object ID URIs (a to-many relationship as an array, in order for an ordered one). Binary values are \\
            base64, dates ISO 8601 in UTC, decimal numbers, UUIDs and URLs text. Subentities' objects are \\
            included. The model is --model, else the one the store keeps of itself; a transformable value whose \\
            transformer this program lacks is printed as its stored bytes. A progress bar shows on a terminal. \\
            The store is opened read-only.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case jsonl, csv
    }

    @Argument(help: "The SQLite store file.")
    var store: String

    @Option(name: .long, help: "The entity to dump.")
    var entity: String

    @Option(name: .long, help: "The model: .xcdatamodeld, .xcdatamodel, .momd or .mom; the store's own cache by default.")
    var model: String?

    @Option(name: .long, help: "jsonl (one JSON object a line, the default) or csv.")
    var format: Format = .jsonl

    func run() throws {
        do {
            try dump()
        } catch {
            FileHandle.standardError.write(Data(("error: " + (error as NSError).localizedDescription + "\n").utf8))
            throw ExitCode.failure
        }
    }

    private func dump() throws {
        let storeURL = URL(fileURLWithPath: store)
        guard FileManager.default.fileExists(atPath: storeURL.path) else {
            throw NSError(
                domain: NSCocoaErrorDomain, code: NSFileReadNoSuchFileError,
                userInfo: [NSLocalizedDescriptionKey: "\(storeURL.path): no such store file"])
        }
        let managedObjectModel =
            try model.map { try NSManagedObjectModel.load(from: URL(fileURLWithPath: $0)) }
            ?? NSManagedObjectModel.load(cachedInStoreAt: storeURL)
        guard let description = managedObjectModel.entitiesByName[entity] else {
            let names = managedObjectModel.entities.compactMap(\.name).sorted().joined(separator: ", ")
            throw NSError(
                domain: NSCocoaErrorDomain, code: NSCoreDataError,
                userInfo: [NSLocalizedDescriptionKey: "the model has no entity named \"\(entity)\"; it has \(names)"])
        }
        // Values of transformers this program lacks (the app's) read as their stored bytes.
        let registered = Set(ValueTransformer.valueTransformerNames().map(\.rawValue))
        for entity in managedObjectModel.entities {
            for property in entity.properties {
                guard let attribute = property as? NSAttributeDescription, attribute.attributeType == .transformableAttributeType,
                    let name = attribute.valueTransformerName, !registered.contains(name)
                else { continue }
                ValueTransformer.setValueTransformer(StoredBytesTransformer(), forName: NSValueTransformerName(rawValue: name))
            }
        }
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: managedObjectModel)
        try coordinator.addPersistentStore(
            type: .sqlite, at: storeURL,
            options: [
                NSReadOnlyPersistentStoreOption: true, NSMigratePersistentStoresAutomaticallyOption: false,
                NSInferMappingModelAutomaticallyOption: false,
            ])
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let keys = Self.keys(of: description)
        try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: entity)
            request.sortDescriptors = []
            request.fetchBatchSize = 500
            let total = try context.count(for: request)
            let progress = TerminalProgress(total: total, label: "dumping \(entity)")
            let output = FileHandle.standardOutput
            if format == .csv { output.write(Data((CSVText.row(["objectID"] + keys) + "\n").utf8)) }
            var written = 0
            var buffer = ""
            for object in try context.fetch(request) {
                buffer += line(object, keys: keys) + "\n"
                written += 1
                if buffer.utf8.count > 64 * 1024 {
                    output.write(Data(buffer.utf8))
                    buffer = ""
                    progress.update(written)
                }
                if written % 500 == 0 { context.refreshAllObjects() }
            }
            output.write(Data(buffer.utf8))
            progress.finish()
        }
    }

    /// The entity's persistent attributes and relationships, inherited ones included, by name.
    static func keys(of entity: NSEntityDescription) -> [String] {
        entity.propertiesByName.values
            .filter { !($0 is NSFetchedPropertyDescription) && !$0.isTransient }
            .map(\.name).sorted()
    }

    private func line(_ object: NSManagedObject, keys: [String]) -> String {
        let properties = object.entity.propertiesByName
        var values: [(String, DumpValue)] = [("objectID", .text(object.objectID.uriRepresentation().absoluteString))]
        for key in keys {
            guard let property = properties[key] else {
                values.append((key, .null))
                continue
            }
            values.append((key, DumpValue(object.value(forKey: key), relationship: property as? NSRelationshipDescription)))
        }
        switch format {
        case .jsonl:
            return "{" + values.map { "\(JSONText.string($0.0)): \($0.1.json)" }.joined(separator: ", ") + "}"
        case .csv:
            return CSVText.row(values.map(\.1.csv))
        }
    }
}

/// A value as `ocd dump` prints it.
enum DumpValue {
    case null
    case text(String)
    case number(String)
    case boolean(Bool)
    case list([String])

    init(_ value: Any?, relationship: NSRelationshipDescription?) {
        func uri(_ object: Any) -> String {
            (object as? NSManagedObject)?.objectID.uriRepresentation().absoluteString ?? "\(object)"
        }
        guard let value, !(value is NSNull) else {
            self = .null
            return
        }
        if relationship != nil {
            switch value {
            case let set as NSOrderedSet: self = .list(set.array.map(uri))
            case let set as NSSet: self = .list(set.allObjects.map(uri).sorted())
            default: self = .text(uri(value))
            }
            return
        }
        switch value {
        case let text as String: self = .text(text)
        case let data as Data: self = .text(data.base64EncodedString())
        case let date as Date: self = .text(Self.dateFormatter.string(from: date))
        case let uuid as UUID: self = .text(uuid.uuidString)
        case let url as URL: self = .text(url.absoluteString)
        case let decimal as NSDecimalNumber: self = .number(decimal.stringValue)
        case let number as NSNumber:
            if type(of: number) == type(of: NSNumber(value: true)) {
                self = .boolean(number.boolValue)
                return
            }
            let code = String(cString: number.objCType)
            if code == "d" || code == "f" {
                let double = number.doubleValue
                self = double.isFinite ? .number(String(double)) : .text(String(double))
            } else {
                self = .number(number.stringValue)
            }
        case let id as NSManagedObjectID: self = .text(id.uriRepresentation().absoluteString)
        default: self = .text("\(value)")
        }
    }

    nonisolated(unsafe) static let dateFormatter: ISO8601DateFormatter = {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        return formatter
    }()

    var json: String {
        switch self {
        case .null: return "null"
        case let .text(text): return JSONText.string(text)
        case let .number(text): return text
        case let .boolean(flag): return flag ? "true" : "false"
        case let .list(items): return "[" + items.map(JSONText.string).joined(separator: ", ") + "]"
        }
    }

    var csv: String {
        switch self {
        case .null: return ""
        case let .text(text), let .number(text): return text
        case let .boolean(flag): return flag ? "true" : "false"
        case let .list(items): return items.joined(separator: " ")
        }
    }
}

/// CSV rows (RFC 4180): fields with a comma, a quote or a line break are quoted.
enum CSVText {
    static func row(_ fields: [String]) -> String {
        fields.map { field in
            guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
            return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }.joined(separator: ",")
    }
}

/// Gives a transformable attribute's stored bytes as they are: the stand-in for an app's own transformer.
final class StoredBytesTransformer: ValueTransformer {
    override class func allowsReverseTransformation() -> Bool { true }
    override func transformedValue(_ value: Any?) -> Any? { value }
    override func reverseTransformedValue(_ value: Any?) -> Any? { value }
}
