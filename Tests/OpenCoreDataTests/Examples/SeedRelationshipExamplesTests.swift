import OpenCoreData
import Testing

// The seeds' relationship examples written in Swift with `@Managed` in place of `@NSManaged`, and the
// generated-style accessors (`addToCourses(_:)`, …) written as `ocd codegen` emits them.

final class SeedAuthor: NSManagedObject {
    @Managed var name: String
    @Managed var books: NSSet?
}

final class SeedBook: NSManagedObject {
    @Managed var title: String
    @Managed var author: SeedAuthor?
}

final class SeedStudent: NSManagedObject {
    @Managed var name: String
    @Managed var courses: NSSet?

    func addToCourses(_ value: SeedCourse) { managedAdd(value, toKey: "courses") }
    func removeFromCourses(_ value: SeedCourse) { managedRemove(value, fromKey: "courses") }
    func addToCourses(_ values: NSSet) { managedAdd(contentsOf: values, toKey: "courses") }
    func removeFromCourses(_ values: NSSet) { managedRemove(contentsOf: values, fromKey: "courses") }
}

final class SeedCourse: NSManagedObject {
    @Managed var title: String
    @Managed var students: NSSet?
}

final class SeedUser: NSManagedObject {
    nonisolated(unsafe) static var deletedNames: [String] = []

    @Managed var name: String?
    @Managed var email: String?
    @Managed var posts: Set<SeedPost>

    var postCount: Int { posts.count }

    /// The first seed's `addPost:` business method.
    func addPost(_ post: SeedPost) {
        mutableSetValue(forKey: "posts").add(post)
        post.author = self
    }

    /// The first seed's `removePost:` business method.
    func removePost(_ post: SeedPost) {
        mutableSetValue(forKey: "posts").remove(post)
        post.author = nil
    }

    override func prepareForDeletion() {
        super.prepareForDeletion()
        Self.deletedNames.append(name ?? "Unknown User")
    }
}

final class SeedPost: NSManagedObject {
    @Managed var title: String
    @Managed var content: String?
    @Managed var author: SeedUser?
}

/// The seeds' models: User ⇄ Post (cascade / nullify), Author ⇄ Book (rule chosen by the test),
/// Student ⇄ Course (many-to-many).
enum SeedRelationshipModel {
    static func make(authorBooksRule: NSDeleteRule = .nullifyDeleteRule) -> NSManagedObjectModel {
        func entity(_ name: String, _ type: NSManagedObject.Type, _ attributes: [NSAttributeDescription]) -> NSEntityDescription {
            let entity = ModelKit.entity(name, attributes)
            entity.managedObjectClassName = String(reflecting: type)
            return entity
        }
        func pair(
            _ source: NSEntityDescription, _ name: String, toMany: Bool, rule: NSDeleteRule,
            _ destination: NSEntityDescription, _ inverseName: String, inverseToMany: Bool
        ) {
            let forward = ModelKit.relationship(name, to: destination, toMany: toMany)
            forward.deleteRule = rule
            let inverse = ModelKit.relationship(inverseName, to: source, toMany: inverseToMany)
            ModelKit.pair(forward, inverse)
            source.properties += [forward]
            destination.properties += [inverse]
        }
        let user = entity(
            "User", SeedUser.self,
            [
                ModelKit.attribute("name", .stringAttributeType),
                ModelKit.attribute("email", .stringAttributeType),
            ])
        let post = entity(
            "Post", SeedPost.self,
            [
                ModelKit.attribute("title", .stringAttributeType, optional: false),
                ModelKit.attribute("content", .stringAttributeType),
            ])
        pair(user, "posts", toMany: true, rule: .cascadeDeleteRule, post, "author", inverseToMany: false)
        let author = entity("Author", SeedAuthor.self, [ModelKit.attribute("name", .stringAttributeType)])
        let book = entity("Book", SeedBook.self, [ModelKit.attribute("title", .stringAttributeType)])
        pair(author, "books", toMany: true, rule: authorBooksRule, book, "author", inverseToMany: false)
        let student = entity("Student", SeedStudent.self, [ModelKit.attribute("name", .stringAttributeType)])
        let course = entity("Course", SeedCourse.self, [ModelKit.attribute("title", .stringAttributeType)])
        pair(student, "courses", toMany: true, rule: .nullifyDeleteRule, course, "students", inverseToMany: true)
        let model = NSManagedObjectModel()
        model.entities = [user, post, author, book, student, course]
        return model
    }
}

@Suite("Seed relationship examples", .serialized)
struct SeedRelationshipExamplesTests {
    @Test("Author/Book: book.author = author maintains author.books automatically", arguments: TestStoreKind.allCases)
    func authorBooks(kind: TestStoreKind) throws {
        let stack = try GraphStack(kind, model: SeedRelationshipModel.make(), fileName: "Seeds.sqlite")
        let context = stack.context()
        let author = SeedAuthor(context: context)
        author.name = "J.K. Rowling"
        let book1 = SeedBook(context: context)
        book1.title = "Harry Potter 1"
        book1.author = author
        let book2 = SeedBook(context: context)
        book2.title = "Harry Potter 2"
        book2.author = author
        #expect(author.books?.count == 2)
        try context.save()
        let request = NSFetchRequest<SeedAuthor>(entityName: "Author")
        let reader = stack.context()
        let stored = try #require(try reader.fetch(request).first)
        #expect(stored.books?.count == 2)
    }

