import Foundation
import Testing

@testable import OpenCoreDataCore

/// A coordinator with a `PropertyListFileStore` in a temporary directory, on `JSONStoreKit`'s model.
enum AtomicStoreKit {
    static func url() -> URL {
        JSONStoreKit.url().deletingLastPathComponent().appendingPathComponent("store.plist")
    }

    static func open(_ url: URL) throws -> (NSPersistentStoreCoordinator, PropertyListFileStore) {
        PropertyListFileStore.register()
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: JSONStoreKit.model())
        let store = try coordinator.addPersistentStore(type: NSPersistentStore.StoreType(rawValue: PropertyListFileStore.storeType), at: url)
        return (coordinator, try #require(store as? PropertyListFileStore))
    }
}
