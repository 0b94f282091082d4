extension Unmanaged {
    /// Runs `body` with the object this reference points to, without retaining it for the call.
    ///
    /// The caller promises that someone else holds a strong reference to the object for the whole call
    /// and that nothing `body` calls can release it (`Docs/Internals.md`, "Borrowed references"). With
    /// the technique off (``RuntimeTechniques/borrowedReferences``) the object is retained for the call
    /// as any other reference is.
    @inline(__always)
    func withBorrowedReference<Result>(_ body: (Instance) throws -> Result) rethrows -> Result {
        #if OCD_PLAIN_SWIFT || OCD_NO_BORROWED_REFERENCES
        try body(takeUnretainedValue())
        #else
        try _withUnsafeGuaranteedRef(body)
        #endif
    }
}
