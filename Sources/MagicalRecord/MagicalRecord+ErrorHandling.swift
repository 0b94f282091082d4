import OpenCoreData

extension MagicalRecord {
    /// Reports an error that a MagicalRecord call met: to the handler set with
    /// ``setErrorHandlerTarget(_:action:)`` while its target lives, otherwise to the log, with the
    /// detailed errors a validation error carries.
    public class func handleErrors(_ error: NSError) {
        let handler: (@Sendable (NSError) -> Void)? = MagicalRecordStack.shared.withLock { stack in
            stack.errorHandlerTarget == nil ? nil : stack.errorHandler
        }
        if let handler {
            handler(error)
            return
        }
        if let details = error.userInfo[NSDetailedErrorsKey] as? [NSError] {
            for detail in details { MRLog.error("Error: \(detail) \(detail.userInfo)") }
        } else {
            MRLog.error("Error: \(error.localizedDescription) (\(error.domain) \(error.code)) \(error.userInfo)")
        }
    }

    /// Reports an optional error: nothing for `nil`.
    static func handleErrors(_ error: (any Error)?) {
        if let error { handleErrors(error as NSError) }
    }

    /// Sends the errors MagicalRecord meets to `action` for as long as `target` lives.
    ///
    /// MagicalRecord calls a selector on the target; Linux has no selectors, so the action is a block,
    /// called with each error while `target` is alive. Pass `nil` to go back to logging errors.
    public class func setErrorHandlerTarget(_ target: AnyObject?, action: @escaping @Sendable (NSError) -> Void) {
        MagicalRecordStack.shared.withLock { stack in
            stack.errorHandlerTarget = target
            stack.errorHandler = target == nil ? nil : action
        }
    }

    /// Returns the object errors are reported to, if any.
    public class func errorHandlerTarget() -> AnyObject? {
        MagicalRecordStack.shared.withLock { $0.errorHandlerTarget }
    }
}
