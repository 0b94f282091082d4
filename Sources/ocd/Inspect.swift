import ArgumentParser
import GRDB
import OpenCoreData

/// `ocd inspect STORE [--model MODEL] [--json]`: what a Core Data user wants to know about a SQLite store,
/// with or without its model.
struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Describe a Core Data SQLite store: type, UUID, versions, journal, entities, properties, hashes, history.",
        discussion: """
            The entities and their row counts come from the store's own tables; their attributes and \\
            relationships from --model, else from the model the store keeps of itself (Z_MODELCACHE). A store \\
            too old to keep one is described from its tables and columns. With --model, the store's entity \\
            version hashes are compared with the model's, naming the entities that differ and why. \\
            The store is read, never changed (but for SQLite's own recovery of an interrupted write).
            """
    )

    @Argument(help: "The SQLite store file.")
    var store: String

    @Option(name: .long, help: "A model to describe the store with and compare its hashes to: .xcdatamodeld, .xcdatamodel, .momd or .mom.")
    var model: String?

    @Flag(name: .long, help: "Print one JSON object instead of text.")
    var json = false

    func run() throws {
        do {
            let report = try StoreInspection(storeURL: URL(fileURLWithPath: store), modelPath: model)
            print(json ? report.json() : report.text(), terminator: "")
        } catch {
            FileHandle.standardError.write(Data(("error: " + (error as NSError).localizedDescription + "\n").utf8))
            throw ExitCode.failure
        }
    }
}

/// What `ocd inspect` finds in a store.
struct StoreInspection {
    struct Entity {
        var name: String
        var number: Int
        var superNumber: Int
        var superName: String?
        var rows: Int?
        var table: String?
        var maxPrimaryKey: Int
    }

    let storeURL: URL
    var storeType = ""
    var uuid = ""
    var frameworkVersion: Int?
    var maximumFrameworkVersion: Int?
    var journalMode = ""
    var walBytes: Int?
    var hasShm = false
    var entities: [Entity] = []
    var modelSource = ""
    var model: NSManagedObjectModel?
    var storeHashes: [String: Data] = [:]
    var comparison: [(entity: String, status: String, reasons: [String])] = []
    var comparedWith: String?
    var history: [(table: String, rows: Int)] = []
    /// Tables and their columns, for a store described from its schema alone.
    var tables: [(name: String, columns: [String])] = []

    init(storeURL: URL, modelPath: String?) throws {
        self.storeURL = storeURL
        guard FileManager.default.fileExists(atPath: storeURL.path) else {
            throw NSError(
                domain: NSCocoaErrorDomain, code: NSFileReadNoSuchFileError,
                userInfo: [NSLocalizedDescriptionKey: "\(storeURL.path): no such store file"])
        }
        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: storeURL)
        storeType = metadata[NSStoreTypeKey] as? String ?? ""
        uuid = metadata[NSStoreUUIDKey] as? String ?? ""
        frameworkVersion = (metadata[NSPersistenceFrameworkVersionKey] as? NSNumber)?.intValue
        maximumFrameworkVersion = (metadata["NSPersistenceMaximumFrameworkVersion"] as? NSNumber)?.intValue
        storeHashes = metadata[NSStoreModelVersionHashesKey] as? [String: Data] ?? [:]
        let wal = storeURL.path + "-wal"
        walBytes = (try? FileManager.default.attributesOfItem(atPath: wal)[.size] as? NSNumber)?.intValue
        hasShm = FileManager.default.fileExists(atPath: storeURL.path + "-shm")

