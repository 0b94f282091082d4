import Logging
import OpenCoreData

/// How much MagicalRecord logs: each level includes the kinds of message of the levels below it.
public enum MagicalRecordLoggingLevel: UInt, Sendable {
    /// Logs nothing.
    case off = 0
    /// Logs errors.
    case error = 0b1
    /// Logs errors and warnings.
    case warn = 0b11
    /// Logs errors, warnings and information.
    case info = 0b111
    /// Logs errors, warnings, information and debugging messages.
    case debug = 0b1111
    /// Logs every kind of message MagicalRecord writes.
    case verbose = 0b11111
    /// Logs everything.
    case all = 0xFFFF_FFFF_FFFF_FFFF
}

/// The kinds of message MagicalRecord logs, one bit each; a ``MagicalRecordLoggingLevel`` is a union of them.
public enum MagicalRecordLoggingMask: UInt, Sendable {
    /// Errors.
    case error = 0b1
    /// Warnings.
    case warn = 0b10
    /// Information.
    case info = 0b100
    /// Debugging messages.
    case debug = 0b1000
    /// Detailed tracing.
    case verbose = 0b10000
}

/// MagicalRecord's log: messages go through swift-log under the label `MagicalRecord`, filtered by
/// ``MagicalRecord/loggingLevel()``. Built with `-DMR_LOGGING_DISABLED` (for example
/// `swift build -Xswiftc -DMR_LOGGING_DISABLED`), every call compiles to nothing, as MagicalRecord's
/// `MR_LOGGING_DISABLED` macro makes its log macros `((void)0)`.
enum MRLog {
    /// The logger, open to every level: ``MagicalRecord/loggingLevel()`` does the filtering.
    static var logger: Logger {
        var logger = Logger(label: "MagicalRecord")
        logger.logLevel = .trace
        return logger
    }

    /// Whether logging is compiled in.
    static var isCompiledIn: Bool {
        #if MR_LOGGING_DISABLED
        return false
        #else
        return true
        #endif
    }

    /// Whether a message of kind `mask` passes the current level.
    static func passes(_ mask: MagicalRecordLoggingMask) -> Bool {
        isCompiledIn && MagicalRecord.loggingLevel().rawValue & mask.rawValue != 0
    }

    static func error(_ message: @autoclosure () -> String) {
        #if !MR_LOGGING_DISABLED
        if passes(.error) { logger.error("\(message())") }
        #endif
    }

    static func warn(_ message: @autoclosure () -> String) {
        #if !MR_LOGGING_DISABLED
        if passes(.warn) { logger.warning("\(message())") }
        #endif
    }

    static func info(_ message: @autoclosure () -> String) {
        #if !MR_LOGGING_DISABLED
        if passes(.info) { logger.info("\(message())") }
        #endif
    }

    static func debug(_ message: @autoclosure () -> String) {
        #if !MR_LOGGING_DISABLED
        if passes(.debug) { logger.debug("\(message())") }
        #endif
    }

    static func verbose(_ message: @autoclosure () -> String) {
        #if !MR_LOGGING_DISABLED
        if passes(.verbose) { logger.trace("\(message())") }
        #endif
    }
}
