import Foundation
import Testing

@testable import OpenCoreDataCore

/// Key-value coding on plain `NSManagedObject`s, whose Integer and Double attributes are read and set
/// in place in their slots: every value type in and every cast out gives what the general path gives,
/// and the object's change tracking, faults and notifications are unchanged.
@Suite("NSManagedObject Key-Value Coding in place")
struct ManagedObjectKeyValueSlotTests {
    @Test("an Integer attribute takes NSNumber, Int, Int64, Int32, Int16 and nil, and reads back as an NSNumber")
    func integerValuesIn() throws {
        let stack = try GraphStack(.inMemory)
        let post = stack.context().make("Post", ["title": "A"])
        let values: [(Any, Int64)] = [
            (NSNumber(value: Int64(41)), 41), (42, 42), (Int64(43), 43), (Int32(44), 44), (Int16(45), 45),
            (NSNumber(value: 46.75), 46), (NSNumber(value: true), 1), (Int64.max, Int64.max), (Int64.min, Int64.min),
        ]
        for (value, expected) in values {
            post.setValue(value, forKey: "views")
            let read = post.value(forKey: "views")
            #expect(read is NSNumber, "\(value)")
            #expect((read as? NSNumber)?.int64Value == expected, "\(value)")
            #expect(read as? Int64 == expected, "\(value)")
            #expect(post.primitiveValue(forKey: "views") as? Int64 == expected, "\(value)")
        }
        post.setValue(nil, forKey: "views")
        #expect(post.value(forKey: "views") == nil)
        post.setValue(NSNull(), forKey: "views")
        #expect(post.value(forKey: "views") == nil)
    }

    @Test("an Integer attribute's NSNumber casts as? Int64, Int, Int32, Double and Bool as NSNumber bridges")
    func integerCastsOut() throws {
        let stack = try GraphStack(.inMemory)
        let post = stack.context().make("Post", ["title": "A"])
        post.setValue(Int64(7), forKey: "views")
        let read = post.value(forKey: "views")
        #expect(read as? Int64 == 7)
        #expect(read as? Int == 7)
        #expect(read as? Int32 == 7)
        #expect(read as? Double == 7)
        #expect(read as? Bool == nil)
        post.setValue(1, forKey: "views")
        #expect(post.value(forKey: "views") as? Bool == true)
        let author = stack.context().make("Author", ["name": "Ann"])
        author.setValue(Int16(12), forKey: "age")
        #expect(author.value(forKey: "age") as? Int16 == 12)
        #expect(author.value(forKey: "age") as? Int == 12)
    }

    @Test("a Double attribute takes NSNumber, Double and nil, and reads back as an NSNumber")
    func doubleValues() throws {
        let stack = try GraphStack(.inMemory)
        let post = stack.context().make("Post", ["title": "A"])
        post.setValue(NSNumber(value: 2.5), forKey: "rating")
        #expect((post.value(forKey: "rating") as? NSNumber)?.doubleValue == 2.5)
        post.setValue(3.25, forKey: "rating")
        #expect(post.value(forKey: "rating") is NSNumber)
        #expect(post.value(forKey: "rating") as? Double == 3.25)
        post.setValue(NSNumber(value: Int64(4)), forKey: "rating")
        #expect(post.value(forKey: "rating") as? Double == 4)
        #expect(post.value(forKey: "rating") as? Int == 4)
        post.setValue(5, forKey: "rating")
        #expect(post.value(forKey: "rating") as? Double == 5)
        post.setValue(Float(1.5), forKey: "rating")
        #expect(post.value(forKey: "rating") as? Double == 1.5)
        post.setValue(nil, forKey: "rating")
        #expect(post.value(forKey: "rating") == nil)
    }

    @Test("Bool, String and Date attributes keep their values and casts")
    func otherValues() throws {
        let stack = try GraphStack(.inMemory)
        let post = stack.context().make("Post", ["title": "A"])
        post.setValue(true, forKey: "published")
        #expect(post.value(forKey: "published") as? Bool == true)
        #expect((post.value(forKey: "published") as? NSNumber)?.boolValue == true)
        post.setValue(NSNumber(value: false), forKey: "published")
        #expect(post.value(forKey: "published") as? Bool == false)
        post.setValue("Title", forKey: "title")
        #expect(post.value(forKey: "title") as? String == "Title")
        let date = Date(timeIntervalSinceReferenceDate: 123_456)
        post.setValue(date, forKey: "created")
        #expect(post.value(forKey: "created") as? Date == date)
        post.setValue(nil, forKey: "created")
        #expect(post.value(forKey: "created") == nil)
    }

    @Test("values set in place are saved, fetched and read back through every cast")
    func savedAndFetched() throws {
        let stack = try GraphStack()
        let writer = stack.context()
        let post = writer.make("Post", ["title": "A"])
        post.setValue(NSNumber(value: Int64(1_000_000_007)), forKey: "views")
        post.setValue(0.125, forKey: "rating")
        try writer.save()

        let reader = stack.context()
        let fetched = try #require(try reader.all("Post").first)
        #expect(fetched.isFault)
        // A key that is not a property leaves the fault a fault.
        #expect(fetched.value(forKey: "isFault") as? Bool == true)
        #expect(fetched.isFault)
        #expect((fetched.value(forKey: "views") as? NSNumber)?.int64Value == 1_000_000_007)
        #expect(!fetched.isFault)
        #expect(fetched.value(forKey: "views") as? Int64 == 1_000_000_007)
        #expect(fetched.value(forKey: "views") as? Int == 1_000_000_007)
        #expect(fetched.value(forKey: "rating") as? Double == 0.125)
    }

