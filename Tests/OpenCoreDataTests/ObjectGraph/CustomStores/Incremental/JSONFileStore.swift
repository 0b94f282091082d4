import Foundation
import OpenCoreData

/// A small incremental store written against OpenCoreData's public API alone: every record of every
/// entity in one JSON file, rewritten at each save. Reference objects are integers; dates are kept as
/// seconds since the reference date. It records the calls Core Data makes, for the tests to read.
// @unchecked Sendable: `records`, `nextKey` and the call logs are read and written only while holding
// `lock`.
final class JSONFileStore: NSIncrementalStore, @unchecked Sendable {
    static let storeType = "JSONFile"

    /// One stored object: its entity, version and values (attributes as JSON values, to-one
    /// relationships as keys, to-many relationships as arrays of keys, missing keys for `nil`).
    struct Record {
        var entity: String
        var version: UInt64
        var values: [String: Any]
    }

    let lock = NSLock()
    var records: [Int: Record] = [:]
    var nextKey = 1
    var nodeRequests: [NSManagedObjectID] = []
    var relationshipRequests: [String] = []
    var executedRequests: [NSPersistentStoreRequest] = []
    var contexts: [ObjectIdentifier] = []
    var registered: [NSManagedObjectID] = []
    var unregistered: [NSManagedObjectID] = []

    static func register() {
        NSPersistentStoreCoordinator.registerStoreClass(JSONFileStore.self, type: NSPersistentStore.StoreType(rawValue: storeType))
    }

    override class func identifierForNewStore(at storeURL: URL) -> Any {
        "JSON-\(UUID().uuidString)"
    }

    override func loadMetadata() throws {
        guard let url else { throw NSError(domain: NSCocoaErrorDomain, code: NSFileReadNoSuchFileError) }
        let data = (try? Data(contentsOf: url)) ?? Data()
        if data.isEmpty {
            metadata = [
                NSStoreTypeKey: Self.storeType,
                NSStoreUUIDKey: Self.identifierForNewStore(at: url),
            ]
            return
        }
        guard let file = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let uuid = file["uuid"] as? String, let stored = file["records"] as? [String: [String: Any]]
        else {
            throw NSError(
                domain: NSCocoaErrorDomain, code: NSPersistentStoreInvalidTypeError,
                userInfo: [
                    NSLocalizedDescriptionKey: "\(url.path) is not a JSON store file."
                ])
        }
        var loaded: [Int: Record] = [:]
        for (key, record) in stored {
            guard let key = Int(key), let entity = record["entity"] as? String, let version = record["version"] as? Int,
                let values = record["values"] as? [String: Any]
            else { continue }
            loaded[key] = Record(entity: entity, version: UInt64(version), values: values)
        }
        lock.withLock {
            records = loaded
            nextKey = file["nextKey"] as? Int ?? (loaded.keys.max() ?? 0) + 1
        }
        var metadata = file["metadata"] as? [String: Any] ?? [:]
        metadata[NSStoreTypeKey] = Self.storeType
        metadata[NSStoreUUIDKey] = uuid
        self.metadata = metadata
    }

    // MARK: Fetching

