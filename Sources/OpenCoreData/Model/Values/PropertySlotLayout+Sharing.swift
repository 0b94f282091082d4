import Foundation

extension PropertySlotLayout {
    /// The layouts made so far by ``shared(_:)``, by shape.
    // @unchecked Sendable: `layouts` is read and written only with `lock` held. An `NSLock` rather than
    // a `Mutex`: ThreadSanitizer, which CI runs on the concurrency tests, sees the lock's ordering.
    private final class SharedLayouts: @unchecked Sendable {
        private let lock = NSLock()
        private var layouts: [Shape: PropertySlotLayout] = [:]

        func layout(of shape: Shape, _ make: (Shape) -> PropertySlotLayout) -> PropertySlotLayout {
            lock.withLock {
                if let layout = layouts[shape] { return layout }
                let layout = make(shape)
                layouts[shape] = layout
                return layout
            }
        }
    }

    private static let sharedLayouts = SharedLayouts()

    /// The one layout of the given shape for the whole process, made on first use.
    ///
    /// Every value buffer of an entity holds a reference to its layout, and every copy of a buffer's
    /// values retains it: a fetched object's layout is retained about a dozen times in its life. A
    /// shared layout is immortal (see ``ObjectImmortality``), so those retains and releases leave its
    /// reference count alone instead of each taking an atomic read-modify-write of one shared word.
    /// Immortal layouts are never freed; sharing them by shape keeps their number that of the distinct
    /// shapes in use, however many times a model is loaded.
    static func shared(_ shape: Shape) -> PropertySlotLayout {
        sharedLayouts.layout(of: shape) { shape in
            let layout = PropertySlotLayout(shape)
            // Immortal before it is published: no other thread holds it yet.
            ObjectImmortality.make(layout)
            return layout
        }
    }

    /// The shared layout of an entity's properties (see ``shared(_:)``).
    static func shared(_ entity: NSEntityDescription) -> PropertySlotLayout {
        shared(shape(of: entity))
    }
}
