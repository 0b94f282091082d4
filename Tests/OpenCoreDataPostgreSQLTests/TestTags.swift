import Testing

extension Tag {
    /// Tests that start other processes (the same tag as OpenCoreDataTests' own).
    @Tag static var slow: Self
}
