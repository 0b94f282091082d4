import Foundation
import OpenCoreData

/// The entity of the workloads as a Core Data user writes it: ten Integer 64 attributes.
public final class Item: NSManagedObject {
    @Managed public var i0: Int64
    @Managed public var i1: Int64
    @Managed public var i2: Int64
    @Managed public var i3: Int64
    @Managed public var i4: Int64
    @Managed public var i5: Int64
    @Managed public var i6: Int64
    @Managed public var i7: Int64
    @Managed public var i8: Int64
    @Managed public var i9: Int64
}

/// The model: one entity `Item` (table `ZITEM`, columns `ZI0`…`ZI9`) backed by ``Item``.
public enum ItemModel {
    public static func make() -> NSManagedObjectModel {
        let entity = NSEntityDescription()
        entity.name = "Item"
        entity.managedObjectClassName = String(reflecting: Item.self)
        entity.properties = (0..<Shape.columnCount).map { column in
            let attribute = NSAttributeDescription()
            attribute.name = "i\(column)"
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

    /// Store options of every OpenCoreData contender: WAL (the default) and `synchronous=NORMAL`.
    public static var storeOptions: [AnyHashable: Any] { [NSSQLitePragmasOption: ["synchronous": "NORMAL"]] }

    /// A coordinator with the SQLite store at `url` (created when absent).
    public static func coordinator(at url: URL) throws -> NSPersistentStoreCoordinator {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: shared)
        try coordinator.addPersistentStore(type: .sqlite, at: url, options: storeOptions)
        return coordinator
    }
}

/// OpenCoreData, Core Data style: `Item(context:)`, ten properties set, one `save()`.
public struct OpenCoreDataInsert: InsertContender {
    public static let name = "OpenCoreData"
    let context: NSManagedObjectContext

    public init(url: URL) throws {
        context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = try ItemModel.coordinator(at: url)
    }

    /// The same work into the store of `context` (the history-tracking contender's store).
    init(context: NSManagedObjectContext) {
        self.context = context
    }

    public func run(count: Int) throws {
        let context = self.context
        try context.performAndWait {
            for row in 0..<count {
                let item = Item(context: context)
                item.i0 = Shape.value(row: row, column: 0)
                item.i1 = Shape.value(row: row, column: 1)
                item.i2 = Shape.value(row: row, column: 2)
                item.i3 = Shape.value(row: row, column: 3)
                item.i4 = Shape.value(row: row, column: 4)
                item.i5 = Shape.value(row: row, column: 5)
                item.i6 = Shape.value(row: row, column: 6)
                item.i7 = Shape.value(row: row, column: 7)
                item.i8 = Shape.value(row: row, column: 8)
                item.i9 = Shape.value(row: row, column: 9)
            }
            try context.save()
        }
    }
}

/// OpenCoreData, Core Data style: one fetch request for every `Item`, each of its ten properties read.
public struct OpenCoreDataFetch: FetchContender {
    public static let name = "OpenCoreData"
    let context: NSManagedObjectContext

    public init(url: URL) throws {
        context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = try ItemModel.coordinator(at: url)
    }

    public func run() throws -> Int64 {
        let context = self.context
        return try context.performAndWait {
            let items = try context.fetch(NSFetchRequest<Item>(entityName: "Item"))
            var sum: Int64 = 0
            for item in items {
                sum &+= item.i0 &+ item.i1 &+ item.i2 &+ item.i3 &+ item.i4
                sum &+= item.i5 &+ item.i6 &+ item.i7 &+ item.i8 &+ item.i9
            }
            return sum
        }
    }
}
