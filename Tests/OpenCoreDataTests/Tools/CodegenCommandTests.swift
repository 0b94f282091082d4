import Foundation
import Testing

@testable import OpenCoreDataCore

/// `ocd codegen`: the Swift classes Xcode's "Manual/None" generation writes, in OpenCoreData's dialect,
/// compiled against OpenCoreData for every fixture model.
@Suite("ocd codegen")
struct CodegenCommandTests {
    /// The folder SwiftPM builds into (`.build/debug`), beside the test bundle.
    static func buildFolder() throws -> URL {
        try QueryCommandTests.executable().deletingLastPathComponent()
    }

    /// Type-checks `files` as one module against the OpenCoreData SwiftPM built, with the `@Managed`
    /// macro; returns the compiler's exit status and messages.
    static func typecheck(_ files: [URL]) throws -> (status: Int32, output: String) {
        let build = try buildFolder()
        let grdbMap = Fixtures.packageRoot.appendingPathComponent(".build/checkouts/GRDB.swift/Sources/GRDBSQLite/module.modulemap")
        let arguments =
            [
                "swiftc", "-typecheck", "-module-name", "Generated",
                "-I", build.appendingPathComponent("Modules").path,
                "-Xcc", "-fmodule-map-file=" + build.appendingPathComponent("COpenCoreDataRuntime.build/module.modulemap").path,
                "-Xcc", "-fmodule-map-file=" + grdbMap.path,
                "-load-plugin-executable", build.appendingPathComponent("OpenCoreDataMacros-tool").path + "#OpenCoreDataMacros",
            ]
            + files.map(\.path)
        let result = try StoreProcesses.run(URL(fileURLWithPath: "/usr/bin/env"), arguments)
        return (result.status, result.output + result.error)
    }

