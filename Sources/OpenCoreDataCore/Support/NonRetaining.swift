import COpenCoreDataRuntime

/// A reference that, like `weak`, neither keeps its object alive nor outlives it: it reads `nil` once
/// the object has begun to deinitialize.
///
/// Unlike `weak`, it gives the object no side table. The Swift runtime moves an object's reference
/// counts to a side table the first time a weak reference to it is formed, and from then on every
/// retain and release of the object goes through the runtime's slow path. Entities, models, stores and
/// coordinators are retained for every object made, every row fetched and every save, and they are
/// also the targets of back references (a property's entity, an object ID's store, a store's
/// coordinator): held this way, those back references leave every other retain of them fast.
///
/// The reference holds an unowned reference count, which keeps the object's memory (not the object)
/// allocated, so reading it can ask the runtime to retain the object only if it is not deinitializing.
/// Reads and writes of one reference are not synchronized with each other, as with any stored
/// property: its owner writes it before sharing it, or under its own lock.
@propertyWrapper
struct NonRetaining<Object: AnyObject> {
    #if OCD_PLAIN_SWIFT || OCD_NO_NONRETAINING
    /// With the technique off (``RuntimeTechniques/nonRetaining``): an ordinary weak reference.
    private weak var object: Object?

    init(wrappedValue: Object?) {
        object = wrappedValue
    }

    var wrappedValue: Object? {
        get { object }
        set { object = newValue }
    }
    #else
    /// Keeps the object's memory allocated while the reference exists; never read (a read would stop
    /// the program once the object is gone).
    private unowned(safe) var keeper: Object?
    /// The object, without a reference count.
    private var pointer: Unmanaged<Object>?
    #if OCD_INTERNAL_CHECKS
    /// A weak reference to the same object, which the internal-checks build compares reads with.
    private weak var shadow: Object?
    #endif

    init(wrappedValue: Object?) {
        keeper = wrappedValue
        pointer = wrappedValue.map(Unmanaged.passUnretained)
        #if OCD_INTERNAL_CHECKS
        shadow = wrappedValue
        #endif
    }

    var wrappedValue: Object? {
        get {
            guard let pointer, ocd_tryRetain(pointer.toOpaque()) else {
                #if OCD_INTERNAL_CHECKS
                InternalChecks.check(shadow == nil, "a back reference read nil while its object lives")
                #endif
                return nil
            }
            let object = pointer.takeRetainedValue()
            #if OCD_INTERNAL_CHECKS
            InternalChecks.check(shadow === object, "a back reference read an object its weak shadow does not hold")
            #endif
            return object
        }
        set {
            keeper = newValue
            pointer = newValue.map(Unmanaged.passUnretained)
            #if OCD_INTERNAL_CHECKS
            shadow = newValue
            #endif
        }
    }
    #endif
}