    @Test("setting a fault's attribute fires it and records the change")
    func setOnFault() throws {
        let stack = try GraphStack()
        let writer = stack.context()
        writer.make("Post", ["title": "A", "views": 3])
        try writer.save()

        let context = stack.context()
        let fetched = try #require(try context.all("Post").first)
        #expect(fetched.isFault)
        fetched.setValue(Int64(4), forKey: "views")
        #expect(!fetched.isFault)
        #expect(fetched.isUpdated && context.hasChanges)
        #expect(fetched.changedValues()["views"] as? Int64 == 4)
        #expect(fetched.committedValues(forKeys: ["views"])["views"] as? Int64 == 3)
        try context.save()
        let reader = stack.context()
        #expect(try reader.all("Post").first?.value(forKey: "views") as? Int64 == 4)
    }

    @Test("change tracking: hasChanges, changedValues and the same value set again")
    func changeTracking() throws {
        let stack = try GraphStack()
        let context = stack.context()
        let post = context.make("Post", ["title": "A", "views": 1, "rating": 1.0])
        try context.save()
        #expect(!context.hasChanges && !post.hasChanges)

        post.setValue(NSNumber(value: Int64(2)), forKey: "views")
        post.setValue(2.5, forKey: "rating")
        #expect(post.hasChanges && post.isUpdated && context.hasChanges)
        #expect(context.updatedObjects.contains(post))
        #expect(Set(post.changedValues().keys) == ["views", "rating"])
        #expect(post.changedValues()["views"] as? Int64 == 2)
        try context.save()
        #expect(!post.hasChanges)

        // The saved value set again: the object counts as updated (the setter records every set, as the
        // general path does), while its changed values, compared with the saved ones, are empty.
        post.setValue(Int64(2), forKey: "views")
        #expect(post.hasChanges)
        #expect(post.isUpdated)
        #expect(context.hasChanges)
        #expect(post.changedValues().isEmpty)
        #expect(!post.hasPersistentChangedValues)
        context.rollback()
        #expect(post.value(forKey: "views") as? Int64 == 2)
    }

    @Test("rollback restores values set in place; an objects-did-change notification names the object")
    func rollbackAndNotification() throws {
        let stack = try GraphStack()
        let context = stack.context()
        let post = context.make("Post", ["title": "A", "views": 5])
        try context.save()
        let recorder = NotificationRecorder([.NSManagedObjectContextObjectsDidChange], object: context)
        post.setValue(6, forKey: "views")
        context.processPendingChanges()
        let changes = recorder.named(.NSManagedObjectContextObjectsDidChange)
        #expect(changes.contains { $0.objects(NSUpdatedObjectsKey).contains(post) })
        context.rollback()
        #expect(post.value(forKey: "views") as? Int64 == 5)
        #expect(!post.hasChanges)
    }

    @Test("undo of a value set by key-value coding restores the old value")
    func undo() throws {
        let stack = try GraphStack(.inMemory)
        let context = stack.context()
        context.undoManager = UndoManager()
        let post = context.make("Post", ["title": "A", "views": 1])
        context.processPendingChanges()
        context.undoManager?.removeAllActions()
        post.setValue(Int64(9), forKey: "views")
        context.processPendingChanges()
        #expect(post.value(forKey: "views") as? Int64 == 9)
        context.undoManager?.undo()
        #expect(post.value(forKey: "views") as? Int64 == 1)
    }

    @Test("a subclass's change notifications still run around setValue(_:forKey:)")
    func subclassNotifications() throws {
        let model = BlogModel.make()
        model.entitiesByName["Post"]?.managedObjectClassName = NSStringFromClass(NotingPost.self)
        let stack = try GraphStack(.inMemory, model: model)
        let post = stack.context().make("Post", ["title": "A"])
        let noting = try #require(post as? NotingPost)
        noting.notes.removeAll()
        post.setValue(Int64(3), forKey: "views")
        _ = post.value(forKey: "views")
        #expect(noting.notes == ["willChange views", "didChange views", "willAccess views", "didAccess views"])
    }

    @Test("a Bool set for an Integer attribute still traps")
    func boolForIntegerTraps() async {
        await #expect(processExitsWith: .failure) {
            let stack = try GraphStack(.inMemory)
            let post = stack.context().make("Post")
            post.setValue(true, forKey: "views")
        }
    }

    @Test("a String set for an Integer attribute still traps")
    func stringForIntegerTraps() async {
        await #expect(processExitsWith: .failure) {
            let stack = try GraphStack(.inMemory)
            let post = stack.context().make("Post")
            post.setValue("7", forKey: "views")
        }
    }
}

/// A post that notes its access and change notifications.
final class NotingPost: NSManagedObject {
    var notes: [String] = []

    override func willAccessValue(forKey key: String?) {
        notes.append("willAccess \(key ?? "")")
        super.willAccessValue(forKey: key)
    }

    override func didAccessValue(forKey key: String?) {
        notes.append("didAccess \(key ?? "")")
        super.didAccessValue(forKey: key)
    }

    override func willChangeValue(forKey key: String) {
        notes.append("willChange \(key)")
        super.willChangeValue(forKey: key)
    }

    override func didChangeValue(forKey key: String) {
        notes.append("didChange \(key)")
        super.didChangeValue(forKey: key)
    }
}
