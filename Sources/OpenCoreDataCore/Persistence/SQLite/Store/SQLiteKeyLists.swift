import GRDB

/// Statements that name many rows by key: `… IN (?, ?, …)`, a chunk of keys at a time.
///
/// A save's version check and its deletions name thousands of rows; one statement per chunk of keys
/// replaces one per row. A full chunk's statement is the same text every time and is kept in the
/// connection's statement cache; the shorter last chunk's is made for one use, so that the cache does not
/// fill with one statement per length. A single key is `= ?`, cached too.
enum SQLiteKeyLists {
    /// How many keys one statement names.
    static let chunkSize = 500

    /// Calls `body` for each chunk of `keys` with the statement `head` + `IN (…)` for that chunk.
    static func forEachChunk(
        of keys: [Int64], in db: Database, head: String,
        _ body: (Statement, ArraySlice<Int64>) throws -> Void
    ) throws {
        for start in stride(from: 0, to: keys.count, by: chunkSize) {
            let chunk = keys[start..<min(start + chunkSize, keys.count)]
            if chunk.count == 1 {
                // The common save of one object: `= ?`, cached like a full chunk's.
                try body(db.cachedStatement(sql: head + " = ?"), chunk)
                continue
            }
            let sql = head + " IN (" + Array(repeating: "?", count: chunk.count).joined(separator: ", ") + ")"
            try body(chunk.count == chunkSize ? db.cachedStatement(sql: sql) : db.makeStatement(sql: sql), chunk)
        }
    }
}
