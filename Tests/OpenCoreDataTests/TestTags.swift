import Testing

/// The tags of tests that a quick run may skip (`swift test --skip …`, as the README gives it).
extension Tag {
    /// Tests that start other processes, kill them or fill the disk: the store shared between processes,
    /// crash trials, migrations interrupted by a crash, saves the file system refuses.
    @Tag static var slow: Self
    /// Tests that load many threads or contexts at once for a while.
    @Tag static var stress: Self
    /// Tests that expect a child process to stop (`#expect(processExitsWith:)`): each starts a process.
    @Tag static var exitTest: Self
    /// Tests that feed many random or mutated inputs.
    @Tag static var fuzz: Self
}
