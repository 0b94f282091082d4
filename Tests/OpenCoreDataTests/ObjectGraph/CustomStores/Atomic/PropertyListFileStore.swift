import Foundation
import OpenCoreData

/// A small atomic store written against OpenCoreData's public API alone: every object in one property
/// list file, read whole by `load()` and written whole by `save()`. Reference objects are strings
/// (`"<Entity>-<n>"`); relationships are kept as lists of reference objects.
// @unchecked Sendable: `nextNumber`, `saves` and `failNextSave` are read and written only while
// holding `lock`.
final class PropertyListFileStore: NSAtomicStore, @unchecked Sendable {
    static let storeType = "PropertyListFile"

    let lock = NSLock()
    var nextNumber = 1
    var saves = 0
    var removedNodes: [NSManagedObjectID] = []
    var failNextSave = false

    static func register() {
        NSPersistentStoreCoordinator.registerStoreClass(PropertyListFileStore.self, type: NSPersistentStore.StoreType(rawValue: storeType))
    }

    override func load() throws {
        guard let url, let model = persistentStoreCoordinator?.managedObjectModel else { return }
        guard let data = try? Data(contentsOf: url), !data.isEmpty else {
            metadata = [NSStoreTypeKey: Self.storeType, NSStoreUUIDKey: UUID().uuidString]
            return
        }
        guard let file = try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any],
            let uuid = file["uuid"] as? String, let objects = file["objects"] as? [String: [String: Any]]
        else {
            throw NSError(
                domain: NSCocoaErrorDomain, code: NSPersistentStoreInvalidTypeError,
                userInfo: [
                    NSLocalizedDescriptionKey: "\(url.path) is not a property list store."
                ])
        }
        // The metadata first: object IDs carry the store's UUID.
        metadata = [NSStoreTypeKey: Self.storeType, NSStoreUUIDKey: uuid]
        // Every node first, then the relationships between them.
        var nodes: [String: NSAtomicStoreCacheNode] = [:]
        for (reference, object) in objects {
            guard let entityName = object["entity"] as? String, let entity = model.entitiesByName[entityName] else { continue }
            nodes[reference] = NSAtomicStoreCacheNode(objectID: objectID(for: entity, withReferenceObject: reference))
        }
        for (reference, object) in objects {
            guard let node = nodes[reference], let values = object["values"] as? [String: Any] else { continue }
            let entity = node.objectID.entity
            for (name, value) in values {
                if let relationship = entity.relationshipsByName[name] {
                    let targets = (value as? [String] ?? []).compactMap { nodes[$0] }
                    if relationship.isToMany {
                        node.setValue(Set(targets), forKey: name)
                    } else {
                        node.setValue(targets.first, forKey: name)
                    }
                } else {
                    node.setValue(value, forKey: name)
                }
            }
        }
        addCacheNodes(Set(nodes.values))
        lock.withLock { nextNumber = file["nextNumber"] as? Int ?? objects.count + 1 }
    }

    override func save() throws {
        guard let url else { return }
        let failing = lock.withLock {
            defer { failNextSave = false }
            return failNextSave
        }
        if failing {
            throw NSError(
                domain: NSCocoaErrorDomain, code: NSFileWriteOutOfSpaceError,
                userInfo: [
                    NSLocalizedDescriptionKey: "No room for \(url.path)."
                ])
        }
        var objects: [String: Any] = [:]
        for node in cacheNodes() {
            guard let reference = referenceObject(for: node.objectID) as? String else { continue }
            var values: [String: Any] = [:]
            for (key, value) in node.propertyCache ?? [:] {
                guard let key = key as? String else { continue }
                if let target = value as? NSAtomicStoreCacheNode {
                    values[key] = [referenceObject(for: target.objectID) as? String].compactMap { $0 }
                } else if let targets = value as? Set<NSAtomicStoreCacheNode> {
                    values[key] = targets.compactMap { referenceObject(for: $0.objectID) as? String }.sorted()
                } else {
                    values[key] = value
                }
            }
            objects[reference] = ["entity": node.objectID.entity.name ?? "", "values": values]
        }
        let file: [String: Any] = ["uuid": identifier ?? "", "objects": objects, "nextNumber": lock.withLock { nextNumber }]
        let data = try PropertyListSerialization.data(fromPropertyList: file, format: .xml, options: 0)
        try data.write(to: url, options: .atomic)
        lock.withLock { saves += 1 }
    }

    override func newReferenceObject(for managedObject: NSManagedObject) -> Any {
        lock.withLock {
            defer { nextNumber += 1 }
            return "\(managedObject.entity.name ?? "Object")-\(nextNumber)"
        }
    }

    override func newCacheNode(for managedObject: NSManagedObject) -> NSAtomicStoreCacheNode {
        NSAtomicStoreCacheNode(objectID: managedObject.objectID)
    }

    override func updateCacheNode(_ node: NSAtomicStoreCacheNode, from managedObject: NSManagedObject) {
        for (name, attribute) in managedObject.entity.attributesByName where !attribute.isTransient {
            node.setValue(managedObject.value(forKey: name), forKey: name)
        }
        for (name, relationship) in managedObject.entity.relationshipsByName {
            if relationship.isToMany {
                let objects = managedObject.value(forKey: name) as? Set<NSManagedObject> ?? []
                node.setValue(Set(objects.compactMap { cacheNode(for: $0.objectID) }), forKey: name)
            } else {
                let object = managedObject.value(forKey: name) as? NSManagedObject
                node.setValue(object.flatMap { cacheNode(for: $0.objectID) }, forKey: name)
            }
        }
    }

    override func willRemoveCacheNodes(_ cacheNodes: Set<NSAtomicStoreCacheNode>) {
        lock.withLock { removedNodes += cacheNodes.map(\.objectID) }
    }
}
