import Foundation
import OpenCoreData

/// The workloads' model as code without subclasses uses it: the entity `Item` of ``ItemModel`` (same
/// table, same columns, same version hash) backed by `NSManagedObject` itself.
public enum PlainItemModel {
    /// One model per process, as an app has.
    public static let shared: NSManagedObjectModel = {
        let model = ItemModel.make()
        for entity in model.entities { entity.managedObjectClassName = "NSManagedObject" }
        return model
    }()

    /// The ten attribute names, as an app spells them: string literals.
    public static let keys = ["i0", "i1", "i2", "i3", "i4", "i5", "i6", "i7", "i8", "i9"]

    /// A private-queue context on a coordinator with the SQLite store at `url` (created when absent).
    static func context(at url: URL) throws -> NSManagedObjectContext {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: shared)
        try coordinator.addPersistentStore(type: .sqlite, at: url, options: ItemModel.storeOptions)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }
}

/// OpenCoreData through key-value coding on plain `NSManagedObject`s: `insertNewObject(forEntityName:into:)`,
/// ten `setValue(NSNumber(value:), forKey:)`, one `save()`.
public struct OpenCoreDataKVCNumberInsert: InsertContender {
    public static let name = "OpenCoreData KVC NSNumber"
    let context: NSManagedObjectContext

    public init(url: URL) throws {
        context = try PlainItemModel.context(at: url)
    }

    public func run(count: Int) throws {
        let context = self.context
        try context.performAndWait {
            for row in 0..<count {
                let item = NSEntityDescription.insertNewObject(forEntityName: "Item", into: context)
                item.setValue(NSNumber(value: Shape.value(row: row, column: 0)), forKey: "i0")
                item.setValue(NSNumber(value: Shape.value(row: row, column: 1)), forKey: "i1")
                item.setValue(NSNumber(value: Shape.value(row: row, column: 2)), forKey: "i2")
                item.setValue(NSNumber(value: Shape.value(row: row, column: 3)), forKey: "i3")
                item.setValue(NSNumber(value: Shape.value(row: row, column: 4)), forKey: "i4")
                item.setValue(NSNumber(value: Shape.value(row: row, column: 5)), forKey: "i5")
                item.setValue(NSNumber(value: Shape.value(row: row, column: 6)), forKey: "i6")
                item.setValue(NSNumber(value: Shape.value(row: row, column: 7)), forKey: "i7")
                item.setValue(NSNumber(value: Shape.value(row: row, column: 8)), forKey: "i8")
                item.setValue(NSNumber(value: Shape.value(row: row, column: 9)), forKey: "i9")
            }
            try context.save()
        }
    }
}

/// OpenCoreData through key-value coding on plain `NSManagedObject`s, setting Swift values:
/// ten `setValue(Int64, forKey:)`, one `save()`.
public struct OpenCoreDataKVCInt64Insert: InsertContender {
    public static let name = "OpenCoreData KVC Int64"
    let context: NSManagedObjectContext

    public init(url: URL) throws {
        context = try PlainItemModel.context(at: url)
    }

    public func run(count: Int) throws {
        let context = self.context
        try context.performAndWait {
            for row in 0..<count {
                let item = NSEntityDescription.insertNewObject(forEntityName: "Item", into: context)
                item.setValue(Shape.value(row: row, column: 0), forKey: "i0")
                item.setValue(Shape.value(row: row, column: 1), forKey: "i1")
                item.setValue(Shape.value(row: row, column: 2), forKey: "i2")
                item.setValue(Shape.value(row: row, column: 3), forKey: "i3")
                item.setValue(Shape.value(row: row, column: 4), forKey: "i4")
                item.setValue(Shape.value(row: row, column: 5), forKey: "i5")
                item.setValue(Shape.value(row: row, column: 6), forKey: "i6")
                item.setValue(Shape.value(row: row, column: 7), forKey: "i7")
                item.setValue(Shape.value(row: row, column: 8), forKey: "i8")
                item.setValue(Shape.value(row: row, column: 9), forKey: "i9")
            }
            try context.save()
        }
    }
}

/// OpenCoreData through key-value coding on plain `NSManagedObject`s: one fetch request for every
/// `Item`, each of its ten values read through `value(forKey:) as? NSNumber`.
public struct OpenCoreDataKVCNumberFetch: FetchContender {
    public static let name = "OpenCoreData KVC NSNumber"
    let context: NSManagedObjectContext

    public init(url: URL) throws {
        context = try PlainItemModel.context(at: url)
    }

    public func run() throws -> Int64 {
        let context = self.context
        return try context.performAndWait {
            let items = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Item"))
            var sum: Int64 = 0
            for item in items {
                for key in PlainItemModel.keys {
                    guard let number = item.value(forKey: key) as? NSNumber else {
                        throw WorkloadError("\(key) is not an NSNumber")
                    }
                    sum &+= number.int64Value
                }
            }
            return sum
        }
    }
}

/// OpenCoreData through key-value coding on plain `NSManagedObject`s: one fetch request for every
/// `Item`, each of its ten values read through `value(forKey:) as? Int64`.
public struct OpenCoreDataKVCInt64Fetch: FetchContender {
    public static let name = "OpenCoreData KVC Int64"
    let context: NSManagedObjectContext

    public init(url: URL) throws {
        context = try PlainItemModel.context(at: url)
    }

    public func run() throws -> Int64 {
        let context = self.context
        return try context.performAndWait {
            let items = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Item"))
            var sum: Int64 = 0
            for item in items {
                for key in PlainItemModel.keys {
                    guard let value = item.value(forKey: key) as? Int64 else {
                        throw WorkloadError("\(key) is not an Int64")
                    }
                    sum &+= value
                }
            }
            return sum
        }
    }
}
