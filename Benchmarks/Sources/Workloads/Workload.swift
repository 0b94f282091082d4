import Foundation

/// One contender of one of the file-based workloads (issues 9 and 10): `init` (not measured) opens
/// the workload's file, `run` (measured) does the work and returns the figure the workload checks.
public protocol Contender {
    /// A short name shown in results.
    static var name: String { get }
    /// Opens the workload's file at `url` (WAL, `synchronous=NORMAL`); nothing of the work is done.
    init(url: URL) throws
    /// Does the work once; returns a count or sum that every contender must agree on.
    func run() throws -> Int64
}

/// The workloads of issues 9, 10, 47, 49 and 50, each with its contenders side by side on the same file.
public enum Workload: String, CaseIterable, Sendable {
    case aggregate
    case batchUpdate = "batch-update"
    case batchDelete = "batch-delete"
    case batchedScan = "batched-scan"
    case fetchedResults = "frc"
    case migration
    case prefetch
    case walk
    case typedPredicateFetch = "typed-predicate-fetch"
    case predicateConversion = "predicate-conversion"
    case historyFetch = "history-fetch"
    case textAndDates = "text-dates"
    case wide
    case update
    case cascadeDelete = "cascade-delete"
    case selectiveFetch = "selective-fetch"
    case count

    /// The benchmark's title.
    public var title: String {
        switch self {
        case .aggregate: "Aggregate 1M group-by"
        case .batchUpdate: "Batch update 100k of 200k"
        case .batchDelete: "Batch delete 100k of 200k"
        case .batchedScan: "Scan 1M fetchBatchSize 500"
        case .fetchedResults: "FRC 10k rows 1000 saves"
        case .migration: "Migration 1M add+rename"
        case .prefetch: "Posts 200k with author prefetched"
        case .walk: "Walk 20k authors' posts"
        case .typedPredicateFetch: "Fetch 50 of 10k with a predicate, 1000 times"
        case .predicateConversion: "Predicate conversion, 1000 times"
        case .historyFetch: "History fetch 1000 transactions x 10 changes"
        case .textAndDates: "Text and dates \(NoteModel.rows / 1000)k fetched"
        case .wide: "Wide 40 attributes \(WideModel.rows / 1000)k fetched"
        case .update: "Update every tenth of \(UpdateShape.rows / 1000)k"
        case .cascadeDelete: "Cascade delete 10k authors with 100k posts"
        case .selectiveFetch: "Selective fetch 100 rows by index, 1000 times"
        case .count: "Count 1M with a predicate, 10 times"
        }
    }

    /// The contenders, ours first.
    public var contenders: [any Contender.Type] {
        switch self {
        case .aggregate: [OpenCoreDataAggregate.self, RawSQLiteAggregate.self]
        case .batchUpdate: [OpenCoreDataBatchUpdate.self, RawSQLiteBatchUpdate.self]
        case .batchDelete: [OpenCoreDataBatchDelete.self, RawSQLiteBatchDelete.self]
        case .batchedScan: [OpenCoreDataBatchedScan.self, OpenCoreDataUnbatchedScan.self, RawSQLiteScan.self]
        case .fetchedResults: [OpenCoreDataFetchedResults.self, RawSQLiteSingleSaves.self]
        case .migration: [OpenCoreDataMigration.self, RawSQLiteMigration.self]
        case .prefetch:
            [
                OpenCoreDataPrefetch.self, OpenCoreDataKVCPrefetch.self, RawSQLitePrefetch.self,
                GRDBRecordPrefetch.self, GRDBCodablePrefetch.self,
            ]
        case .walk:
            [
                OpenCoreDataWalk.self, OpenCoreDataKVCWalk.self, RawSQLiteWalk.self,
                GRDBRecordWalk.self, GRDBCodableWalk.self,
            ]
        case .typedPredicateFetch: [OpenCoreDataTypedPredicateFetch.self, OpenCoreDataFormatPredicateFetch.self, RawSQLitePredicateFetch.self]
        case .predicateConversion: [TypedPredicateConverting.self, FormatPredicateParsing.self]
        case .historyFetch: [OpenCoreDataHistoryFetch.self, RawSQLiteHistoryFetch.self]
        case .textAndDates:
            [
                OpenCoreDataTextAndDates.self, OpenCoreDataKVCTextAndDates.self, RawSQLiteTextAndDates.self,
                GRDBRecordTextAndDates.self, GRDBCodableTextAndDates.self,
            ]
        case .wide:
            [
                OpenCoreDataWideFetch.self, OpenCoreDataKVCWideFetch.self, RawSQLiteWideFetch.self, GRDBRecordWideFetch.self,
                GRDBCodableWideFetch.self,
            ]
        case .update:
            [OpenCoreDataUpdate.self, OpenCoreDataKVCUpdate.self, RawSQLiteUpdate.self, GRDBRecordUpdate.self, GRDBCodableUpdate.self]
        case .cascadeDelete:
            [
                OpenCoreDataCascadeDelete.self, OpenCoreDataKVCCascadeDelete.self, RawSQLiteCascadeDelete.self,
                GRDBRecordCascadeDelete.self, GRDBCodableCascadeDelete.self,
            ]
        case .selectiveFetch:
            [
                OpenCoreDataSelectiveFetch.self, OpenCoreDataKVCSelectiveFetch.self, RawSQLiteSelectiveFetch.self,
                GRDBRecordSelectiveFetch.self, GRDBCodableSelectiveFetch.self,
            ]
        case .count: [OpenCoreDataCount.self, RawSQLiteCount.self]
        }
    }