    @Test("Author/Book delete rules: nullify, cascade, deny and no action as the seed describes them", arguments: NSDeleteRule.allCases)
    func authorDeleteRules(rule: NSDeleteRule) throws {
        let stack = try GraphStack(.sqlite, model: SeedRelationshipModel.make(authorBooksRule: rule), fileName: "Seeds.sqlite")
        let context = stack.context()
        let author = SeedAuthor(context: context)
        author.name = "Rowling"
        let book = SeedBook(context: context)
        book.title = "HP"
        book.author = author
        try context.save()
        context.delete(author)
        switch rule {
        case .nullifyDeleteRule:
            try context.save()
            #expect(book.author == nil)
            let reader = stack.context()
            #expect(try reader.fetch(NSFetchRequest<SeedBook>(entityName: "Book")).first?.author == nil)
        case .cascadeDeleteRule:
            try context.save()
            #expect(try stack.context().fetch(NSFetchRequest<SeedBook>(entityName: "Book")).isEmpty)
        case .denyDeleteRule:
            #expect { try context.save() } throws: { ($0 as NSError).code == NSValidationRelationshipDeniedDeleteError }
            #expect(try stack.context().fetch(NSFetchRequest<SeedAuthor>(entityName: "Author")).count == 1)
        case .noActionDeleteRule:
            try context.save()
            #expect(book.author === author)
            #expect(try stack.context().fetch(NSFetchRequest<SeedAuthor>(entityName: "Author")).isEmpty)
        }
    }

    @Test("Student/Course: addToCourses twice gives the student 2 courses and each course 1 student", arguments: TestStoreKind.allCases)
    func studentCourses(kind: TestStoreKind) throws {
        let stack = try GraphStack(kind, model: SeedRelationshipModel.make(), fileName: "Seeds.sqlite")
        let context = stack.context()
        let student = SeedStudent(context: context)
        student.name = "Alice"
        let course1 = SeedCourse(context: context)
        course1.title = "iOS Development"
        let course2 = SeedCourse(context: context)
        course2.title = "Swift Programming"
        student.addToCourses(course1)
        student.addToCourses(course2)
        #expect(student.courses?.count == 2)
        #expect(course1.students?.count == 1)
        try context.save()
        student.removeFromCourses(course1)
        #expect(course1.students?.count == 0)
        student.addToCourses(NSSet(array: [course1]))
        student.removeFromCourses(NSSet(array: [course2]))
        try context.save()
        let reader = stack.context()
        let courses = try reader.fetch(NSFetchRequest<SeedCourse>(entityName: "Course"))
        #expect(courses.map { "\($0.title):\($0.students?.count ?? -1)" }.sorted() == ["Swift Programming:0", "iOS Development:1"])
    }

    @Test(
        "User/Post: addPost/removePost keep both sides, deleting a user cascades to its posts after prepareForDeletion",
        arguments: TestStoreKind.allCases)
    func userPosts(kind: TestStoreKind) throws {
        let stack = try GraphStack(kind, model: SeedRelationshipModel.make(), fileName: "Seeds.sqlite")
        let context = stack.context()
        let user = SeedUser(context: context)
        user.name = "Ann"
        let first = SeedPost(context: context)
        first.title = "First"
        let second = SeedPost(context: context)
        second.title = "Second"
        user.addPost(first)
        user.addPost(second)
        #expect(user.postCount == 2)
        user.removePost(second)
        #expect(second.author == nil && user.postCount == 1)
        context.delete(second)
        try context.save()

        SeedUser.deletedNames = []
        context.delete(user)
        try context.save()
        #expect(SeedUser.deletedNames == ["Ann"])
        let fresh = stack.context()
        #expect(try fresh.fetch(NSFetchRequest<SeedPost>(entityName: "Post")).isEmpty)
        #expect(try fresh.fetch(NSFetchRequest<SeedUser>(entityName: "User")).isEmpty)
    }

    @Test("the first seed's memory housekeeping: refreshAllObjects, reset, then levelsOfUndo = 10 on the undo manager")
    func memoryHousekeeping() throws {
        let stack = try GraphStack(.sqlite, model: SeedRelationshipModel.make(), fileName: "Seeds.sqlite")
        let context = stack.context()
        context.undoManager = UndoManager()
        let user = SeedUser(context: context)
        user.name = "Ann"
        try context.save()
        context.refreshAllObjects()
        context.reset()
        if let undoManager = context.undoManager {
            undoManager.levelsOfUndo = 10
        }
        #expect(context.undoManager?.canUndo == false)
        let again = try #require(try context.fetch(NSFetchRequest<SeedUser>(entityName: "User")).first)
        again.name = "Annie"
        context.undo()
        #expect(again.name == "Ann")
    }
}
