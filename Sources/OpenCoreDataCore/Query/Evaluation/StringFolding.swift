/// String comparison under the `[c]`, `[d]` and `[n]` options of predicates.
enum StringFolding {
    /// Folds case and diacritics as the options ask. `[n]` means the strings are already normalized:
    /// they are compared as they are.
    static func fold(_ string: String, options: NSComparisonPredicate.Options) -> String {
        if options.contains(.normalized) { return string }
        var folding: String.CompareOptions = []
        if options.contains(.caseInsensitive) { folding.insert(.caseInsensitive) }
        if options.contains(.diacriticInsensitive) { folding.insert(.diacriticInsensitive) }
        if folding.isEmpty { return string }
        return string.folding(options: folding, locale: nil)
    }

    /// Orders two strings after folding, by Unicode canonical equivalence.
    static func compare(_ lhs: String, _ rhs: String, options: NSComparisonPredicate.Options) -> ComparisonResult {
        let a = fold(lhs, options: options), b = fold(rhs, options: options)
        return a < b ? .orderedAscending : (a == b ? .orderedSame : .orderedDescending)
    }

    /// Whether `string` begins with `prefix` (an empty prefix matches nothing, as with `NSString`).
    static func begins(_ string: String, with prefix: String, options: NSComparisonPredicate.Options) -> Bool {
        guard !prefix.isEmpty else { return false }
        return fold(string, options: options).hasPrefix(fold(prefix, options: options))
    }

    /// Whether `string` ends with `suffix` (an empty suffix matches nothing, as with `NSString`).
    static func ends(_ string: String, with suffix: String, options: NSComparisonPredicate.Options) -> Bool {
        guard !suffix.isEmpty else { return false }
        return fold(string, options: options).hasSuffix(fold(suffix, options: options))
    }

    /// Whether `string` contains `part` (an empty part is found nowhere, as with `NSString`).
    static func contains(_ string: String, _ part: String, options: NSComparisonPredicate.Options) -> Bool {
        guard !part.isEmpty else { return false }
        let haystack = Array(fold(string, options: options)), needle = Array(fold(part, options: options))
        guard needle.count <= haystack.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if Array(haystack[start..<(start + needle.count)]) == needle { return true }
        }
        return false
    }

    /// Whether `string` matches a `LIKE` pattern: `*` matches any run of characters, `?` exactly one, and a
    /// backslash makes the next character literal.
    static func like(_ string: String, pattern: String, options: NSComparisonPredicate.Options) -> Bool {
        let text = Array(fold(string, options: options))
        var tokens: [LikeToken] = []
        var escaping = false
        for character in fold(pattern, options: options) {
            if escaping {
                tokens.append(.literal(character))
                escaping = false
                continue
            }
            switch character {
            case "\\": escaping = true
            case "*": tokens.append(.star)
            case "?": tokens.append(.one)
            default: tokens.append(.literal(character))
            }
        }
        if escaping { tokens.append(.literal("\\")) }
        // Greedy matching with backtracking to the last star: linear in practice, never exponential.
        var t = 0, p = 0, starP = -1, starT = 0
        while t < text.count {
            if p < tokens.count, tokens[p].matches(text[t]) {
                t += 1
                p += 1
            } else if p < tokens.count, case .star = tokens[p] {
                starP = p
                starT = t
                p += 1
            } else if starP >= 0 {
                p = starP + 1
                starT += 1
                t = starT
            } else {
                return false
            }
        }
        while p < tokens.count, case .star = tokens[p] { p += 1 }
        return p == tokens.count
    }

    private enum LikeToken {
        case literal(Character), one, star

        func matches(_ character: Character) -> Bool {
            switch self {
            case .literal(let literal): return literal == character
            case .one: return true
            case .star: return false
            }
        }
    }
}
