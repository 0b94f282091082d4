/// Which destination instances a migration created from which source instances, per entity mapping.
struct MigrationAssociations {
    /// The associations of one entity mapping, in the order they were made.
    struct Table {
        var destinationsBySource: [NSManagedObjectID: [NSManagedObject]] = [:]
        var sourcesByDestination: [ObjectIdentifier: [NSManagedObject]] = [:]
        /// Every destination instance of the mapping, once each, in creation order.
        var destinations: [NSManagedObject] = []
        var sources: [NSManagedObject] = []
    }

    private(set) var tables: [String: Table] = [:]
    /// Destination instances by source instance, over every mapping.
    private(set) var destinationsBySource: [NSManagedObjectID: [NSManagedObject]] = [:]

    /// Records that `destination` was created from `source` by the mapping named `mapping`.
    mutating func associate(_ source: NSManagedObject, _ destination: NSManagedObject, mapping: String) {
        var table = tables[mapping] ?? Table()
        let key = source.objectID
        if table.destinationsBySource[key] == nil { table.sources.append(source) }
        table.destinationsBySource[key, default: []].append(destination)
        if table.sourcesByDestination[ObjectIdentifier(destination)] == nil { table.destinations.append(destination) }
        table.sourcesByDestination[ObjectIdentifier(destination), default: []].append(source)
        tables[mapping] = table
        destinationsBySource[key, default: []].append(destination)
    }

    /// The destination instances the mapping created for `sources` (all of them when `nil`).
    func destinations(mapping: String, sources: [NSManagedObject]?) -> [NSManagedObject] {
        guard let table = tables[mapping] else { return [] }
        guard let sources else { return table.destinations }
        return sources.flatMap { table.destinationsBySource[$0.objectID] ?? [] }
    }

    /// The source instances the mapping created `destinations` from (all of them when `nil`).
    func sources(mapping: String, destinations: [NSManagedObject]?) -> [NSManagedObject] {
        guard let table = tables[mapping] else { return [] }
        guard let destinations else { return table.sources }
        return destinations.flatMap { table.sourcesByDestination[ObjectIdentifier($0)] ?? [] }
    }

    /// The destination instances any mapping created for `sources`.
    func destinations(anyMappingFor sources: [NSManagedObject]) -> [NSManagedObject] {
        sources.flatMap { destinationsBySource[$0.objectID] ?? [] }
    }

    /// The number of destination instances created so far.
    var destinationCount: Int { tables.values.reduce(0) { $0 + $1.destinations.count } }
}
