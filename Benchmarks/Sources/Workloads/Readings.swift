import Foundation
import OpenCoreData

/// The entity of the issue 9 workloads: a reading with a bucket (`row % 100`) and an amount (`row`).
public final class Reading: NSManagedObject {
    @Managed public var bucket: Int64
    @Managed public var amount: Int64
}

/// The model of the issue 9 workloads: one entity `Reading` (table `ZREADING`, columns `ZBUCKET`,
/// `ZAMOUNT`) backed by ``Reading``, and the files its workloads start from.
public enum ReadingModel {
    /// Distinct buckets.
    public static let buckets = 100

    public static func bucket(_ row: Int) -> Int64 { Int64(row % buckets) }
    public static func amount(_ row: Int) -> Int64 { Int64(row) }

    public static func make() -> NSManagedObjectModel {
        let entity = NSEntityDescription()
        entity.name = "Reading"
        entity.managedObjectClassName = String(reflecting: Reading.self)
        entity.properties = ["bucket", "amount"].map { name in
            let attribute = NSAttributeDescription()
            attribute.name = name
            attribute.attributeType = .integer64AttributeType
            attribute.isOptional = false
            attribute.defaultValue = 0
            return attribute
        }
        let model = NSManagedObjectModel()
        model.entities = [entity]
        return model
    }

    /// One model per process, as an app has.
    public static let shared = make()

    /// A file of `rows` readings (row `r`: bucket `r % 100`, amount `r`).
    public static func fixture(rows: Int) throws -> StoreFixture {
        try StoreFixture(
            fileName: "Readings.sqlite", model: shared, entity: "Reading", rows: rows,
            columns: [("bucket", bucket), ("amount", amount)])
    }

    /// A private-queue context on the store at `url`, WAL with `synchronous=NORMAL`.
    public static func context(at url: URL) throws -> NSManagedObjectContext {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: shared)
        try coordinator.addPersistentStore(type: .sqlite, at: url, options: ItemModel.storeOptions)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    /// The sum of `amount` over rows `0..<rows`.
    public static func amountSum(rows: Int) -> Int64 { Int64(rows) * Int64(rows - 1) / 2 }

    /// The sum of `bucket` over rows `0..<rows`.
    public static func bucketSum(rows: Int) -> Int64 { (0..<rows).reduce(0) { $0 + bucket($1) } }
}