    /// Stand-ins for the app classes transformable attributes name (`UIColor`, an app's `Color`), which
    /// generated code refers to.
    static func stubs(for model: NSManagedObjectModel, in directory: URL) throws -> URL {
        let known: Set<String> = [
            "NSObject", "NSArray", "NSDictionary", "NSSet", "NSOrderedSet", "NSString", "NSNumber", "NSData",
            "NSDate", "NSURL", "NSUUID", "NSValue", "NSNull", "NSDecimalNumber", "NSAttributedString",
            "NSMutableArray", "NSMutableDictionary", "NSMutableSet", "NSMutableString", "NSMutableData",
        ]
        var names = Set<String>()
        for entity in model.entities {
            for case let attribute as NSAttributeDescription in entity.properties where attribute.attributeType == .transformableAttributeType {
                let name = ManagedObjectCodeGenerator.typeName(attribute._attributeValueClassName ?? "")
                if !name.isEmpty, !known.contains(name), name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) { names.insert(name) }
            }
        }
        let url = directory.appendingPathComponent("AppClassStubs.swift")
        let text = "import OpenCoreData\n" + names.sorted().map { "public final class \($0): NSObject {}\n" }.joined()
        try Data(text.utf8).write(to: url)
        return url
    }

    @Test("generated classes for every fixture model compile against OpenCoreData", .tags(.slow))
    func everyFixtureCompiles() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var compiled = 0
        for path in try ModelFixtureTests.allModelPaths() where !path.path.contains("Recipes") {
            let model = try NSManagedObjectModel.load(from: path)
            let folder = directory.appendingPathComponent(path.deletingPathExtension().lastPathComponent)
            let files = try model.writeManagedObjectClasses(into: folder)
            #expect(files.count == 2 * model.entities.count)
            let result = try Self.typecheck(files + [try Self.stubs(for: model, in: folder)])
            #expect(result.status == 0, "\(path.lastPathComponent):\n\(result.output.prefix(3000))")
            compiled += 1
        }
        #expect(compiled == 49)
    }

    @Test("ocd codegen writes Xcode's two files per entity: the class, the properties with scalar and optional types and the accessors")
    func writesXcodeFiles() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bundle = Fixtures.stores.appendingPathComponent("duckduckgo__BrowserServicesKit__Bookmarks_V5/BookmarksModel.xcdatamodeld")
        let result = try StoreProcesses.ocd(["codegen", bundle.path, "-o", directory.path])
        #expect(result.status == 0, "\(result.error)")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(names == ["BookmarkEntity+CoreDataClass.swift", "BookmarkEntity+CoreDataProperties.swift"])
        let classFile = try String(contentsOf: directory.appendingPathComponent(names[0]), encoding: .utf8)
        #expect(classFile.contains("public class BookmarkEntity: NSManagedObject {"))
        let properties = try String(contentsOf: directory.appendingPathComponent(names[1]), encoding: .utf8)
        for line in [
            "@nonobjc public class func fetchRequest() -> NSFetchRequest<BookmarkEntity> {",
            "@Managed public var isFolder: Bool", "@Managed public var uuid: String?", "@Managed public var modifiedAt: Date?",
            "@Managed public var parent: BookmarkEntity?", "@Managed public var children: NSOrderedSet?",
            "@Managed public var favoriteFolders: NSSet?",
            "public func insertIntoChildren(_ value: BookmarkEntity, at idx: Int) { managedInsert(value, at: idx, intoKey: \"children\") }",
            "public func addToFavoriteFolders(_ values: NSSet) { managedAdd(contentsOf: values, toKey: \"favoriteFolders\") }",
            "extension BookmarkEntity : Identifiable {",
        ] {
            #expect(properties.contains(line), "\(line)")
        }
        let sample = try NSManagedObjectModel.load(from: CompiledFixtures.sampleSource)
        let generator = ManagedObjectCodeGenerator(model: sample)
        let files = Dictionary(uniqueKeysWithValues: generator.files().map { ($0.name, $0.contents) })
        #expect(files["SportCar+CoreDataClass.swift"]?.contains("public class SportCar: Car {") == true)
        let car = try #require(files["Car+CoreDataProperties.swift"])
        #expect(car.contains("@Managed public var color: Color?"))
        #expect(car.contains("@Managed public var currentDrivingSpeed: Int64"))
        #expect(car.contains("@Managed public var owner: Person?"))
    }

    @Test("code using the generated properties, fetch request and ordered accessors as with Xcode's compiles")
    func generatedClassesRun() throws {
        // The code the generator writes for the demo's kind of model, compiled into this test target.
        let model = try ModelFileKit.load(
            """
            <entity name="Shelf" representedClassName="GeneratedShelf" syncable="YES">
                <attribute name="name" optional="YES" attributeType="String"/>
                <attribute name="rank" attributeType="Integer 32" defaultValueString="0" usesScalarValueType="YES"/>
                <relationship name="books" optional="YES" toMany="YES" deletionRule="Cascade" ordered="YES" destinationEntity="Volume" inverseName="shelf" inverseEntity="Volume"/>
            </entity>
            <entity name="Volume" representedClassName="GeneratedVolume" syncable="YES">
                <attribute name="title" optional="YES" attributeType="String"/>
                <relationship name="shelf" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Shelf" inverseName="books" inverseEntity="Shelf"/>
            </entity>
            """)
        let files = ManagedObjectCodeGenerator(model: model).files().map(\.contents).joined()
        #expect(files.contains("@Managed public var rank: Int32"))
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let written = try model.writeManagedObjectClasses(into: directory)
        let main = directory.appendingPathComponent("Use.swift")
        try Data(
            """
            import OpenCoreData
            func use(_ context: NSManagedObjectContext) {
                let shelf = GeneratedShelf(context: context)
                shelf.name = "Poetry"
                shelf.rank = 3
                let volume = GeneratedVolume(context: context)
                volume.title = "Odes"
                shelf.addToBooks(volume)
                shelf.insertIntoBooks(GeneratedVolume(context: context), at: 0)
                // As with Xcode's classes, the typed request is chosen by the type it is given.
                let request: NSFetchRequest<GeneratedShelf> = GeneratedShelf.fetchRequest()
                _ = request
            }
            """.utf8
        ).write(to: main)
        let result = try Self.typecheck(written + [main])
        #expect(result.status == 0, "\(result.output)")
    }
}
