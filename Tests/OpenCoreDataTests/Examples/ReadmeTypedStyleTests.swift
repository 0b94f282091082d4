import OpenCoreData
import Testing

/// The README's `Post`, as its Core Data stack example declares it.
final class Post: NSManagedObject {
    @Managed var title: String
    @Managed var publishedAt: Date?
}

@Suite("README: the typed style")
struct ReadmeTypedStyleTests {
    static func context() throws -> (NSManagedObjectContext, TemporaryDirectory) {
        let directory = TemporaryDirectory()
        let entity = NSEntityDescription()
        entity.name = "Post"
        entity.managedObjectClassName = NSStringFromClass(Post.self)
        let title = NSAttributeDescription()
        title.name = "title"
        title.attributeType = .stringAttributeType
        let publishedAt = NSAttributeDescription()
        publishedAt.name = "publishedAt"
        publishedAt.attributeType = .dateAttributeType
        publishedAt.isOptional = true
        entity.properties = [title, publishedAt]
        let model = NSManagedObjectModel()
        model.entities = [entity]
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, at: directory.file("Blog.sqlite"))
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            for (text, published) in [("Hello from Linux", true), ("Hello, draft", false), ("Hello again", true), ("Bye", true)] {
                let post = Post(context: context)
                post.title = text
                post.publishedAt = published ? Date() : nil
            }
            try context.save()
        }
        return (context, directory)
    }

    @Test("NSPredicate(#Predicate) and NSSortDescriptor(SortDescriptor), and the throwing shorthand, as written")
    func typedStyle() throws {
        let (context, directory) = try Self.context()
        try withExtendedLifetime(directory) {
            try context.performAndWait {
                let typed = NSFetchRequest<Post>(entityName: "Post")
                typed.predicate = NSPredicate(#Predicate<Post> { $0.title.starts(with: "Hello") && $0.publishedAt != nil })
                typed.sortDescriptors = [NSSortDescriptor(SortDescriptor(\Post.title, order: .reverse))]
                let hellos = try context.fetch(typed)
                #expect(hellos.map(\.title) == ["Hello from Linux", "Hello again"])

                let recent = try context.fetch(
                    NSFetchRequest<Post>(
                        entityName: "Post",
                        predicate: #Predicate { $0.title.contains("Linux") },
                        sortBy: [SortDescriptor(\.title)]))
                #expect(recent.map(\.title) == ["Hello from Linux"])
            }
        }
    }
}
