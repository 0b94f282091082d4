extension NSManagedObjectContext {
    /// Loads the rows of deleted objects that are still faults, before a save applies their delete rules.
    ///
    /// The delete rules need each deleted object's values, so they fire its fault; a fault fired there
    /// cannot report a row the store fails to read (a damaged row, a missing external data file) except
    /// by trapping. Loading those rows first lets `save()` throw the store's error instead, with nothing
    /// written and the context's changes kept. An object whose rules were skipped because its row could
    /// not be read (see ``_loadDeletedObject(_:)``) gets them applied once its row loads.
    func _loadDeletedFaults() throws {
        for object in _deleted.values where object._isFault {
            guard let row = try _coordinatorRow(for: object._objectID, fresh: stalenessInterval >= 0) else { continue }
            fulfill(object, from: row)
            object.preparedForDeletion = false
        }
    }

    /// Fires a deleted object's fault so that its delete rules can run; `false` when the store cannot
    /// read its row. The object then stays a fault and its rules wait: a save first calls
    /// ``_loadDeletedFaults()``, which throws the store's error (processing pending changes, as
    /// `rollback()` and `processPendingChanges()` do, cannot report one).
    func _loadDeletedObject(_ object: NSManagedObject) -> Bool {
        guard object._isFault else { return true }
        do {
            if let row = try _coordinatorRow(for: object._objectID, fresh: stalenessInterval >= 0) {
                fulfill(object, from: row)
            } else {
                // A row that is gone: the fault's own rules (delete inaccessible faults, or trap as Apple does).
                object.willAccessValue(forKey: nil)
            }
            return true
        } catch {
            return false
        }
    }
}
