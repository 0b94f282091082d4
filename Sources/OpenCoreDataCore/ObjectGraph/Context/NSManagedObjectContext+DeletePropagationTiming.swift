extension NSManagedObjectContext {
    /// A Boolean value that indicates whether the context propagates deletes at the end of the event in
    /// which a change was made.
    ///
    /// When `true` (the default), the delete rules of deleted objects run at the end of each event
    /// (``processPendingChanges()``): related objects are nullified, cascaded or checked right away.
    /// When `false`, they run only when the context saves; until then deleted objects keep their
    /// relationships and related objects are not yet deleted or changed.
    public var propagatesDeletesAtEndOfEvent: Bool {
        get { _propagatesDeletesAtEndOfEvent }
        set {
            _checkQueue("propagatesDeletesAtEndOfEvent")
            _propagatesDeletesAtEndOfEvent = newValue
        }
    }
}
