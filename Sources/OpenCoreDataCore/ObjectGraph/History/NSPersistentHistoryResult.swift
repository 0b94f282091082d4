/// The result of executing an ``NSPersistentHistoryChangeRequest``.
open class NSPersistentHistoryResult: NSPersistentStoreResult {
    let _result: Any?
    let _resultType: NSPersistentHistoryResultType

    init(result: Any?, resultType: NSPersistentHistoryResultType) {
        _result = result
        _resultType = resultType
        super.init()
    }

    /// An empty result (`nil`, status only), as Apple's initializer makes one.
    public override convenience init() {
        self.init(result: nil, resultType: .statusOnly)
    }

    /// What the request returned, according to ``resultType``: an `NSNumber` holding `true`
    /// (``NSPersistentHistoryResultType/statusOnly``, and every delete), an `NSNumber` count of
    /// transactions (``NSPersistentHistoryResultType/count``; for a delete, of those deleted),
    /// `[NSManagedObjectID]`, `[NSPersistentHistoryTransaction]` or `[NSPersistentHistoryChange]`.
    open var result: Any? { _result }

    /// The kind of value ``result`` holds.
    open var resultType: NSPersistentHistoryResultType { _resultType }
}
