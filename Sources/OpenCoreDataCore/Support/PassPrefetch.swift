import COpenCoreDataRuntime

/// How far ahead a pass over many objects or rows asks the processor for the memory it is about to
/// touch (software prefetch hints, `ocd_prefetchForWriting` and friends in `COpenCoreDataRuntime`).
///
/// Passes over managed objects (`ObjectPassPrefetch`), over a save's rows and over the row cache's
/// identities share one distance, so that a pass that walks two of them in step asks for both at the same
/// place.
enum PassPrefetch {
    /// How many elements ahead of the one being worked on a pass asks for an element's memory.
    static var distance: Int { 8 }
}

extension PassPrefetch {
    /// Asks the processor for the cache line at `address`, to be written soon (a hint that never
    /// faults); nothing when ``RuntimeTechniques/prefetchHints`` is off.
    @inline(__always)
    static func forWriting(_ address: UnsafeRawPointer?) {
        if RuntimeTechniques.prefetchHints { ocd_prefetchForWriting(address) }
    }

    /// Asks the processor for the `length` bytes at `address`, to be read soon (a hint that never
    /// faults); nothing when ``RuntimeTechniques/prefetchHints`` is off.
    @inline(__always)
    static func forReading(_ address: UnsafeRawPointer?, length: Int) {
        if RuntimeTechniques.prefetchHints { ocd_prefetchForReading(address, length) }
    }
}
