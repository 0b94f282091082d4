import COpenCoreDataRuntime

/// Asks the processor ahead of time for the memory a pass over many managed objects is about to touch.
///
/// A save passes over its objects several times (collecting the rows, taking the permanent IDs, the
/// notification's ID sets). Between two passes over tens of thousands of objects the objects leave the
/// caches, and each pass waited, object after object, first for the object and then for its ID or its
/// values, which live in allocations of their own. Asking for them a few objects ahead lets those loads
/// overlap the work on the objects before.
enum ObjectPassPrefetch {
    /// How many objects ahead the parts of an object are asked for; the object itself is asked for
    /// twice as far ahead, so that it is there when its parts are asked for.
    static var distance: Int { 8 }

    /// The parts of an object a pass touches besides the object itself.
    struct Parts: OptionSet {
        let rawValue: UInt8
        /// The object's ID.
        static let objectID = Parts(rawValue: 1 << 0)
        /// The buffer of the object's current values.
        static let values = Parts(rawValue: 1 << 1)
    }

    /// For a pass at `index` of `objects`: asks for the object `2 × distance` ahead, and for the `parts`
    /// of the object `distance` ahead.
    @inline(__always)
    static func prefetch(_ objects: UnsafeBufferPointer<NSManagedObject>, passingAt index: Int, parts: Parts) {
        let base = objects.baseAddress.unsafelyUnwrapped
        let far = index &+ 2 &* distance
        if far < objects.count {
            ocd_prefetchForWriting(Unmanaged.passUnretained(base[far]).toOpaque())
        }
        let near = index &+ distance
        guard near < objects.count, !parts.isEmpty else { return }
        Unmanaged.passUnretained(base[near])._withUnsafeGuaranteedRef { object in
            if parts.contains(.objectID) {
                ocd_prefetchForWriting(Unmanaged.passUnretained(object._objectID).toOpaque())
            }
            if parts.contains(.values) { object.storage.slots.prefetchForCopy() }
        }
    }
}
