/// The entities `Transaction` and `Change` that fetch requests of persistent history are made with
/// (`fetchHistory(withFetch:)`), in a model of their own: Apple's Core Data names them so, and gives them
/// the public properties of ``NSPersistentHistoryTransaction`` and ``NSPersistentHistoryChange``.
///
/// A request's predicate is evaluated on the transactions and changes read from the store, by those
/// properties' names; the entities only say which of the two the request is about.
enum HistoryEntities {
    /// The model holding the two entities, immutable (in use) from the start.
    static let model: NSManagedObjectModel = {
        func attribute(_ name: String, _ type: NSAttributeType) -> NSAttributeDescription {
            let attribute = NSAttributeDescription()
            attribute.name = name
            attribute.attributeType = type
            attribute.isOptional = true
            return attribute
        }
        let transaction = NSEntityDescription()
        transaction.name = transactionName
        let change = NSEntityDescription()
        change.name = changeName
        let changes = NSRelationshipDescription()
        changes.name = "changes"
        changes.destinationEntity = change
        changes.maxCount = 0
        changes.isOptional = true
        let owner = NSRelationshipDescription()
        owner.name = "transaction"
        owner.destinationEntity = transaction
        owner.maxCount = 1
        owner.isOptional = true
        changes.inverseRelationship = owner
        owner.inverseRelationship = changes
        transaction.properties = [
            attribute("author", .stringAttributeType), attribute("bundleID", .stringAttributeType),
            attribute("contextName", .stringAttributeType), attribute("processID", .stringAttributeType),
            attribute("storeID", .stringAttributeType), attribute("timestamp", .dateAttributeType),
            attribute("transactionNumber", .integer64AttributeType), changes,
        ]
        change.properties = [
            attribute("changeID", .integer64AttributeType), attribute("changeType", .integer64AttributeType),
            attribute("changedObjectID", .objectIDAttributeType), attribute("tombstone", .transformableAttributeType),
            attribute("updatedProperties", .transformableAttributeType), owner,
        ]
        let model = NSManagedObjectModel()
        model.entities = [change, transaction]
        try? model._markInUse()
        return model
    }()

    static let transactionName = "Transaction"
    static let changeName = "Change"

    /// The `Transaction` entity.
    static var transaction: NSEntityDescription { model.entitiesByName[transactionName]! }

    /// The `Change` entity.
    static var change: NSEntityDescription { model.entitiesByName[changeName]! }

    /// What a history fetch request is about, from its entity: `nil` when it names neither entity.
    static func subject(of request: NSFetchRequest<NSFetchRequestResult>) -> Subject? {
        if let entity = request.entity {
            if entity === transaction { return .transactions }
            if entity === change { return .changes }
            // An entity of the same name from elsewhere (a copy of the request, a model of the caller's
            // own) counts by its name.
            return subject(named: entity.name)
        }
        return subject(named: request.entityName)
    }

    private static func subject(named name: String?) -> Subject? {
        switch name {
        case transactionName?: return .transactions
        case changeName?: return .changes
        default: return nil
        }
    }

    /// The two things a history fetch request can select.
    enum Subject {
        case transactions
        case changes
    }
}

extension NSPersistentHistoryTransaction {
    /// The `Transaction` entity to make history fetch requests with (see
    /// ``NSPersistentHistoryChangeRequest/fetchHistory(withFetch:)``).
    ///
    /// Apple's Core Data answers `nil` here until a persistent container has loaded its stores; OpenCoreData
    /// always answers the entity.
    public class var entityDescription: NSEntityDescription? {
        HistoryEntities.transaction
    }

    /// A fetch request of the `Transaction` entity.
    public class var fetchRequest: NSFetchRequest<NSFetchRequestResult>? {
        let request = NSFetchRequest<NSFetchRequestResult>()
        request.entity = HistoryEntities.transaction
        return request
    }
}

extension NSPersistentHistoryChange {
    /// The `Change` entity to make history fetch requests with (see
    /// ``NSPersistentHistoryChangeRequest/fetchHistory(withFetch:)``).
    ///
    /// Apple's Core Data answers `nil` here until a persistent container has loaded its stores; OpenCoreData
    /// always answers the entity.
    public class var entityDescription: NSEntityDescription? {
        HistoryEntities.change
    }

    /// A fetch request of the `Change` entity.
    public class var fetchRequest: NSFetchRequest<NSFetchRequestResult>? {
        let request = NSFetchRequest<NSFetchRequestResult>()
        request.entity = HistoryEntities.change
        return request
    }
}
