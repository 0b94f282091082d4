/// The one class every object of a list is an instance of, recorded while the list is made.
///
/// Lets a fetch return its array of objects as `[T]` without reading each object again: the class of
/// each is recorded as the object is made, while it is still in the processor's caches.
struct UniformObjectClass {
    /// The class of the objects recorded so far; `nil` before the first.
    private var recorded: NSManagedObject.Type?
    /// Set once objects of two classes have been recorded, or the list changed in a way not recorded:
    /// the common class is then unknown.
    private var isUnknown = false

    /// A record of no objects.
    init() {}

    /// Records an object of the list.
    @inline(__always)
    mutating func record(_ object: NSManagedObject) {
        let objectClass = Swift.type(of: object)
        if let recorded {
            if ObjectIdentifier(recorded) != ObjectIdentifier(objectClass) { isUnknown = true }
        } else {
            recorded = objectClass
        }
    }

    /// Notes that the list changed in a way not recorded: its class is no longer known.
    mutating func forget() {
        isUnknown = true
    }

    /// The class of every object of the list; `nil` when the objects have several classes, when the
    /// list changed after it was recorded, or when it is empty.
    var commonClass: NSManagedObject.Type? {
        isUnknown ? nil : recorded
    }
}
