import OpenCoreDataCore

/// The parts of a fetched results controller's fetch request the controller works with, read when it
/// performs its fetch.
struct FetchedResultsRequest {
    let entity: NSEntityDescription
    let predicate: NSPredicate?
    let sortDescriptors: [NSSortDescriptor]
    let includesSubentities: Bool
    let fetchLimit: Int
    let fetchOffset: Int
    let resultType: NSFetchRequestResultType

    init<ResultType>(_ request: NSFetchRequest<ResultType>, entity: NSEntityDescription) {
        self.entity = entity
        predicate = request.predicate
        sortDescriptors = request.sortDescriptors ?? []
        includesSubentities = request.includesSubentities
        fetchLimit = request.fetchLimit
        fetchOffset = request.fetchOffset
        resultType = request.resultType
    }

    /// Whether an object is of the request's entity (or one of its subentities, when included).
    func covers(_ object: NSManagedObject) -> Bool {
        includesSubentities ? object.entity.isKindOf(entity: entity) : object.entity === entity
    }

    /// Whether the results are windowed, so that objects outside the window may enter it.
    var isWindowed: Bool { fetchLimit > 0 || fetchOffset > 0 }

    /// A description of everything that decides the results and their sections, for the cache.
    func fingerprint(sectionNameKeyPath: String?) -> String {
        let sorts = sortDescriptors.map { descriptor in
            "\(descriptor.key ?? "self") \(descriptor.ascending ? "asc" : "desc") \(descriptor.selector ?? "comparator")"
        }
        let hash = entity.versionHash.base64EncodedString()
        return [
            "entity=\(entity.name ?? "")", "versionHash=\(hash)",
            "predicate=\(predicate?.predicateFormat ?? "")", "sort=\(sorts.joined(separator: ","))",
            "sectionNameKeyPath=\(sectionNameKeyPath ?? "")", "subentities=\(includesSubentities)",
            "limit=\(fetchLimit)", "offset=\(fetchOffset)", "resultType=\(resultType.rawValue)",
        ].joined(separator: "\n")
    }
}
