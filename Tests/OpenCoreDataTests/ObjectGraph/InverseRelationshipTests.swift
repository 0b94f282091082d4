import OpenCoreData
import Testing

final class InversePlaylist: NSManagedObject {
    @Managed var name: String?
    @Managed var songs: NSOrderedSet
}

final class InverseSong: NSManagedObject {
    @Managed var title: String?
    @Managed var playlist: InversePlaylist?
}

@Suite("Inverse relationships")
struct InverseRelationshipTests {
    @Test(
        "setting a to-one adds the object to the owner's to-many at once, and moving it removes it from the old owner",
        arguments: TestStoreKind.allCases)
    func toOneSetsToManyInverse(kind: TestStoreKind) throws {
        let stack = try GraphRulesModel.stack(kind)
        let context = stack.context()
        let ann = context.make("User", ["name": "Ann"])
        let bob = context.make("User", ["name": "Bob"])
        let post = context.make("Post", ["title": "Hello"])
        post.setValue(ann, forKey: "author")
        #expect(ann.relatedNames("posts", "title") == ["Hello"])
        post.setValue(bob, forKey: "author")
        #expect(ann.related("posts").isEmpty)
        #expect(bob.relatedNames("posts", "title") == ["Hello"])
        try context.save()

        let fresh = stack.context()
        let users = try fresh.all("User", sortedBy: "name")
        #expect(users.map { $0.relatedNames("posts", "title") } == [[], ["Hello"]])
        let stored = try #require(try fresh.all("Post").first)
        #expect(stored.toOne("author")?.value(forKey: "name") as? String == "Bob")

        // Moving a saved post back, in a new context, updates both saved owners.
        stored.setValue(users[0], forKey: "author")
        #expect(users[1].related("posts").isEmpty)
        #expect(users[0].relatedNames("posts", "title") == ["Hello"])
        post.setValue(nil, forKey: "author")
        #expect(bob.related("posts").isEmpty)
        try fresh.save()
        let third = stack.context()
        #expect(try third.all("User", sortedBy: "name").map { $0.relatedNames("posts", "title") } == [["Hello"], []])
    }

    @Test("mutableSetValue(forKey:) sets and clears the inverse to-one and takes the object from its former owner", arguments: TestStoreKind.allCases)
    func mutableSetMaintainsInverse(kind: TestStoreKind) throws {
        let stack = try GraphRulesModel.stack(kind)
        let context = stack.context()
        let ann = context.make("User", ["name": "Ann"])
        let bob = context.make("User", ["name": "Bob"])
        let first = context.make("Post", ["title": "First"])
        let second = context.make("Post", ["title": "Second"])
        ann.mutableSetValue(forKey: "posts").add(first)
        ann.mutableSetValue(forKey: "posts").add(second)
        #expect(first.toOne("author") === ann && second.toOne("author") === ann)
        bob.mutableSetValue(forKey: "posts").add(first)
        #expect(first.toOne("author") === bob)
        #expect(ann.relatedNames("posts", "title") == ["Second"])
        ann.mutableSetValue(forKey: "posts").remove(second)
        #expect(second.toOne("author") == nil)
        try context.save()

        let fresh = stack.context()
        let posts = try fresh.all("Post", sortedBy: "title")
        #expect(posts.map { $0.toOne("author")?.value(forKey: "name") as? String } == ["Bob", nil])
        #expect(try fresh.all("User", sortedBy: "name").map { $0.related("posts").count } == [0, 1])
    }

    @Test("setValue(_:forKey:) with a whole set updates the inverse of every object added and removed", arguments: TestStoreKind.allCases)
    func wholeSetAssignment(kind: TestStoreKind) throws {
        let stack = try GraphRulesModel.stack(kind)
        let context = stack.context()
        let ann = context.make("User", ["name": "Ann"])
        let posts = (1...3).map { context.make("Post", ["title": "P\($0)"]) }
        ann.setValue(NSSet(array: [posts[0], posts[1]]), forKey: "posts")
        #expect(posts.map { $0.toOne("author") === ann } == [true, true, false])
        ann.setValue(Set([posts[1], posts[2]]), forKey: "posts")
        #expect(posts.map { $0.toOne("author") === ann } == [false, true, true])
        try context.save()
        let fresh = stack.context()
        #expect(try fresh.all("Post", sortedBy: "title").map { $0.toOne("author") != nil } == [false, true, true])
    }

