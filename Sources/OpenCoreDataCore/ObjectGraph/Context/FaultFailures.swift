import Foundation

// Faults whose rows cannot be loaded.
//
// A property accessor cannot throw. When it fires a fault whose row the store cannot read (a damaged
// store file), or whose row is gone while `shouldDeleteInaccessibleFaults` is `false`, Core Data raises
// an exception, which stops a Swift program. Here the object reads with no values instead (as an object
// whose row is gone reads when inaccessible faults are deleted, but not deleted), a to-many relationship
// that cannot be read reads as empty, and the context keeps the error. A save that would write such an
// object — changed or deleted — throws it and writes nothing, so the row the context could not read is
// never overwritten with values it never had. Loading the object again (`refresh(_:mergeChanges:)`,
// `reset()`, another fetch) forgets the error.

extension NSManagedObjectContext {
    /// Leaves a fault whose row could not be loaded with no values, keeping `error` for a save.
    func _failFault(_ object: NSManagedObject, _ error: NSError) {
        object.storage.removeAll()
        object.toMany = [:]
        _recordFaultFailure(of: object._objectID, error, relationship: nil)
    }

    /// Keeps the error of a row, or of a to-many relationship, of the object with the given ID that the
    /// store could not read.
    func _recordFaultFailure(of objectID: NSManagedObjectID, _ error: NSError, relationship: NSRelationshipDescription?) {
        var userInfo = error.userInfo
        let what = relationship.map { "the relationship \"\($0.name)\" of " } ?? ""
        userInfo[NSLocalizedDescriptionKey] =
            "Core Data could not fulfill a fault for \(what)\(objectID.uriRepresentation().absoluteString): "
            + error.localizedDescription
        userInfo[NSUnderlyingErrorKey] = error
        userInfo[NSAffectedObjectsErrorKey] = [objectID]
        _faultFailures[objectID] = NSError(domain: error.domain, code: error.code, userInfo: userInfo)
    }

    /// Throws the kept error of an object the save would write (changed or deleted) whose row or
    /// to-many relationship could not be loaded.
    func _throwFaultFailures() throws {
        guard !_faultFailures.isEmpty else { return }
        for changes in [_updated, _deleted] {
            for object in changes.values {
                if let error = _faultFailures[object._objectID] { throw error }
            }
        }
    }
}
