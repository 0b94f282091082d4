import Foundation

/// The check of the insert workload (not measured): the file a contender inserted into holds `rows`
/// rows whose values sum to `Shape.checksum(rows:)`, in Core Data's table (`ZITEM`) or the plain one
/// (`item`) the other contenders create; with history tracking, one transaction of one change per row.
public enum InsertCheck {
    public static func verify(url: URL, rows: Int) throws {
        let connection = try RawConnection(url: url)
        let coreData = try connection.prepareIfPossible("SELECT 1 FROM ZITEM")
        let (table, prefix) = coreData ? ("ZITEM", "ZI") : ("item", "i")
        let sum = (0..<Shape.columnCount).map { "\(prefix)\($0)" }.joined(separator: " + ")
        let figures = try connection.integers("SELECT COUNT(*), SUM(\(sum)) FROM \(table)")
        let want = [Int64(rows), Shape.checksum(rows: rows)]
        guard figures == want else { throw WorkloadError("the insert left \(figures), not \(want)") }
        // With history tracking, the save recorded one transaction of one change per row.
        if try connection.prepareIfPossible("SELECT 1 FROM ACHANGE") {
            let history = try connection.integers("SELECT (SELECT COUNT(*) FROM ATRANSACTION), COUNT(*), SUM(ZENTITYPK) FROM ACHANGE")
            let expected = [1, Int64(rows), Int64(rows) * Int64(rows + 1) / 2]
            guard history == expected else { throw WorkloadError("the tracked insert recorded \(history), not \(expected)") }
        }
    }
}