    @Test("many-to-many: adding and removing on one side shows on the other, and the join rows are stored", arguments: TestStoreKind.allCases)
    func manyToMany(kind: TestStoreKind) throws {
        let stack = try GraphRulesModel.stack(kind)
        let context = stack.context()
        let alice = context.make("Student", ["name": "Alice"])
        let bob = context.make("Student", ["name": "Bob"])
        let ios = context.make("Course", ["title": "iOS"])
        let swift = context.make("Course", ["title": "Swift"])
        alice.mutableSetValue(forKey: "courses").addObjects(from: [ios, swift])
        swift.mutableSetValue(forKey: "students").add(bob)
        #expect(ios.relatedNames("students") == ["Alice"])
        #expect(swift.relatedNames("students") == ["Alice", "Bob"])
        #expect(bob.relatedNames("courses", "title") == ["Swift"])
        try context.save()

        let fresh = stack.context()
        let students = try fresh.all("Student", sortedBy: "name")
        #expect(students.map { $0.relatedNames("courses", "title") } == [["Swift", "iOS"].sorted(), ["Swift"]])
        let courses = try fresh.all("Course", sortedBy: "title")
        courses[0].mutableSetValue(forKey: "students").remove(students[0])
        #expect(students[0].relatedNames("courses", "title") == ["iOS"])
        try fresh.save()
        let third = stack.context()
        #expect(try third.all("Course", sortedBy: "title").map { $0.relatedNames("students") } == [["Bob"], ["Alice"]])
    }

    @Test("one-to-one: setting either side clears the former partners on both sides", arguments: TestStoreKind.allCases)
    func oneToOne(kind: TestStoreKind) throws {
        let stack = try GraphRulesModel.stack(kind)
        let context = stack.context()
        let ann = context.make("Person", ["name": "Ann"])
        let bob = context.make("Person", ["name": "Bob"])
        let p1 = context.make("Passport", ["number": "P1"])
        let p2 = context.make("Passport", ["number": "P2"])
        ann.setValue(p1, forKey: "passport")
        #expect(p1.toOne("holder") === ann)
        bob.setValue(p1, forKey: "passport")
        #expect(p1.toOne("holder") === bob)
        #expect(ann.toOne("passport") == nil)
        p2.setValue(bob, forKey: "holder")
        #expect(bob.toOne("passport") === p2)
        #expect(p1.toOne("holder") == nil)
        p2.setValue(ann, forKey: "holder")
        #expect(bob.toOne("passport") == nil && ann.toOne("passport") === p2)
        try context.save()
        let fresh = stack.context()
        let people = try fresh.all("Person", sortedBy: "name")
        #expect(people.map { $0.toOne("passport")?.value(forKey: "number") as? String } == ["P2", nil])
        #expect(try fresh.all("Passport", sortedBy: "number").map { $0.toOne("holder")?.value(forKey: "name") as? String } == [nil, "Ann"])
    }

    @Test(
        "ordered: mutableOrderedSetValue(forKey:) keeps order and the inverse; moving a song takes it out of the old playlist",
        arguments: TestStoreKind.allCases)
    func ordered(kind: TestStoreKind) throws {
        let stack = try GraphRulesModel.stack(kind)
        let context = stack.context()
        let mix = context.make("Playlist", ["name": "Mix"])
        let chill = context.make("Playlist", ["name": "Chill"])
        let songs = ["A", "B", "C"].map { context.make("Song", ["title": $0]) }
        let list = mix.mutableOrderedSetValue(forKey: "songs")
        list.add(songs[0])
        list.add(songs[2])
        list.insert(songs[1], at: 1)
        #expect(mix.relatedNames("songs", "title") == ["A", "B", "C"])
        #expect(songs.allSatisfy { $0.toOne("playlist") === mix })
        songs[1].setValue(chill, forKey: "playlist")
        #expect(mix.relatedNames("songs", "title") == ["A", "C"])
        #expect(chill.relatedNames("songs", "title") == ["B"])
        mix.mutableOrderedSetValue(forKey: "songs").removeObject(at: 0)
        #expect(songs[0].toOne("playlist") == nil)
        try context.save()
        let fresh = stack.context()
        #expect(try fresh.all("Playlist", sortedBy: "name").map { $0.relatedNames("songs", "title") } == [["B"], ["C"]])
    }

    @Test(
        "generated-style accessors (managedAdd, managedRemove, managedInsert, managedReplace) update the inverse", arguments: TestStoreKind.allCases)
    func generatedStyleAccessors(kind: TestStoreKind) throws {
        let stack = try GraphRulesModel.stack(kind)
        let context = stack.context()
        let mix = context.make("Playlist", ["name": "Mix"])
        let other = context.make("Playlist", ["name": "Other"])
        let songs = ["A", "B", "C", "D"].map { context.make("Song", ["title": $0]) }
        mix.managedAdd(songs[0], toKey: "songs")
        mix.managedAdd(contentsOf: NSOrderedSet(array: [songs[2], songs[3]]), toKey: "songs")
        mix.managedInsert(songs[1], at: 1, intoKey: "songs")
        #expect(mix.relatedNames("songs", "title") == ["A", "B", "C", "D"])
        mix.managedReplace(at: 3, with: songs[0], inKey: "songs")
        #expect(mix.relatedNames("songs", "title") == ["B", "C", "A"])
        #expect(songs[3].toOne("playlist") == nil)
        mix.managedRemove(at: 0, fromKey: "songs")
        #expect(songs[1].toOne("playlist") == nil)
        other.managedAdd(contentsOf: [songs[0]], toKey: "songs")
        #expect(mix.relatedNames("songs", "title") == ["C"])
        #expect(songs[0].toOne("playlist") === other)
        other.managedInsert(contentsOf: [songs[1], songs[3]], at: NSIndexSet(indexesIn: NSRange(location: 0, length: 2)), intoKey: "songs")
        #expect(other.relatedNames("songs", "title") == ["B", "D", "A"])
        other.managedRemove(at: NSIndexSet(index: 1), fromKey: "songs")
        other.managedRemove(contentsOf: NSSet(array: [songs[0]]), fromKey: "songs")
        #expect(other.relatedNames("songs", "title") == ["B"])
        #expect(songs[3].toOne("playlist") == nil && songs[0].toOne("playlist") == nil)
        try context.save()
        let fresh = stack.context()
        #expect(try fresh.all("Playlist", sortedBy: "name").map { $0.relatedNames("songs", "title") } == [["C"], ["B"]])
    }

