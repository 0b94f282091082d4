import OpenCoreDataCore

/// Methods a fetched results controller calls when the results of its fetch request change.
///
/// Every method is optional: the protocol extension provides implementations that do nothing, so
/// implement only the ones you use. The controller tracks changes in its managed object context only
/// while it has a delegate.
///
/// When the controller has no section key path and the delegate implements
/// ``controller(_:didChangeContentWith:)``, the controller calls only that method for a change; otherwise
/// it calls ``controllerWillChangeContent(_:)``, then the section and object change methods, then
/// ``controllerDidChangeContent(_:)``.
public protocol NSFetchedResultsControllerDelegate: NSObjectProtocol {
    /// Notifies the delegate that the controller is about to report one or more changes.
    func controllerWillChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>)

    /// Notifies the delegate that a fetched object was inserted, deleted, moved or updated.
    ///
    /// `indexPath` is the object's index path before the change (`nil` for an insertion); `newIndexPath`
    /// its index path after the change (`nil` for a deletion). Deletions and updates refer to the old
    /// results, insertions and moves' destinations to the new ones, as a table view applies batch updates.
    func controller(
        _ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange anObject: Any,
        at indexPath: IndexPath?, for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?)

    /// Notifies the delegate that a section was inserted or deleted.
    func controller(
        _ controller: NSFetchedResultsController<NSFetchRequestResult>,
        didChange sectionInfo: NSFetchedResultsSectionInfo, atSectionIndex sectionIndex: Int,
        for type: NSFetchedResultsChangeType)

    /// Notifies the delegate that the controller has reported every change of the current event.
    func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>)

    /// Returns the section index title for a section name; by default the controller's
    /// ``NSFetchedResultsController/sectionIndexTitle(forSectionName:)``.
    func controller(
        _ controller: NSFetchedResultsController<NSFetchRequestResult>,
        sectionIndexTitleForSectionName sectionName: String
    ) -> String?

    /// Notifies the delegate of a change to the results as a difference between the old and the new
    /// ordered lists of object IDs.
    ///
    /// Called only when the controller has no section key path. When implemented, no other change
    /// method is called.
    func controller(
        _ controller: NSFetchedResultsController<NSFetchRequestResult>,
        didChangeContentWith diff: CollectionDifference<NSManagedObjectID>)
}

extension NSFetchedResultsControllerDelegate {
    /// Does nothing.
    public func controllerWillChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {}

    /// Does nothing.
    public func controller(
        _ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange anObject: Any,
        at indexPath: IndexPath?, for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?
    ) {}

    /// Does nothing.
    public func controller(
        _ controller: NSFetchedResultsController<NSFetchRequestResult>,
        didChange sectionInfo: NSFetchedResultsSectionInfo, atSectionIndex sectionIndex: Int,
        for type: NSFetchedResultsChangeType
    ) {}

    /// Does nothing.
    public func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {}

    /// Returns the controller's own index title for the section name.
    public func controller(
        _ controller: NSFetchedResultsController<NSFetchRequestResult>,
        sectionIndexTitleForSectionName sectionName: String
    ) -> String? {
        controller.core.defaultIndexTitle(forSectionName: sectionName)
    }

    /// Does nothing: the controller then reports the change through the other delegate methods.
    public func controller(
        _ controller: NSFetchedResultsController<NSFetchRequestResult>,
        didChangeContentWith diff: CollectionDifference<NSManagedObjectID>
    ) {
        controller.core.differenceCallbackIsDefault = true
    }
}
