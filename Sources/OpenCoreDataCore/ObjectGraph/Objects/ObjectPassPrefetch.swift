import COpenCoreDataRuntime

/// Asks the processor ahead of time for the memory a pass over many managed objects is about to touch.
///
/// A save passes over its objects several times (collecting the rows, taking the permanent IDs, the
/// notification's ID sets). Between two passes over tens of thousands of objects the objects leave the
/// caches, and each pass waited, object after object, first for the object and then for its ID or its
/// values, which live in allocations of their own. Asking for them a few objects ahead lets those loads
/// overlap the work on the objects before.
enum ObjectPassPrefetch {
    /// How many objects ahead the parts of an object are asked for (``PassPrefetch/distance``); the
    /// object itself is asked for twice as far ahead, so that it is there when its parts are asked for.
    static var distance: Int { PassPrefetch.distance }

    /// The parts of an object a pass touches besides the object itself.
    struct Parts: OptionSet {
        let rawValue: UInt8
        /// The object's ID, when it has been made.
        static let objectID = Parts(rawValue: 1 << 0)
        /// The buffer of the object's current values.
        static let values = Parts(rawValue: 1 << 1)
        /// The buffer of the object's snapshot (for a fired fault, the same as its current values').
        static let snapshot = Parts(rawValue: 1 << 2)
    }

    /// Calls `body` with each of `objects` and its position, in order, unretained (`objects` keeps
    /// them for the pass), having asked for the object `2 × distance` ahead and for the `parts` of the
    /// object `distance` ahead.
    @inline(__always)
    static func forEach(
        in objects: [NSManagedObject], parts: Parts,
        _ body: (Int, NSManagedObject) throws -> Void
    ) rethrows {
        try objects.withUnsafeBufferPointer { objects in
            guard let base = objects.baseAddress else { return }
            try forEach(at: UnsafeRawPointer(base), count: objects.count, parts: parts, body)
        }
    }

    /// The pass over `count` object references (`nil` allowed, and skipped) stored from `base` on, each
    /// a reference to an `NSManagedObject` or `nil` (or a type made of one such reference and nothing
    /// else). The caller keeps the references stored there, and the objects alive, for the pass.
    ///
    /// Each reference is read as the object's address. Reading it as a reference would retain the object
    /// and release it again: two atomic operations per object and part, the first of them waiting for
    /// the very memory the pass asks for ahead.
    @inline(__always)
    static func forEach(
        at base: UnsafeRawPointer, count: Int, parts: Parts,
        _ body: (Int, NSManagedObject) throws -> Void
    ) rethrows {
        for index in 0..<count {
            let far = index &+ 2 &* distance
            if far < count { prefetch(referenceAt: far, in: base) }
            let near = index &+ distance
            if near < count, !parts.isEmpty, let object = object(at: near, in: base) { prefetch(parts, of: object) }
            guard let object = object(at: index, in: base) else { continue }
            try object.withBorrowedReference { try body(index, $0) }
        }
    }

    /// Asks for the reference count of the object whose reference (or `nil`) is stored at position
    /// `index` from `base`, to be written; nothing for a negative `index`. The reference is read as the
    /// object's address, without retaining the object.
    @inline(__always)
    static func prefetch(referenceAt index: Int, in base: UnsafeRawPointer) {
        guard index >= 0 else { return }
        PassPrefetch.forWriting(base.load(fromByteOffset: index &* MemoryLayout<UnsafeRawPointer>.stride, as: UnsafeRawPointer?.self))
    }

    /// The object whose reference is stored at position `index` from `base`, unretained.
    @inline(__always)
    private static func object(at index: Int, in base: UnsafeRawPointer) -> Unmanaged<NSManagedObject>? {
        // A reference to a Swift object is the object's address.
        let address = base.load(fromByteOffset: index &* MemoryLayout<UnsafeRawPointer>.stride, as: UnsafeRawPointer?.self)
        return address.map { Unmanaged.fromOpaque($0) }
    }

    /// Asks for the `parts` of an object.
    @inline(__always)
    private static func prefetch(_ parts: Parts, of object: Unmanaged<NSManagedObject>) {
        object.withBorrowedReference { object in
            if parts.contains(.objectID), let id = object._objectIDIfMade { prefetch(id) }
            if parts.contains(.values) { object.storage.slots.prefetchForCopy() }
            if parts.contains(.snapshot) { object.snapshot.slots.prefetchForCopy() }
        }
    }

    /// Asks, for a pass over `objects` from the last to the first that is at `index`, for the object
    /// `2 × distance` before it and for the `parts` of the object `distance` before it. (The pass may let
    /// go of each object once done with it: only objects before `index` are read.)
    @inline(__always)
    static func prefetch(_ objects: UnsafeBufferPointer<NSManagedObject>, before index: Int, parts: Parts) {
        guard let base = objects.baseAddress.map(UnsafeRawPointer.init) else { return }
        prefetch(referenceAt: index &- 2 &* distance, in: base)
        let near = index &- distance
        if near >= 0, !parts.isEmpty, let object = object(at: near, in: base) { prefetch(parts, of: object) }
    }

    /// Asks for the object `distance` ahead of `index` in `references` (objects a pass reaches in step
    /// with another array's).
    @inline(__always)
    static func prefetch<Reference: AnyObject>(_ references: [Reference], aheadOf index: Int) {
        let near = index &+ distance
        if near < references.count { prefetch(references[near]) }
    }

    /// Asks for an object's reference count, to be written.
    @inline(__always)
    private static func prefetch(_ object: AnyObject) {
        PassPrefetch.forWriting(Unmanaged.passUnretained(object).toOpaque())
    }
}
