import GRDB
import OpenCoreData
import Testing

/// Photo(name, image: binary data allowing external storage, thumbnail: plain binary data).
enum PhotoModel {
    static func make() -> NSManagedObjectModel {
        let image = ModelKit.attribute("image", .binaryDataAttributeType)
        image.allowsExternalBinaryDataStorage = true
        let photo = ModelKit.entity(
            "Photo",
            [
                ModelKit.attribute("name", .stringAttributeType, optional: false), image,
                ModelKit.attribute("thumbnail", .binaryDataAttributeType),
            ])
        photo.managedObjectClassName = "NSManagedObject"
        let model = NSManagedObjectModel()
        model.entities = [photo]
        return model
    }

    /// `count` bytes of a repeating pattern that starts with `seed`.
    static func bytes(_ count: Int, seed: UInt8) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &+ Int(seed)) })
    }
}

@Suite("External binary storage: large values in files beside the store")
struct ExternalBinaryStorageTests {
    let big = PhotoModel.bytes(300 * 1024, seed: 7)
    let small = PhotoModel.bytes(1000, seed: 3)

    func externalFolder(_ stack: GraphStack) -> URL {
        stack.directory.url.appendingPathComponent(".Photos_SUPPORT/_EXTERNAL_DATA", isDirectory: true)
    }

    func files(_ stack: GraphStack) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: externalFolder(stack).path)) ?? []).sorted()
    }

    func column(_ stack: GraphStack, _ name: String) throws -> Data? {
        let rows = try StoreKit.rows(stack.storeURL, "SELECT ZIMAGE FROM ZPHOTO WHERE ZNAME = ?", [name])
        return rows.first?["ZIMAGE"] as Data?
    }

    func image(_ stack: GraphStack, _ name: String) throws -> Data? {
        let context = stack.context(try stack.secondCoordinator())
        let photo = try context.all("Photo", predicate: NSPredicate(format: "name == %@", name)).first
        return photo?.value(forKey: "image") as? Data
    }

    @Test("a large value goes to a file named by the UUID after tag 0x02; a small one stays inline after tag 0x01")
    func layout() throws {
        let stack = try GraphStack(model: PhotoModel.make(), fileName: "Photos.sqlite")
        let context = stack.context()
        context.make("Photo", ["name": "big", "image": big, "thumbnail": small])
        context.make("Photo", ["name": "small", "image": small])
        try context.save()

        let stored = try #require(try column(stack, "big"))
        #expect(stored.first == 0x02)
        let reference = String(decoding: stored.dropFirst(), as: UTF8.self)
        #expect(UUID(uuidString: reference) != nil)
        #expect(files(stack) == [reference])
        #expect(FileManager.default.contents(atPath: externalFolder(stack).appendingPathComponent(reference).path) == big)
        let inline = try #require(try column(stack, "small"))
        #expect(inline.first == 0x01 && inline.dropFirst() == small)
        let plain = try StoreKit.rows(stack.storeURL, "SELECT ZTHUMBNAIL FROM ZPHOTO WHERE ZNAME = 'big'").first?["ZTHUMBNAIL"] as Data?
        #expect(plain == small, "an attribute without external storage has no tag byte")

        #expect(try image(stack, "big") == big)
        #expect(try image(stack, "small") == small)
    }

    @Test("replacing or deleting a value removes its file once the save commits")
    func removedWithRow() throws {
        let stack = try GraphStack(model: PhotoModel.make(), fileName: "Photos.sqlite")
        let context = stack.context()
        let photo = context.make("Photo", ["name": "p", "image": big])
        try context.save()
        let first = files(stack)
        #expect(first.count == 1)
        let other = PhotoModel.bytes(200 * 1024, seed: 99)
        photo.setValue(other, forKey: "image")
        try context.save()
        let second = files(stack)
        #expect(second.count == 1 && second != first)
        #expect(try image(stack, "p") == other)
        photo.setValue(small, forKey: "image")
        try context.save()
        #expect(files(stack).isEmpty)
        photo.setValue(big, forKey: "image")
        try context.save()
        #expect(files(stack).count == 1)
        context.delete(photo)
        try context.save()
        #expect(files(stack).isEmpty)
        #expect(try StoreKit.rows(stack.storeURL, "SELECT * FROM ZPHOTO").isEmpty)
    }

    @Test("a failed save leaves the store and the folder as they were")
    func failedSave() throws {
        let stack = try GraphStack(model: PhotoModel.make(), fileName: "Photos.sqlite")
        let context = stack.context()
        let photo = context.make("Photo", ["name": "kept", "image": big])
        try context.save()
        let before = files(stack)

        photo.setValue(PhotoModel.bytes(400 * 1024, seed: 1), forKey: "image")
        context.make("Photo", ["image": PhotoModel.bytes(500 * 1024, seed: 2)])  // no name: validation fails
        #expect(throws: NSError.self) { try context.save() }
        #expect(files(stack) == before)

        // A store-level failure after the new file was written: a trigger rejects the update, which
        // the store writes after the insert.
        context.rollback()
        let queue = try DatabaseQueue(path: stack.storeURL.path)
        try queue.write {
            try $0.execute(sql: "CREATE TRIGGER reject BEFORE UPDATE ON ZPHOTO WHEN NEW.ZNAME = 'boom' BEGIN SELECT RAISE(ABORT, 'rejected'); END")
        }
        try queue.close()
        context.make("Photo", ["name": "new", "image": PhotoModel.bytes(450 * 1024, seed: 5)])
        photo.setValue("boom", forKey: "name")
        #expect(throws: NSError.self) { try context.save() }
        #expect(files(stack) == before)
        #expect(try image(stack, "kept") == big)
        #expect(try image(stack, "new") == nil)
    }

    @Test("a missing external file fails the read with an error naming the store")
    func missingFile() throws {
        let stack = try GraphStack(model: PhotoModel.make(), fileName: "Photos.sqlite")
        let context = stack.context()
        context.make("Photo", ["name": "gone", "image": big])
        try context.save()
        for name in files(stack) {
            try FileManager.default.removeItem(at: externalFolder(stack).appendingPathComponent(name))
        }
        let reader = stack.context(try stack.secondCoordinator())
        let error = try #require(throws: NSError.self) { try reader.all("Photo") }
        #expect(error.domain == NSCocoaErrorDomain)
        #expect(error.localizedDescription.contains("Photos.sqlite"))
        #expect(error.localizedDescription.contains("_EXTERNAL_DATA"))
    }

    @Test("in-memory stores keep large values in memory", arguments: [TestStoreKind.inMemory])
    func inMemory(_ kind: TestStoreKind) throws {
        let stack = try GraphStack(kind, model: PhotoModel.make(), fileName: "Photos.sqlite")
        let context = stack.context()
        context.make("Photo", ["name": "m", "image": big])
        try context.save()
        let reader = stack.context()
        let photo = try #require(try reader.all("Photo").first)
        #expect(photo.value(forKey: "image") as? Data == big)
        #expect(files(stack).isEmpty)
    }
}
