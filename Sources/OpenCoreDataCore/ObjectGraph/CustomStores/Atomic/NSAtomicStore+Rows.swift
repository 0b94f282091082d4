import Foundation

/// How the coordinator reads an atomic store: the nodes `load()` made, selected in memory by entity,
/// predicate, sort descriptors, offset and limit, and turned into rows.
extension NSAtomicStore {
    func _openStore(model: NSManagedObjectModel) throws {
        _model = model
        try loadMetadata()
        guard let metadata, metadata[NSStoreUUIDKey] is String else {
            throw _badValue("has no NSStoreUUIDKey in its metadata after load().")
        }
        if metadata[NSStoreModelVersionHashesKey] != nil {
            let configuration = configurationName == "PF_DEFAULT_CONFIGURATION_NAME" ? nil : configurationName
            guard model.isConfiguration(withName: configuration, compatibleWithStoreMetadata: metadata) else {
                throw NSError(
                    domain: NSCocoaErrorDomain, code: NSPersistentStoreIncompatibleVersionHashError,
                    userInfo: [
                        NSLocalizedDescriptionKey:
                            "The model used to open the store at \(url?.path ?? "(no location)") is incompatible with the one used to create it.",
                        NSAffectedStoresErrorKey: [self],
                    ])
            }
        }
        // Each node's values must be usable before any fetch reads them.
        for node in cacheNodes() { _ = try _row(from: node) }
    }

    /// The nodes a request selects, in result order.
    func _selectedNodes<Result>(_ request: NSFetchRequest<Result>, entity: NSEntityDescription) throws -> [NSAtomicStoreCacheNode] {
        try FetchRequestKeyPaths.check(request, entity: entity)
        let nodes = cacheNodes().filter { node in
            request.includesSubentities ? node.objectID.entity.isKindOf(entity: entity) : node.objectID.entity.name == entity.name
        }
        var objects = nodes.map { AtomicNodeObject(node: $0) }
        if let predicate = request.predicate {
            objects = objects.filter { predicate.evaluate(with: $0) }
        }
        objects.sort { a, b in
            for descriptor in request.sortDescriptors ?? [] {
                let order = descriptor.compare(a, to: b)
                if order != .orderedSame { return order == .orderedAscending }
            }
            return (a.node.objectID.primaryKey ?? 0) < (b.node.objectID.primaryKey ?? 0)
        }
        let start = min(max(request.fetchOffset, 0), objects.count)
        var window = objects[start...].map(\.node)
        if request.fetchLimit > 0 { window = Array(window.prefix(request.fetchLimit)) }
        return window
    }

    /// A node's values as a row: attributes in canonical form, to-one relationships as IDs.
    func _row(from node: NSAtomicStoreCacheNode) throws -> StoreRow {
        let entity = node.objectID.entity
        var values: [String: Any] = [:]
        for attribute in entity.attributesByName.values where !attribute.isTransient {
            guard let raw = node.value(forKey: attribute.name), !(raw is NSNull) else { continue }
            guard let value = ManagedValueCoercion.canonical(raw, for: attribute.attributeType) else {
                throw _badValue(
                    "holds \(Swift.type(of: raw)) for the attribute \(attribute.name) of \(entity.name ?? "an object"), which is not a value of its type."
                )
            }
            values[attribute.name] = value
        }
        for relationship in entity.relationshipsByName.values where !relationship.isToMany && !relationship.isTransient {
            if let id = try _destinationIDs(node.value(forKey: relationship.name), of: relationship, in: node).first {
                values[relationship.name] = id
            }
        }
        return StoreRow(objectID: node.objectID, version: node._version, values: values)
    }

    /// The destinations a node holds for a relationship: cache nodes (or IDs), alone or in a collection.
    func _destinationIDs(_ value: Any?, of relationship: NSRelationshipDescription, in node: NSAtomicStoreCacheNode) throws -> [NSManagedObjectID] {
        guard let value, !(value is NSNull) else { return [] }
        let elements: [Any]
        if let nodes = value as? Set<NSAtomicStoreCacheNode> {
            elements = Array(nodes)
        } else if let nodes = value as? [NSAtomicStoreCacheNode] {
            elements = nodes
        } else if let set = value as? NSOrderedSet {
            elements = set.array
        } else if let set = value as? NSSet {
            elements = set.allObjects
        } else if let set = value as? Set<AnyHashable> {
            elements = Array(set)
        } else if let array = value as? [Any] {
            elements = array
        } else {
            elements = [value]
        }
        return try elements.map { element in
            let id: NSManagedObjectID
            if let target = element as? NSAtomicStoreCacheNode {
                id = target.objectID
            } else if let target = element as? NSManagedObjectID {
                id = target
            } else {
                throw _badValue(
                    "holds \(Swift.type(of: element)) for the relationship \(relationship.name) of \(node.objectID.entity.name ?? "an object"); expected cache nodes."
                )
            }
            if let destination = relationship.destinationEntity, !id.entity.isKindOf(entity: destination) {
                throw _badValue(
                    "holds an object of \(id.entity.name ?? "?") for the relationship \(relationship.name), whose destination is \(destination.name ?? "?")."
                )
            }
            return id
        }
    }
}

/// A cache node as predicates and sort descriptors see it: attribute values, to-one destinations as
/// node objects, to-many destinations as sets (arrays when ordered) of node objects. Equal to its object
/// ID and to any managed object with that ID.
final class AtomicNodeObject: NSObject, KeyValueCoding {
    let node: NSAtomicStoreCacheNode

    init(node: NSAtomicStoreCacheNode) {
        self.node = node
    }

    func value(forKey key: String) -> Any? {
        if key == "objectID" { return node.objectID }
        let value = node.value(forKey: key)
        guard let relationship = node.objectID.entity.relationshipsByName[key] else {
            if let value, let attribute = node.objectID.entity.attributesByName[key] {
                return ManagedValueCoercion.canonical(value, for: attribute.attributeType) ?? value
            }
            return value
        }
        func wrap(_ element: Any) -> Any { (element as? NSAtomicStoreCacheNode).map(AtomicNodeObject.init(node:)) ?? element }
        if !relationship.isToMany {
            guard let value, !(value is NSNull) else { return nil }
            return wrap(value)
        }
        let elements: [Any]
        if let nodes = value as? Set<NSAtomicStoreCacheNode> {
            elements = Array(nodes)
        } else if let set = value as? NSOrderedSet {
            elements = set.array
        } else if let set = value as? NSSet {
            elements = set.allObjects
        } else if let array = value as? [Any] {
            elements = array
        } else {
            elements = []
        }
        let objects = elements.map(wrap)
        return relationship.isOrdered ? objects as [Any] : NSSet(array: objects)
    }

    override func isEqual(_ object: Any?) -> Bool {
        if let other = object as? AtomicNodeObject { return other.node.objectID == node.objectID }
        if let id = object as? NSManagedObjectID { return id == node.objectID }
        if let representable = object as? ObjectIDRepresentable { return representable.objectIDForStore == node.objectID }
        return false
    }

    override var hash: Int {
        node.objectID.hash
    }
}
