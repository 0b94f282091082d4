/// `MATCHES`: whole-string matching of ICU regular expressions, with compiled expressions cached.
enum RegularExpressionMatching {
    private struct Key: Hashable {
        let pattern: String
        let caseInsensitive: Bool
    }

    /// Compiled expressions by pattern; an invalid pattern is cached as `nil`.
    private final class Cache: @unchecked Sendable {
        // @unchecked Sendable: `entries` is only read and written while `lock` is held.
        private let lock = NSLock()
        private var entries: [Key: NSRegularExpression?] = [:]

        func withLock<T>(_ body: (inout [Key: NSRegularExpression?]) -> T) -> T {
            lock.lock()
            defer { lock.unlock() }
            return body(&entries)
        }
    }

    private static let cache = Cache()
    private static let cacheLimit = 256

    /// Whether the whole of `string` matches `pattern`. An invalid pattern matches nothing.
    static func matches(_ string: String, pattern: String, options: NSComparisonPredicate.Options) -> Bool {
        var diacriticOnly = options
        diacriticOnly.remove(.caseInsensitive)
        let subject = StringFolding.fold(string, options: diacriticOnly)
        let folded = StringFolding.fold(pattern, options: diacriticOnly)
        let caseInsensitive = options.contains(.caseInsensitive) && !options.contains(.normalized)
        guard let expression = compiled(Key(pattern: folded, caseInsensitive: caseInsensitive)) else { return false }
        let whole = NSRange(subject.startIndex..<subject.endIndex, in: subject)
        guard let match = expression.firstMatch(in: subject, options: [.anchored], range: whole) else { return false }
        return match.range == whole
    }

    private static func compiled(_ key: Key) -> NSRegularExpression? {
        if let cached = cache.withLock({ $0[key] }) { return cached }
        let expression = try? NSRegularExpression(
            pattern: "\\A(?:" + key.pattern + ")\\z",
            options: key.caseInsensitive ? [.caseInsensitive] : [])
        cache.withLock { entries in
            if entries.count >= cacheLimit { entries.removeAll() }
            entries[key] = .some(expression)
        }
        return expression
    }
}
