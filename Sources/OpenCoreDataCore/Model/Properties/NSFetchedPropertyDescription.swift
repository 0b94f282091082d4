/// A description of a fetched property: a read-only, lazily computed property whose value is the
/// result of a fetch request.
open class NSFetchedPropertyDescription: NSPropertyDescription {
    var _fetchRequest: NSFetchRequest<NSFetchRequestResult>?

    /// Creates a fetched property description with no fetch request.
    public override init() {
        super.init()
    }

    /// The fetch request that computes the property's value.
    open var fetchRequest: NSFetchRequest<NSFetchRequestResult>? {
        get { _fetchRequest }
        set {
            _assertEditable()
            _fetchRequest = newValue
        }
    }

    /// Always `true`: a fetched property's value can only be read.
    open override var isReadOnly: Bool { true }

    override class func _makeEmpty() -> NSPropertyDescription { NSFetchedPropertyDescription() }

    override func _copyState(to copy: NSPropertyDescription) {
        super._copyState(to: copy)
        guard let copy = copy as? NSFetchedPropertyDescription else { return }
        copy._fetchRequest = _fetchRequest?.copy() as? NSFetchRequest<NSFetchRequestResult>
    }
}