    @Test("relationships without an inverse are stored and read back", arguments: TestStoreKind.allCases)
    func noInverse(kind: TestStoreKind) throws {
        let stack = try GraphRulesModel.stack(kind)
        let context = stack.context()
        let memo = context.make("Memo", ["text": "note"])
        let red = context.make("Label", ["name": "red"])
        let blue = context.make("Label", ["name": "blue"])
        memo.setValue(red, forKey: "label")
        memo.mutableSetValue(forKey: "labels").addObjects(from: [red, blue])
        try context.save()
        let fresh = stack.context()
        let stored = try #require(try fresh.all("Memo").first)
        #expect(stored.toOne("label")?.value(forKey: "name") as? String == "red")
        #expect(stored.relatedNames("labels") == ["blue", "red"])
        stored.mutableSetValue(forKey: "labels").remove(try #require(stored.toOne("label")))
        try fresh.save()
        let reader = stack.context()
        #expect(try reader.all("Memo").first?.relatedNames("labels") == ["blue"])
    }

    @Test("primitive setters leave the inverse alone, as on Apple platforms")
    func primitiveSetterDoesNotMaintainInverse() throws {
        let stack = try GraphRulesModel.stack(.inMemory)
        let context = stack.context()
        let ann = context.make("User", ["name": "Ann"])
        let post = context.make("Post", ["title": "Hello"])
        post.setPrimitiveValue(ann, forKey: "author")
        #expect(ann.related("posts").isEmpty)
    }

    @Test("relating objects of two contexts stops the program with Core Data's message", .tags(.exitTest))
    func differentContextsTrap() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let stack = try GraphRulesModel.stack(.inMemory)
            let first = stack.context()
            let second = stack.context()
            let user = first.make("User", ["name": "Ann"])
            let post = second.make("Post", ["title": "Hello"])
            post.setValue(user, forKey: "author")
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("Illegal attempt to establish a relationship 'author' between objects in different contexts"))
    }

    @Test("adding an object of another context to a to-many stops the program", .tags(.exitTest))
    func differentContextsToManyTrap() async {
        await #expect(processExitsWith: .failure) {
            let stack = try GraphRulesModel.stack(.inMemory)
            let first = stack.context()
            let second = stack.context()
            let user = first.make("User", ["name": "Ann"])
            let post = second.make("Post", ["title": "Hello"])
            user.mutableSetValue(forKey: "posts").add(post)
        }
    }

    @Test("a to-one set to an object of the wrong entity stops the program naming the desired entity", .tags(.exitTest))
    func wrongEntityTrap() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let stack = try GraphRulesModel.stack(.inMemory)
            let context = stack.context()
            let post = context.make("Post", ["title": "Hello"])
            let course = context.make("Course", ["title": "iOS"])
            post.setValue(course, forKey: "author")
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("Unacceptable type of value"))
        #expect(message.contains("desired type = User"))
    }

    @Test("@Managed NSOrderedSet and to-one properties maintain the inverse", arguments: TestStoreKind.allCases)
    func managedProperties(kind: TestStoreKind) throws {
        let model = GraphRulesModel.make()
        model.entitiesByName["Playlist"]?.managedObjectClassName = String(reflecting: InversePlaylist.self)
        model.entitiesByName["Song"]?.managedObjectClassName = String(reflecting: InverseSong.self)
        let stack = try GraphStack(kind, model: model, fileName: "Rules.sqlite")
        let context = stack.context()
        let mix = InversePlaylist(context: context)
        mix.name = "Mix"
        let songs = ["A", "B"].map { title in
            let song = InverseSong(context: context)
            song.title = title
            return song
        }
        mix.songs = NSOrderedSet(array: [songs[1], songs[0]])
        #expect(songs.allSatisfy { $0.playlist === mix })
        let other = InversePlaylist(context: context)
        other.name = "Other"
        songs[0].playlist = other
        #expect(mix.songs.array.map { ($0 as? InverseSong)?.title } == ["B"])
        #expect(other.songs.count == 1)
        try context.save()
        let reader = stack.context()
        let stored = try reader.fetch(NSFetchRequest<InversePlaylist>(entityName: "Playlist"))
        #expect(stored.map { "\($0.name ?? ""):\($0.songs.count)" }.sorted() == ["Mix:1", "Other:1"])
    }
}