        let given = try modelPath.map { try NSManagedObjectModel.load(from: URL(fileURLWithPath: $0)) }
        let cached = try? NSManagedObjectModel.load(cachedInStoreAt: storeURL)
        if let given, let modelPath {
            model = given
            modelSource = "--model \(modelPath)"
        } else if let cached {
            model = cached
            modelSource = "the store's cache (Z_MODELCACHE)"
        } else {
            modelSource = "none: the store keeps no model; described from its tables"
        }
        try readTables()
        if let given, let modelPath {
            comparedWith = modelPath
            compare(given, storeModel: cached)
        }
    }

    /// Reads the journal mode, the entities and their rows, the tables and the history tables.
    private mutating func readTables() throws {
        var configuration = Configuration()
        configuration.readonly = true
        var queue: DatabaseQueue
        do {
            let readOnly = try DatabaseQueue(path: storeURL.path, configuration: configuration)
            try readOnly.read { db in _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") }
            queue = readOnly
        } catch {
            // A WAL store whose index must be made first opens for writing, as any SQLite client would.
            queue = try DatabaseQueue(path: storeURL.path)
        }
        defer { try? queue.close() }
        try queue.read { db in
            journalMode = (try String.fetchOne(db, sql: "PRAGMA journal_mode")) ?? ""
            let names = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            let tableNames = Set(names)
            var rows: [(Int, String, Int, Int)] = []
            for row in try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT") {
                rows.append((row[0] ?? 0, row[1] ?? "", row[2] ?? 0, row[3] ?? 0))
            }
            let byNumber = Dictionary(rows.map { ($0.0, $0) }, uniquingKeysWith: { first, _ in first })
            for (number, name, superNumber, maximum) in rows where number < 16_000 {
                var root = number
                var seen: Set<Int> = [number]
                while let parent = byNumber[root]?.2, parent != 0, seen.insert(parent).inserted { root = parent }
                let table = "Z" + (byNumber[root]?.1 ?? name).uppercased()
                var count: Int?
                if tableNames.contains(table) {
                    count = try Int.fetchOne(db, sql: "SELECT count(*) FROM \"\(table)\" WHERE Z_ENT = ?", arguments: [number])
                }
                entities.append(
                    Entity(
                        name: name, number: number, superNumber: superNumber,
                        superName: superNumber == 0 ? nil : byNumber[superNumber]?.1,
                        rows: count, table: tableNames.contains(table) ? table : nil, maxPrimaryKey: maximum))
            }
            for table in ["ATRANSACTION", "ACHANGE", "ATRANSACTIONSTRING"] where tableNames.contains(table) {
                history.append((table, try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? 0))
            }
            if model == nil {
                for name in names
                where name.hasPrefix("Z") && !name.hasPrefix("Z_PRIMARYKEY") && !name.hasPrefix("Z_METADATA")
                    && !name.hasPrefix("Z_MODELCACHE")
                {
                    let columns = try Row.fetchAll(db, sql: "PRAGMA table_info(\"\(name)\")").map { row -> String in
                        let column: String = row["name"] ?? ""
                        let type: String = row["type"] ?? ""
                        return type.isEmpty ? column : "\(column) \(type)"
                    }
                    tables.append((name, columns))
                }
            }
        }
    }

    /// Compares the store's hashes with `given`'s; `storeModel` (its cache) says which properties differ.
    private mutating func compare(_ given: NSManagedObjectModel, storeModel: NSManagedObjectModel?) {
        let givenHashes = given.entityVersionHashesByName
        for name in Set(givenHashes.keys).union(storeHashes.keys).sorted() {
            switch (storeHashes[name], givenHashes[name]) {
            case let (stored?, wanted?) where stored == wanted:
                comparison.append((name, "same", []))
            case (_?, _?):
                comparison.append((name, "differs", Self.reasons(storeModel?.entitiesByName[name], given.entitiesByName[name])))
            case (_?, nil):
                comparison.append((name, "only in the store", []))
            default:
                comparison.append((name, "only in the model", []))
            }
        }
    }

    /// Why two entities' hashes differ: the persistent properties added, removed or changed, else what
    /// of the entity itself goes into its hash.
    static func reasons(_ stored: NSEntityDescription?, _ wanted: NSEntityDescription?) -> [String] {
        guard let stored, let wanted else { return ["the store keeps no model to tell which properties differ"] }
        func hashes(_ entity: NSEntityDescription) -> [String: Data] {
            var result: [String: Data] = [:]
            for (name, property) in entity.propertiesByName
            where !property.isTransient
                && (property is NSAttributeDescription || property is NSRelationshipDescription)
            {
                result[name] = property.versionHash
            }
            return result
        }
        let old = hashes(stored), new = hashes(wanted)
        var reasons: [String] = []
        for name in Set(old.keys).union(new.keys).sorted() {
            switch (old[name], new[name]) {
            case (nil, _?): reasons.append("property '\(name)' added")
            case (_?, nil): reasons.append("property '\(name)' removed")
            case let (a?, b?) where a != b:
                reasons.append("property '\(name)' changed (\(describe(stored.propertiesByName[name])) → \(describe(wanted.propertiesByName[name])))")
            default: break
            }
        }
        if stored.isAbstract != wanted.isAbstract { reasons.append("abstract \(stored.isAbstract) → \(wanted.isAbstract)") }
        if stored.superentity?.name != wanted.superentity?.name {
            reasons.append("superentity \(stored.superentity?.name ?? "none") → \(wanted.superentity?.name ?? "none")")
        } else if let superentity = stored.superentity, superentity.versionHash != wanted.superentity?.versionHash {
            reasons.append("superentity \(superentity.name ?? "") differs")
        }
        let constraints = { (entity: NSEntityDescription) in entity.uniquenessConstraints.map { $0.map { "\($0)" }.joined(separator: "+") } }
        if constraints(stored) != constraints(wanted) { reasons.append("uniqueness constraints \(constraints(stored)) → \(constraints(wanted))") }
        if stored.versionHashModifier != wanted.versionHashModifier {
            reasons.append("version hash modifier \(stored.versionHashModifier ?? "none") → \(wanted.versionHashModifier ?? "none")")
        }
        return reasons.isEmpty ? ["the entity's own hash inputs differ"] : reasons
    }

    /// A property in a few words: its kind, type and flags.
    static func describe(_ property: NSPropertyDescription?) -> String {
        guard let property else { return "none" }
        var words: [String] = []
        switch property {
        case let attribute as NSAttributeDescription:
            words.append(typeName(attribute))
        case let relationship as NSRelationshipDescription:
            words.append("→ \(relationship.destinationEntity?.name ?? "?")")
            words.append(relationship.isToMany ? (relationship.isOrdered ? "ordered to-many" : "to-many") : "to-one")
            if let inverse = relationship.inverseRelationship { words.append("inverse \(inverse.name)") }
            switch relationship.deleteRule {
            case .cascadeDeleteRule: words.append("cascade")
            case .denyDeleteRule: words.append("deny")
            case .noActionDeleteRule: words.append("no action")
            default: words.append("nullify")
            }
            if relationship.isToMany, relationship.minCount > 0 || relationship.maxCount > 0 {
                words.append(
                    "count \(relationship.minCount)…\(relationship.maxCount == 0 || relationship.maxCount == Int.max ? "" : String(relationship.maxCount))"
                )
            }
        case is NSFetchedPropertyDescription:
            words.append("fetched")
        default:
            words.append("property")
        }
        if property.isOptional { words.append("optional") }
        if property.isTransient { words.append("transient") }
        return words.joined(separator: ", ")
    }

    static func typeName(_ attribute: NSAttributeDescription) -> String {
        let names: [NSAttributeType: String] = [
            .undefinedAttributeType: "Undefined", .integer16AttributeType: "Integer 16", .integer32AttributeType: "Integer 32",
            .integer64AttributeType: "Integer 64", .decimalAttributeType: "Decimal", .doubleAttributeType: "Double",
            .floatAttributeType: "Float", .stringAttributeType: "String", .booleanAttributeType: "Boolean",
            .dateAttributeType: "Date", .binaryDataAttributeType: "Binary", .UUIDAttributeType: "UUID", .URIAttributeType: "URI",
            .transformableAttributeType: "Transformable", .objectIDAttributeType: "Object ID", .compositeAttributeType: "Composite",
        ]
        var text = names[attribute.attributeType] ?? "type \(attribute.attributeType.rawValue)"
        if attribute is NSDerivedAttributeDescription { text += " (derived)" }
        if let transformer = attribute.valueTransformerName { text += " (\(transformer))" }
        return text
    }

    // MARK: Output

    func text() -> String {
        var lines = ["Store \(storeURL.path)"]
        var versions = "framework version \(frameworkVersion.map(String.init) ?? "?")"
        if let maximumFrameworkVersion, maximumFrameworkVersion != frameworkVersion { versions += " (maximum \(maximumFrameworkVersion))" }
        lines.append("  type \(storeType), UUID \(uuid), \(versions)")
        var journal = "  journal mode \(journalMode)"
        if let walBytes { journal += "; -wal file of \(walBytes) bytes" + (walBytes > 0 ? " (changes not yet in the main file)" : "") }
        if hasShm { journal += "; -shm present" }
        lines.append(journal)
        lines.append("  model: \(modelSource)")
        lines.append("Entities (\(entities.count))")
        for entity in entities {
            var line = "  \(entity.name) #\(entity.number)"
            if let superName = entity.superName { line += " : \(superName)" }
            line += ", \(entity.rows.map { "\($0) row\($0 == 1 ? "" : "s")" } ?? "no table")"
            if let table = entity.table { line += " in \(table)" }
            lines.append(line)
            guard let description = model?.entitiesByName[entity.name] else { continue }
            if description.isAbstract { lines.append("    abstract") }
            for property in description.properties.sorted(by: { $0.name < $1.name }) {
                lines.append("    \(property.name): \(Self.describe(property))")
            }
        }
        for (name, columns) in tables {
            lines.append("  table \(name): \(columns.joined(separator: ", "))")
        }
        if let comparedWith {
            let differing = comparison.filter { $0.status != "same" }
            lines.append(
                "Version hashes against \(comparedWith): "
                    + (differing.isEmpty ? "all \(comparison.count) entities match" : "\(differing.count) of \(comparison.count) entities differ"))
            for item in differing {
                lines.append("  \(item.entity): \(item.status)" + (item.reasons.isEmpty ? "" : ": " + item.reasons.joined(separator: "; ")))
            }
        }
        lines.append(history.isEmpty ? "History: none" : "History: " + history.map { "\($0.table) \($0.rows) rows" }.joined(separator: ", "))
        return lines.joined(separator: "\n") + "\n"
    }

    func json() -> String {
        var object: [String: Any] = [
            "store": storeURL.path, "type": storeType, "uuid": uuid, "journalMode": journalMode, "model": modelSource,
            "shm": hasShm,
        ]
        if let frameworkVersion { object["frameworkVersion"] = frameworkVersion }
        if let maximumFrameworkVersion { object["maximumFrameworkVersion"] = maximumFrameworkVersion }
        if let walBytes { object["walBytes"] = walBytes }
        object["entities"] = entities.map { entity -> [String: Any] in
            var item: [String: Any] = ["name": entity.name, "number": entity.number, "maxPrimaryKey": entity.maxPrimaryKey]
            if let superName = entity.superName { item["superentity"] = superName }
            if let rows = entity.rows { item["rows"] = rows }
            if let table = entity.table { item["table"] = table }
            if let description = model?.entitiesByName[entity.name] {
                item["abstract"] = description.isAbstract
                item["properties"] = description.properties.sorted(by: { $0.name < $1.name }).map { property -> [String: Any] in
                    [
                        "name": property.name, "description": Self.describe(property),
                        "kind": property is NSRelationshipDescription
                            ? "relationship" : property is NSFetchedPropertyDescription ? "fetched" : "attribute",
                    ]
                }
            }
            return item
        }
        if !tables.isEmpty { object["tables"] = tables.map { ["name": $0.name, "columns": $0.columns] } }
        if let comparedWith {
            object["versionHashes"] = [
                "model": comparedWith, "entities": comparison.map { ["entity": $0.entity, "status": $0.status, "reasons": $0.reasons] },
            ]
        }
        object["history"] = history.map { ["table": $0.table, "rows": $0.rows] }
        return JSONText.encode(object) + "\n"
    }
}

/// JSON text for the plain values `ocd` prints, keys in sorted order.
enum JSONText {
    static func encode(_ value: Any?) -> String {
        switch value {
        case nil, is NSNull: return "null"
        case let flag as Bool: return flag ? "true" : "false"
        case let number as Int: return String(number)
        case let number as Int64: return String(number)
        case let number as Double: return number.isFinite ? String(number) : "null"
        case let text as String: return string(text)
        case let array as [Any]: return "[" + array.map { encode($0) }.joined(separator: ", ") + "]"
        case let dictionary as [String: Any]:
            return "{" + dictionary.keys.sorted().map { "\(string($0)): \(encode(dictionary[$0]))" }.joined(separator: ", ") + "}"
        default: return string("\(value!)")
        }
    }

    static func string(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case let c where c.value < 0x20: result += String(format: "\\u%04x", c.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