    /// Whether the work changes the file, so that every iteration gets a fresh copy of the fixture.
    public var changesFile: Bool {
        switch self {
        case .aggregate, .batchedScan, .prefetch, .walk, .typedPredicateFetch, .predicateConversion, .historyFetch: false
        case .textAndDates, .wide, .selectiveFetch, .count: false
        case .batchUpdate, .batchDelete, .fetchedResults, .migration, .update, .cascadeDelete: true
        }
    }

    /// Rows of the fixture.
    public var rows: Int {
        switch self {
        case .aggregate, .batchedScan, .migration, .count: 1_000_000
        case .batchUpdate, .batchDelete: 200_000
        case .fetchedResults: FetchedResultsScript.rows
        case .prefetch, .walk: AuthorModel.authors * AuthorModel.postsPerAuthor
        case .typedPredicateFetch: TypedPredicateShape.rows
        case .predicateConversion: 1
        case .historyFetch: HistoryWorkload.transactions * HistoryWorkload.changesPerTransaction
        case .textAndDates: NoteModel.rows
        case .wide: WideModel.rows
        case .update: UpdateShape.rows
        case .cascadeDelete: AuthorModel.authors * AuthorModel.postsPerAuthor
        case .selectiveFetch: EventModel.rows
        }
    }

    /// Makes the file every contender starts from (not measured).
    public func makeFixture() throws -> StoreFixture {
        switch self {
        case .migration: try PersonModels.fixture(rows: rows)
        case .prefetch, .walk, .cascadeDelete: try AuthorModel.fixture()
        case .historyFetch: try HistoryWorkload.fixture()
        case .textAndDates: try NoteModel.fixture()
        case .wide: try WideModel.fixture()
        case .selectiveFetch: try EventModel.fixture()
        default: try ReadingModel.fixture(rows: rows)
        }
    }

    /// What `run()` returns when the work was done right.
    public var expected: Int64 {
        switch self {
        case .aggregate: AggregateCheck.expected(rows: rows)
        case .batchUpdate, .batchDelete: Int64(rows / 2)
        case .batchedScan: ReadingModel.amountSum(rows: rows) + ReadingModel.bucketSum(rows: rows)
        case .fetchedResults: FetchedResultsScript.expectedChecksum
        case .migration: 0
        case .prefetch: AuthorModel.prefetchChecksum()
        case .walk: AuthorModel.walkChecksum()
        case .typedPredicateFetch: TypedPredicateShape.expectedSum
        case .predicateConversion: Int64(2 * TypedPredicateShape.repeats)
        case .historyFetch: HistoryWorkload.expected
        case .textAndDates: NoteModel.checksum
        case .wide: WideModel.checksum
        case .update: Int64(UpdateShape.changed)
        case .cascadeDelete: Int64(CascadeDeleteShape.authors)
        case .selectiveFetch: EventModel.checksum
        case .count: CountShape.expected(rows: rows)
        }
    }

