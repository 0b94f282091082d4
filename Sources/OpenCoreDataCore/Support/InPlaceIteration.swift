extension Array {
    /// Calls `body` with the position and address of each element in turn.
    ///
    /// The element is read where it lies. Iterating an array copies each element out first, which
    /// retains every reference the element holds and releases it again after; on the paths every saved
    /// or fetched object takes, those reference-count operations cost more than the work itself.
    /// `body` must not keep the address, and must not change the array.
    @inline(__always)
    func forEachInPlace(_ body: (Int, UnsafePointer<Element>) throws -> Void) rethrows {
        try withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            for index in buffer.indices { try body(index, base + index) }
        }
    }
}
