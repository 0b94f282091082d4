import OpenCoreData
import Testing

/// `NSManagedObjectContextConcurrencyType` is a top-level enum, as in Apple's API; the nested
/// `NSManagedObjectContext.ConcurrencyType` is Apple's struct of values to create a context with.
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

    @Test("a context reports the type it was made with, made either way")
    func contextType() {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        let type: NSManagedObjectContextConcurrencyType = context.concurrencyType
        #expect(type == .privateQueueConcurrencyType)
        let main = NSManagedObjectContext(.mainQueue)
        #expect(main.concurrencyType == .mainQueueConcurrencyType)
        #expect(NSManagedObjectContext(.privateQueue).concurrencyType == .privateQueueConcurrencyType)
        let nested = NSManagedObjectContext.ConcurrencyType(rawValue: .mainQueueConcurrencyType)
        #expect(nested == .mainQueue && nested.rawValue == .mainQueueConcurrencyType)
        #expect(NSManagedObjectContext.ConcurrencyType.privateQueue != .mainQueue)
    }
}
