import Foundation

/// A progress bar on standard error, drawn only when standard error is a terminal: long work in `ocd`
/// (compiling many versions, dumping a large store) shows how far it is, and stays quiet in a pipe or a
/// log file. `OCD_PROGRESS=always` (or `never`) overrides the terminal check.
final class TerminalProgress {
    /// Whether progress is drawn: on a terminal, unless `OCD_PROGRESS` says otherwise.
    static var isWanted: Bool {
        switch ProcessInfo.processInfo.environment["OCD_PROGRESS"] {
        case "always": return true
        case "never": return false
        default: return isatty(FileHandle.standardError.fileDescriptor) != 0
        }
    }

    private let total: Int
    private let label: String
    private let isShown: Bool
    private var lastDrawn = -1
    private var lastTime = Date.distantPast

    /// A bar for `total` steps; `shown` overrides the terminal check (tests).
    init(total: Int, label: String, shown: Bool? = nil) {
        self.total = max(total, 0)
        self.label = label
        isShown = shown ?? Self.isWanted
    }

    /// Shows that `done` of the steps are done; redrawn at most ten times a second.
    func update(_ done: Int) {
        guard isShown else { return }
        let now = Date()
        let percent = total == 0 ? 100 : min(100, done * 100 / total)
        guard percent != lastDrawn, now.timeIntervalSince(lastTime) >= 0.1 || percent == 100 else { return }
        lastDrawn = percent
        lastTime = now
        let width = 30
        let filled = width * percent / 100
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        FileHandle.standardError.write(Data("\r\(label) [\(bar)] \(percent)% (\(done)/\(total))".utf8))
    }

    /// Ends the bar's line.
    func finish() {
        guard isShown else { return }
        lastTime = .distantPast
        lastDrawn = -1
        update(total)
        FileHandle.standardError.write(Data("\n".utf8))
    }
}