    override func execute(_ request: NSPersistentStoreRequest, with context: NSManagedObjectContext?) throws -> Any {
        lock.withLock {
            executedRequests.append(request)
            if let context { contexts.append(ObjectIdentifier(context)) }
        }
        if let save = request as? NSSaveChangesRequest { return try executeSave(save) }
        guard let fetch = request as? NSFetchRequest<NSFetchRequestResult>, let entity = fetch.entity else {
            throw NSError(domain: NSCocoaErrorDomain, code: NSPersistentStoreUnsupportedRequestTypeError)
        }
        var names: Set<String> = [entity.name ?? ""]
        if fetch.includesSubentities {
            var pending = entity.subentities
            while let next = pending.popLast() {
                names.insert(next.name ?? "")
                pending += next.subentities
            }
        }
        let snapshot = lock.withLock { records }
        var rows: [(key: Int, entity: String, values: [String: Any])] = snapshot.filter { names.contains($0.value.entity) }
            .map { (key: $0.key, entity: $0.value.entity, values: attributeValues($0.value)) }
            .sorted { $0.key < $1.key }
        if let predicate = fetch.predicate {
            rows = rows.filter { predicate.evaluate(with: $0.values) }
        }
        if let descriptors = fetch.sortDescriptors, !descriptors.isEmpty {
            rows.sort { a, b in
                for descriptor in descriptors {
                    let order = descriptor.compare(a.values as NSDictionary, to: b.values as NSDictionary)
                    if order != .orderedSame { return order == .orderedAscending }
                }
                return a.key < b.key
            }
        }
        rows = Array(rows.dropFirst(fetch.fetchOffset))
        if fetch.fetchLimit > 0 { rows = Array(rows.prefix(fetch.fetchLimit)) }
        let model = context?.persistentStoreCoordinator?.managedObjectModel
        func objectID(_ row: (key: Int, entity: String, values: [String: Any])) -> NSManagedObjectID {
            newObjectID(for: model?.entitiesByName[row.entity] ?? entity, referenceObject: row.key)
        }
        switch fetch.resultType {
        case .countResultType:
            return [NSNumber(value: rows.count)]
        case .managedObjectIDResultType:
            return rows.map(objectID)
        case .dictionaryResultType:
            let keys = (fetch.propertiesToFetch ?? []).compactMap { ($0 as? NSPropertyDescription)?.name ?? $0 as? String }
            return rows.map { row in keys.isEmpty ? row.values : row.values.filter { keys.contains($0.key) } }
        default:
            guard let context else { return [] }
            return rows.map { context.object(with: objectID($0)) }
        }
    }

    /// A record's attribute values, as a predicate reads them.
    private func attributeValues(_ record: Record) -> [String: Any] {
        guard let entity = persistentStoreCoordinator?.managedObjectModel.entitiesByName[record.entity] else { return [:] }
        var values: [String: Any] = [:]
        for (name, attribute) in entity.attributesByName {
            guard let value = record.values[name] else { continue }
            values[name] =
                attribute.attributeType == .dateAttributeType
                ? Date(timeIntervalSinceReferenceDate: (value as? Double) ?? 0) : value
        }
        return values
    }

    override func newValuesForObject(with objectID: NSManagedObjectID, with context: NSManagedObjectContext) throws -> NSIncrementalStoreNode {
        let key = try self.key(of: objectID)
        let record = lock.withLock {
            nodeRequests.append(objectID)
            contexts.append(ObjectIdentifier(context))
            return records[key]
        }
        guard let record else {
            throw NSError(
                domain: NSCocoaErrorDomain, code: NSManagedObjectReferentialIntegrityError,
                userInfo: [
                    NSLocalizedDescriptionKey: "No record \(key)."
                ])
        }
        var values = attributeValues(record)
        for (name, relationship) in objectID.entity.relationshipsByName where !relationship.isToMany {
            if let destination = relationship.destinationEntity, let key = record.values[name] as? Int {
                values[name] = newObjectID(for: destination, referenceObject: key)
            } else {
                values[name] = NSNull()
            }
        }
        return NSIncrementalStoreNode(objectID: objectID, withValues: values, version: record.version)
    }

    override func newValue(
        forRelationship relationship: NSRelationshipDescription, forObjectWith objectID: NSManagedObjectID,
        with context: NSManagedObjectContext?
    ) throws -> Any {
        let key = try self.key(of: objectID)
        let record = lock.withLock {
            relationshipRequests.append(relationship.name)
            return records[key]
        }
        guard let record, let destination = relationship.destinationEntity else { return NSNull() }
        let model = persistentStoreCoordinator?.managedObjectModel
        if relationship.isToMany {
            let keys = record.values[relationship.name] as? [Int] ?? []
            let snapshot = lock.withLock { records }
            return keys.compactMap { key in
                snapshot[key].map { newObjectID(for: model?.entitiesByName[$0.entity] ?? destination, referenceObject: key) }
            }
        }
        guard let key = record.values[relationship.name] as? Int else { return NSNull() }
        return newObjectID(for: destination, referenceObject: key)
    }

