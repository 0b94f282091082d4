import Testing
import OpenCoreData

/// `NSManagedObjectContextConcurrencyType` is a top-level enum, as in Apple's API; the nested name is a
/// typealias of it.
@Suite("Context concurrency type")
struct ContextConcurrencyTypeTests {
    @Test("the top-level enum has Apple's cases and raw values")
    func cases() {
        let privateQueue: NSManagedObjectContextConcurrencyType = .privateQueueConcurrencyType
        let mainQueue: NSManagedObjectContextConcurrencyType = .mainQueueConcurrencyType
        #expect(privateQueue.rawValue == 1)
        #expect(mainQueue.rawValue == 2)
        #expect(NSManagedObjectContextConcurrencyType(rawValue: 0) != nil)
        #expect(NSManagedObjectContextConcurrencyType(rawValue: 3) == nil)
    }

    @Test("a context reports the type it was made with, under either name")
    func contextType() {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        let type: NSManagedObjectContextConcurrencyType = context.concurrencyType
        let nested: NSManagedObjectContext.ConcurrencyType = type
        #expect(nested == .privateQueueConcurrencyType)
        #expect(NSManagedObjectContext.ConcurrencyType.self == NSManagedObjectContextConcurrencyType.self)
    }
}
