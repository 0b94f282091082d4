import Foundation
import Logging
import OpenCoreData

/// The store's side of Core Data's SQL debug log (`-com.apple.CoreData.SQLDebug`, Docs/SQLDebugLogging.md):
/// its statements and annotations, written to the coordinator's ``SQLDebugLog`` or the process's.
extension SQLDebugLog {
    /// Writes a message of a kind when the log's level shows it.
    func post(_ kind: MessageKind, _ message: @autoclosure () -> String) {
        guard shows(kind) else { return }
        logger.log(level: kind.loggerLevel, Logger.Message(stringLiteral: message()), metadata: ["kind": .string(kind.rawValue)])
    }

    /// Seconds in Core Data's format, four decimals.
    static func postgreSQLSeconds(_ duration: TimeInterval) -> String {
        String(format: "%.4fs", duration)
    }
}
