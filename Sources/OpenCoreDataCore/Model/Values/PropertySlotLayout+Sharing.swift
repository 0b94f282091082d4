extension PropertySlotLayout {
    /// The layouts made so far by ``shared(_:)``, by shape.
    private static let sharedLayouts = LockedValue<[Shape: PropertySlotLayout]>([:])

    /// The one layout of the given shape for the whole process, made on first use.
    ///
    /// Shared layouts are never freed: values hold their layout without a reference count (see
    /// ``PropertyValues``), which only a layout that lives as long as the process allows. Sharing them by
    /// shape keeps their number that of the distinct shapes in use, however many times a model is loaded.
    static func shared(_ shape: Shape) -> PropertySlotLayout {
        sharedLayouts.withLock { layouts in
            if let layout = layouts[shape] { return layout }
            let layout = PropertySlotLayout(shape)
            layouts[shape] = layout
            return layout
        }
    }

    /// Whether `layout` is one of the layouts ``shared(_:)`` made: values hold their layout without a
    /// count only because every layout is (checked by the internal-checks build).
    static func isShared(_ layout: PropertySlotLayout) -> Bool {
        sharedLayouts.withLock { layouts in layouts.values.contains { $0 === layout } }
    }

    /// The shared layout of an entity's properties (see ``shared(_:)``).
    static func shared(_ entity: NSEntityDescription) -> PropertySlotLayout {
        shared(shape(of: entity))
    }
}