    /// Checks the file after the work (not measured): the same query for every contender.
    public func verify(url: URL) throws {
        let connection = try RawConnection(url: url)
        switch self {
        case .aggregate, .batchedScan, .fetchedResults, .prefetch, .walk, .typedPredicateFetch, .predicateConversion, .historyFetch:
            return
        case .textAndDates, .wide, .selectiveFetch, .count:
            return
        case .update:
            let figures = try connection.integers("SELECT SUM(ZAMOUNT), SUM(Z_OPT), COUNT(*) FROM ZREADING")
            let changed = Int64(UpdateShape.changed)
            let want = [ReadingModel.amountSum(rows: rows) + changed, Int64(rows) + changed, Int64(rows)]
            guard figures == want else { throw WorkloadError("the update left \(figures), not \(want)") }
        case .cascadeDelete:
            let kept = Int64(AuthorModel.authors - CascadeDeleteShape.authors)
            let authors = try connection.integers("SELECT COUNT(*), MIN(ZNUMBER) FROM ZAUTHOR")
            let posts = try connection.integers("SELECT COUNT(*), MIN(ZAUTHOR) FROM ZPOST")
            let want = [
                [kept, Int64(CascadeDeleteShape.authors)], [kept * Int64(AuthorModel.postsPerAuthor), Int64(CascadeDeleteShape.authors + 1)],
            ]
            guard [authors, posts] == want else { throw WorkloadError("the cascade delete left \([authors, posts]), not \(want)") }
        case .batchUpdate:
            let figures = try connection.integers("SELECT SUM(ZAMOUNT), SUM(Z_OPT), COUNT(*) FROM ZREADING")
            let want = [ReadingModel.amountSum(rows: rows) + Int64(rows / 2), Int64(rows + rows / 2), Int64(rows)]
            guard figures == want else { throw WorkloadError("batch update left \(figures), not \(want)") }
        case .batchDelete:
            let figures = try connection.integers("SELECT COUNT(*), MIN(ZBUCKET) FROM ZREADING")
            guard figures == [Int64(rows / 2), 50] else { throw WorkloadError("batch delete left \(figures)") }
        case .migration:
            let figures = try connection.integers("SELECT COUNT(*), SUM(ZNEWNAME), COUNT(ZADDED), SUM(ZA) FROM ZPERSON")
            let want = [Int64(rows), PersonModels.oldNameSum(rows: rows), 0, PersonModels.aSum(rows: rows)]
            guard figures == want else { throw WorkloadError("migration left \(figures), not \(want)") }
            let old = try connection.prepareIfPossible("SELECT ZOLDNAME FROM ZPERSON")
            guard !old else { throw WorkloadError("the migrated table still has ZOLDNAME") }
        }
    }
}

/// One iteration of a workload: the contender opened on the fixture or on a fresh copy of it.
public struct PreparedRun {
    /// The copy's directory (removed with it), when the work changes the file.
    let scratch: ScratchDirectory?
    /// The file the contender works on.
    public let url: URL
    /// The opened contender.
    public let contender: any Contender

    /// Opens `contender` on `fixture` (or a copy of it when `workload` changes the file).
    public init(_ workload: Workload, _ contender: any Contender.Type, fixture: StoreFixture) throws {
        if workload.changesFile {
            let copy = try fixture.copy()
            scratch = copy.directory
            url = copy.url
        } else {
            scratch = nil
            url = fixture.url
        }
        self.contender = try contender.init(url: url)
    }

    /// Throws unless the work returned `result` as expected and left the file as expected.
    public func check(_ workload: Workload, result: Int64) throws {
        let name = type(of: contender).name
        guard result == workload.expected else {
            throw WorkloadError("\(workload.title): \(name) returned \(result), not \(workload.expected)")
        }
        try workload.verify(url: url)
    }
}
