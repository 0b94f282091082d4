/// The concurrency debugging option: with it on, using a context or one of its managed objects off the
/// context's queue stops the program with a message naming the context and the call.
///
/// Turn it on as on Apple platforms, with the launch argument `-com.apple.CoreData.ConcurrencyDebug 1`,
/// or with the environment variable `OPENCOREDATA_CONCURRENCY_DEBUG=1`. It is read once, at the first
/// check; with the option off each check costs one load of a cached Boolean.
enum ConcurrencyDebug {
    /// The launch argument Core Data reads, followed by a level (1 or more turns the checks on).
    static let launchArgument = "-com.apple.CoreData.ConcurrencyDebug"
    /// The environment variable that turns the checks on (`1`, or any level above).
    static let environmentVariable = "OPENCOREDATA_CONCURRENCY_DEBUG"

    /// Whether the checks are on in this process.
    static let isEnabled: Bool = isRequested(
        arguments: ProcessInfo.processInfo.arguments,
        environment: ProcessInfo.processInfo.environment)

    /// Whether launch arguments or environment ask for the checks.
    static func isRequested(arguments: [String], environment: [String: String]) -> Bool {
        if let index = arguments.firstIndex(of: launchArgument), index + 1 < arguments.count,
            let level = Int(arguments[index + 1]), level > 0
        {
            return true
        }
        if let value = environment[environmentVariable]?.trimmingCharacters(in: .whitespaces).lowercased() {
            if let level = Int(value) { return level > 0 }
            return value == "yes" || value == "true"
        }
        return false
    }

    /// The message describing a use of `context` off its queue by `call`, or `nil` when the caller runs
    /// on the context's queue (or the context is confined to no queue).
    static func violation(of context: NSManagedObjectContext, by call: String) -> String? {
        guard !context.isOnContextQueue else { return nil }
        let kind: String
        switch context.concurrencyType {
        case .mainQueueConcurrencyType: kind = "main-queue"
        default: kind = "private-queue"
        }
        let name = context.name.map { " \"\($0)\"" } ?? ""
        return "Core Data concurrency violation: \(call) used the \(kind) context\(name) off its queue "
            + "(thread \(Thread.isMainThread ? "main" : "secondary")). Use the context and its managed objects only "
            + "inside perform(_:) or performAndWait(_:), and pass NSManagedObjectIDs between contexts. "
            + "(Checked because of \(launchArgument) 1 or \(environmentVariable)=1.)"
    }
}

extension NSManagedObjectContext {
    /// Stops the program when concurrency debugging is on and the caller is not on the context's queue.
    @inline(__always)
    func _checkQueue(_ call: @autoclosure () -> String) {
        guard _checksQueueUse else { return }
        if let message = ConcurrencyDebug.violation(of: self, by: call()) {
            fatalError(message)
        }
    }
}
