/// New rows of one entity that a save inserts together: consecutive inserts of the entity, gathered
/// until its plan's statement of the most rows is full, another entity's insert comes, or the inserts
/// end.
///
/// Inserts of one entity usually come together, as a context keeps them in the order they were
/// inserted; a save that alternates between entities inserts runs of one row.
struct SQLiteInsertRun {
    /// The plan of the gathered rows' entity; `nil` while none are gathered.
    private var plan: SQLiteInsertPlan?
    /// The gathered rows: each its insert's position in the save and its primary key.
    private var rows: [(position: Int, key: Int64)] = []
    /// What the save knows of the keys of each table it inserted into, by table name (read once a
    /// table, when a statement of the most rows first runs).
    private var tableKeys: [String: SQLiteTableKeys] = [:]

    init() {}

    /// Gathers the new row of `inserts[position]` with primary key `key`, inserting the rows gathered
    /// before it first when they are of another plan, and every gathered row once a statement is full.
    @inline(__always)
    mutating func append(
        position: Int, key: Int64, plan: SQLiteInsertPlan,
        of inserts: [StoreSaveChanges.Insert], writer: RowWriter
    ) throws {
        if self.plan !== plan {
            try flush(inserts, writer: writer)
            self.plan = plan
            rows.reserveCapacity(plan.rowsPerStatement)
        }
        rows.append((position, key))
        if rows.count == plan.rowsPerStatement { try flush(inserts, writer: writer) }
    }

    /// Inserts every gathered row.
    mutating func flush(_ inserts: [StoreSaveChanges.Insert], writer: RowWriter) throws {
        guard let plan, !rows.isEmpty else { return }
        var keys = tableKeys[plan.layout.table]
        try rows.withUnsafeBufferPointer { try plan.insert($0, of: inserts, tableKeys: &keys, writer: writer) }
        if let keys { tableKeys[plan.layout.table] = keys }
        rows.removeAll(keepingCapacity: true)
    }
}
