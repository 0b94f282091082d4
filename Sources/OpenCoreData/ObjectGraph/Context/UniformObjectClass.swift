/// The one class every object of a list is an instance of, recorded while the list is made.
///
/// A fetch returns `[T]` for a managed object subclass `T` by taking its array of objects as it is,
/// which needs every object to be a `T`. Recorded as each object is made, while the object is still in
/// the processor's caches, the answer costs a comparison per object; asked afterwards, it cost a read of
/// every object again, long after a large fetch had pushed the first ones out of the caches.
struct UniformObjectClass {
    /// The class of the objects recorded so far; `nil` before the first.
    private var recorded: NSManagedObject.Type?
    /// Set once objects of two classes have been recorded, or an object not recorded joined the list.
    private var isMixed = false

    init() {}

    /// Records an object of the list.
    @inline(__always)
    mutating func record(_ object: NSManagedObject) {
        let objectClass = Swift.type(of: object)
        if let recorded {
            if ObjectIdentifier(recorded) != ObjectIdentifier(objectClass) { isMixed = true }
        } else {
            recorded = objectClass
        }
    }

    /// Notes that the list changed in a way not recorded: its class is no longer known.
    mutating func forget() {
        isMixed = true
    }

    /// The class of every object of the list; `nil` when the objects have several classes, when the
    /// list changed after it was recorded, or when it is empty.
    var commonClass: NSManagedObject.Type? {
        isMixed ? nil : recorded
    }
}
