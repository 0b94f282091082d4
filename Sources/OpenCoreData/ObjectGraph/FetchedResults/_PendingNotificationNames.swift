// TEMPORARY (branch frc only): stands in for the `contexts` helper's notification names until they land in main.
extension Notification.Name {
    static let NSManagedObjectContextObjectsDidChange = Notification.Name("NSObjectsChangedInManagingContextNotification")
}
let NSInsertedObjectsKey = "inserted"
let NSUpdatedObjectsKey = "updated"
let NSDeletedObjectsKey = "deleted"
let NSRefreshedObjectsKey = "refreshed"
let NSInvalidatedObjectsKey = "invalidated"
let NSInvalidatedAllObjectsKey = "invalidatedAll"
