import Testing

@testable import OpenCoreDataCore

/// The concurrency debugging option (`-com.apple.CoreData.ConcurrencyDebug 1` or
/// `OPENCOREDATA_CONCURRENCY_DEBUG=1`): off-queue use of a context or its objects stops the program.
/// The trap itself runs in a child process, `ocd selftest concurrency-violation`.
@Suite("Concurrency debugging")
struct ConcurrencyDebugTests {
    @Test("the launch argument and the environment variable turn the checks on; nothing else does")
    func option() {
        let launch = ConcurrencyDebug.launchArgument
        #expect(ConcurrencyDebug.isRequested(arguments: ["app", launch, "1"], environment: [:]))
        #expect(ConcurrencyDebug.isRequested(arguments: ["app", launch, "3"], environment: [:]))
        #expect(!ConcurrencyDebug.isRequested(arguments: ["app", launch, "0"], environment: [:]))
        #expect(!ConcurrencyDebug.isRequested(arguments: ["app", launch], environment: [:]))
        #expect(ConcurrencyDebug.isRequested(arguments: ["app"], environment: ["OPENCOREDATA_CONCURRENCY_DEBUG": "1"]))
        #expect(!ConcurrencyDebug.isRequested(arguments: ["app"], environment: ["OPENCOREDATA_CONCURRENCY_DEBUG": "0"]))
        #expect(!ConcurrencyDebug.isRequested(arguments: ["app"], environment: [:]))
    }

    @Test("the check finds a private-queue context used off its queue, and not inside performAndWait")
    func checker() throws {
        let stack = try GraphStack(.inMemory)
        let context = stack.context()
        context.name = "importer"
        let message = try #require(ConcurrencyDebug.violation(of: context, by: "save()"))
        #expect(message.contains("save()"))
        #expect(message.contains("\"importer\""))
        #expect(message.contains("private-queue"))
        let inside: String? = context.performAndWait { ConcurrencyDebug.violation(of: context, by: "save()") }
        #expect(inside == nil)
    }

    /// The `ocd` executable built beside the test bundle.
    private func ocd() throws -> URL {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var candidates = [executable.deletingLastPathComponent().appendingPathComponent("ocd")]
        let root = Fixtures.packageRoot
        candidates.append(root.appendingPathComponent(".build/debug/ocd"))
        let found = candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
        return try #require(found, "the ocd executable is built by `swift build` / `swift test`; looked in \(candidates.map(\.path))")
    }

    /// Runs `ocd selftest concurrency-violation` with extra arguments and environment.
    private func run(_ arguments: [String], debugEnvironment: Bool) throws -> (status: Int32, signaled: Bool, output: String) {
        let process = Process()
        process.executableURL = try ocd()
        process.arguments = ["selftest", "concurrency-violation"] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["OPENCOREDATA_CONCURRENCY_DEBUG"] = debugEnvironment ? "1" : nil
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, process.terminationReason == .uncaughtSignal, String(decoding: data, as: UTF8.self))
    }

    @Test("with OPENCOREDATA_CONCURRENCY_DEBUG=1, using a context off its queue traps with a clear message")
    func trapsOnContext() throws {
        let result = try run(["--use", "context"], debugEnvironment: true)
        #expect(result.signaled)
        #expect(result.output.contains("Core Data concurrency violation"))
        #expect(result.output.contains("insert(_:)"))
        #expect(result.output.contains("\"selftest\""))
    }

    @Test("touching a managed object off its context's queue traps too; the launch argument works like the variable")
    func trapsOnObject() throws {
        let result = try run(["--use", "object", "-com.apple.CoreData.ConcurrencyDebug", "1"], debugEnvironment: false)
        #expect(result.signaled)
        #expect(result.output.contains("setting Item.title"))
    }

    @Test("without the option, or on the queue, nothing traps")
    func noTrap() throws {
        let off = try run(["--use", "context"], debugEnvironment: false)
        #expect(!off.signaled && off.status == 0)
        #expect(off.output.contains("no violation detected"))
        let onQueue = try run(["--use", "none"], debugEnvironment: true)
        #expect(!onQueue.signaled && onQueue.status == 0)
        #expect(onQueue.output.contains("no violation detected"))
    }
}