    override func obtainPermanentIDs(for array: [NSManagedObject]) throws -> [NSManagedObjectID] {
        let first = lock.withLock {
            defer { nextKey += array.count }
            return nextKey
        }
        return array.enumerated().map { offset, object in newObjectID(for: object.entity, referenceObject: first + offset) }
    }

    override func managedObjectContextDidRegisterObjects(with objectIDs: [NSManagedObjectID]) {
        lock.withLock { registered += objectIDs }
    }

    override func managedObjectContextDidUnregisterObjects(with objectIDs: [NSManagedObjectID]) {
        lock.withLock { unregistered += objectIDs }
    }

    // MARK: Saving

    private func executeSave(_ request: NSSaveChangesRequest) throws -> [Any] {
        var changed: [Int: Record?] = [:]
        for object in request.insertedObjects ?? [] {
            changed[try key(of: object.objectID)] = record(of: object, version: 1)
        }
        let current = lock.withLock { records }
        for object in request.updatedObjects ?? [] {
            let key = try key(of: object.objectID)
            changed[key] = record(of: object, version: (current[key]?.version ?? 0) + 1)
        }
        for object in request.deletedObjects ?? [] {
            changed[try key(of: object.objectID)] = .some(nil)
        }
        try lock.withLock {
            var next = records
            for (key, record) in changed { next[key] = record }
            try write(next)
            records = next
        }
        return []
    }

    /// An object's values as a record.
    private func record(of object: NSManagedObject, version: UInt64) -> Record {
        var values: [String: Any] = [:]
        for (name, attribute) in object.entity.attributesByName where !attribute.isTransient {
            guard let value = object.value(forKey: name) else { continue }
            values[name] = (value as? Date)?.timeIntervalSinceReferenceDate ?? value
        }
        for (name, relationship) in object.entity.relationshipsByName {
            if relationship.isToMany {
                let destinations =
                    (object.value(forKey: name) as? Set<NSManagedObject>).map(Array.init)
                    ?? (object.value(forKey: name) as? NSOrderedSet)?.array.compactMap { $0 as? NSManagedObject } ?? []
                values[name] = destinations.compactMap { try? key(of: $0.objectID) }.sorted()
            } else if let destination = object.value(forKey: name) as? NSManagedObject {
                values[name] = try? key(of: destination.objectID)
            }
        }
        return Record(entity: object.entity.name ?? "", version: version, values: values)
    }

    /// Writes every record to the file (caller holds `lock`).
    private func write(_ records: [Int: Record]) throws {
        guard let url else { return }
        var stored: [String: Any] = [:]
        for (key, record) in records {
            stored[String(key)] = ["entity": record.entity, "version": Int(record.version), "values": record.values]
        }
        var userMetadata = metadata ?? [:]
        userMetadata[NSStoreTypeKey] = nil
        userMetadata[NSStoreUUIDKey] = nil
        let file: [String: Any] = [
            "uuid": identifier ?? "", "nextKey": nextKey, "records": stored,
            "metadata": userMetadata.filter { JSONSerialization.isValidJSONObject([$0.value]) },
        ]
        try JSONSerialization.data(withJSONObject: file, options: [.sortedKeys]).write(to: url, options: .atomic)
    }

    /// The integer key of one of the store's object IDs.
    func key(of objectID: NSManagedObjectID) throws -> Int {
        if let key = referenceObject(for: objectID) as? NSNumber { return key.intValue }
        throw NSError(
            domain: NSCocoaErrorDomain, code: NSManagedObjectReferentialIntegrityError,
            userInfo: [
                NSLocalizedDescriptionKey: "\(objectID) is not an object of this store."
            ])
    }
}
