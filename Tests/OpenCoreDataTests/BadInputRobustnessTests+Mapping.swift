import OpenCoreData
import Testing

/// Damaged mapping model files: a real Xcode `.xcmappingmodel` with garbled values, references and bytes.
extension BadInputRobustnessTests {
    /// The ranges of the element texts of `<attribute …>TEXT</attribute>` in a mapping file.
    static func elementTexts(in text: String) -> [Range<String.Index>] {
        var result: [Range<String.Index>] = []
        var index = text.startIndex
        while let close = text[index...].range(of: "</attribute>") {
            if let open = text[index..<close.lowerBound].range(of: ">", options: .backwards) {
                result.append(open.upperBound..<close.lowerBound)
            }
            index = close.upperBound
        }
        return result
    }

    @Test("a real mapping file with garbled values, references or bytes loads and migrates, or fails with a Cocoa error")
    func damagedMappingFile() throws {
        let notes = MappingModelFileTests.notes
        let original = try String(contentsOf: notes.appendingPathComponent("MappingModel.xcmappingmodel/xcmapping.xml"), encoding: .utf8)
        let v1 = try NSManagedObjectModel.load(from: notes.appendingPathComponent("CoreDataNotes.xcdatamodeld/CoreDataNotes.xcdatamodel"))
        let v2 = try NSManagedObjectModel.load(from: notes.appendingPathComponent("CoreDataNotes.xcdatamodeld/CoreDataNotes 2.xcdatamodel"))
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = directory.appendingPathComponent("Notes.sqlite")
        try MigrationKit.makeStore(v1, at: source) { context in
            for title in ["groceries", "recipes"] {
                let note = NSEntityDescription.insertNewObject(forEntityName: "Note", into: context)
                note.setValue(title, forKey: "title")
                note.setValue(Date(timeIntervalSinceReferenceDate: 0), forKey: "creationDate")
            }
        }
        let sourceBytes = Kit.storeBytes(source)

        var generator = Kit.Generator(state: 0x3A9)
        var texts: [String] = []
        let values = ["", "garbage", "-1", "99999999999999999999", "$source.nothing", "FUNCTION(", "z999 z1"]
        for range in Self.elementTexts(in: original) + Kit.xmlAttributes(in: original).map(\.value) {
            for _ in 0..<2 {
                var changed = original
                changed.replaceSubrange(range, with: values[Int.random(in: 0..<values.count, using: &generator)])
                texts.append(changed)
            }
        }
        let bytes = Array(original.utf8)
        for round in 0..<16 {
            var damaged = bytes
            for _ in 0..<Int.random(in: 1...8, using: &generator) {
                damaged[Int.random(in: 0..<damaged.count, using: &generator)] = UInt8.random(in: 0x20...0x7E, using: &generator)
            }
            if round % 4 == 3 { damaged = Array(damaged.prefix(Int.random(in: 0..<damaged.count, using: &generator))) }
            texts.append(String(decoding: damaged, as: UTF8.self))
        }

        var loaded = 0, refused = 0, migrated = 0
        for (index, text) in texts.enumerated() {
            let file = directory.appendingPathComponent("M\(index).xcmappingmodel")
            try FileManager.default.createDirectory(at: file, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file.appendingPathComponent("xcmapping.xml"))
            let mapping: NSMappingModel
            do {
                mapping = try NSMappingModel.load(contentsOf: file)
            } catch {
                Kit.expectCocoaError(error, "M\(index)")
                #expect((error as NSError).localizedDescription.contains("M\(index).xcmappingmodel"))
                refused += 1
                continue
            }
            loaded += 1
            guard index % 5 == 0 else { continue }
            do {
                try NSMigrationManager(sourceModel: v1, destinationModel: v2)
                    .migrateStore(
                        from: source, type: .sqlite, mapping: mapping,
                        to: directory.appendingPathComponent("Out\(index).sqlite"), type: .sqlite)
                migrated += 1
            } catch {
                let error = error as NSError
                #expect(error.domain == NSCocoaErrorDomain, "M\(index): \(error)")
            }
            #expect(Kit.storeBytes(source) == sourceBytes, "M\(index): the source store must not change")
        }
        #expect(loaded > 0 && refused > 0 && migrated > 0)
    }
}
