/// The store-level form of batch requests: plain descriptions of what to change, and what changed.
///
/// The object graph turns `NSBatchUpdateRequest`, `NSBatchDeleteRequest` and `NSBatchInsertRequest` into
/// these; the coordinator hands them to the stores that hold the entity.

/// A new value of a batch update: a constant, or an expression evaluated against each row.
enum BatchUpdateValue {
    case constant(Any?)
    case expression(NSExpression)
}

/// A batch update of the rows of one entity.
struct BatchUpdateOperation {
    let entity: NSEntityDescription
    let predicate: NSPredicate?
    let includesSubentities: Bool
    /// The attributes to set, with their new values.
    let values: [(attribute: NSAttributeDescription, value: BatchUpdateValue)]
    /// Whether the store must report the IDs of the rows it updated (not only their number).
    let reportsObjectIDs: Bool
}

/// A batch delete of the rows a fetch request matches, or of rows named by ID.
struct BatchDeleteOperation {
    let entity: NSEntityDescription
    /// The request selecting the rows, when the delete was made from a fetch request.
    let fetchRequest: NSFetchRequest<NSFetchRequestResult>?
    /// The rows to delete, when the delete was made from object IDs.
    let objectIDs: [NSManagedObjectID]?
}

/// What a batch delete did.
struct BatchDeleteOutcome {
    /// The rows deleted: those requested and those reached by cascading delete rules.
    var deleted: [NSManagedObjectID] = []
    /// The rows the request matched (a subset of `deleted`).
    var requested: [NSManagedObjectID] = []
    /// Rows whose references to deleted rows were cleared by nullify rules.
    var nullified: [NSManagedObjectID] = []
}

/// A batch insert of rows of one entity: attribute name → value, defaults already applied.
struct BatchInsertOperation {
    let entity: NSEntityDescription
    let rows: [[String: Any]]
}

/// A store that runs batch operations directly on its storage.
protocol BatchOperationStore: NSPersistentStore {
    /// Updates the matching rows; returns how many, and their IDs when the operation asks for them.
    func batchUpdate(_ operation: BatchUpdateOperation) throws -> (count: Int, objectIDs: [NSManagedObjectID]?)
    /// Deletes the rows and applies delete rules.
    func batchDelete(_ operation: BatchDeleteOperation) throws -> BatchDeleteOutcome
    /// Inserts the rows (updating rows they match on a uniqueness constraint); returns their IDs in order.
    func batchInsert(_ operation: BatchInsertOperation) throws -> [NSManagedObjectID]
}
