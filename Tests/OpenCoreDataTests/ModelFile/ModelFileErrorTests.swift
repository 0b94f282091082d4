import OpenCoreData
import Testing

/// Bad model files give `nil` from `NSManagedObjectModel(contentsOf:)` and a descriptive `NSError` from
/// `NSManagedObjectModel.load(from:)`: Cocoa domain, Core Data's code, a message naming the file, the
/// line, the entity and the property where they are known.
@Suite("Model file errors")
struct ModelFileErrorTests {
    /// Checks the common shape of a content error and returns its message.
    @discardableResult
    func expectContentError(_ error: NSError, mentions parts: [String], line: Int? = nil) -> String {
        #expect(error.domain == NSCocoaErrorDomain)
        #expect(error.code == NSCoreDataError)
        #expect(error.code == 134060)
        let message = error.localizedDescription
        for part in parts {
            #expect(message.contains(part), "message \"\(message)\" should mention \(part)")
        }
        #expect(error.userInfo[NSFilePathErrorKey] is String)
        if let line {
            #expect(message.contains("contents:\(line):"), "message \"\(message)\" should name line \(line)")
        }
        return message
    }

    @Test("malformed XML names the file and the line")
    func malformedXML() throws {
        let error = try ModelFileKit.loadError(
            """
            <entity name="A">
                <attribute name="x" attributeType="String"
            </entity>
            """)
        expectContentError(error, mentions: ["contents", "malformed XML"])
        #expect(error.userInfo["OCDModelFileLine"] as? Int != nil)
    }

    @Test("a truncated file is reported as such")
    func truncatedXML() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let full = ModelFileKit.contents(#"<entity name="A"><attribute name="x" optional="YES" attributeType="String"/></entity>"#)
        let cut = String(full.prefix(full.count - 30))
        let folder = try ModelFileKit.writeVersion(cut, in: directory)
        let error = try ModelFileKit.loadError(at: folder)
        expectContentError(error, mentions: [folder.appendingPathComponent("contents").path])
    }

    @Test("a real model file cut in half fails cleanly")
    func realFileCutInHalf() throws {
        let source = ModelFileKit.fixture("3lvis__Sync__Model.xcdatamodeld").appendingPathComponent("Model.xcdatamodel/contents")
        let data = try Data(contentsOf: source)
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for fraction in [0.1, 0.5, 0.9] {
            let cut = data.prefix(Int(Double(data.count) * fraction))
            let folder = try ModelFileKit.writeVersion(String(decoding: cut, as: UTF8.self), named: "Cut\(fraction)", in: directory)
            let error = try ModelFileKit.loadError(at: folder)
            expectContentError(error, mentions: ["Cut\(fraction).xcdatamodel/contents"])
        }
    }

    @Test("an empty contents file is an error")
    func emptyContents() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let folder = try ModelFileKit.writeVersion("", in: directory)
        expectContentError(try ModelFileKit.loadError(at: folder), mentions: ["empty"])
    }

    @Test("XML that is not a Core Data model is an error")
    func notAModel() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let folder = try ModelFileKit.writeVersion(#"<?xml version="1.0"?><plist version="1.0"><dict/></plist>"#, in: directory)
        expectContentError(try ModelFileKit.loadError(at: folder), mentions: ["<plist>", "expected <model>"])
    }

    @Test("an unknown attribute type names the type, entity, property and line")
    func unknownAttributeType() throws {
        let error = try ModelFileKit.loadError(
            """
            <entity name="Person">
                <attribute name="age" optional="YES" attributeType="Integer 128"/>
            </entity>
            """)
        expectContentError(error, mentions: ["Integer 128", "entity 'Person'", "property 'age'", "unknown attributeType"], line: 4)
    }

    @Test("a relationship to a missing entity names the relationship and the missing entity")
    func missingDestination() throws {
        let error = try ModelFileKit.loadError(
            """
            <entity name="Post">
                <relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Author"/>
            </entity>
            """)
        expectContentError(error, mentions: ["entity 'Post'", "property 'author'", "'Author'"], line: 4)
    }

    @Test("an inverse that does not exist is an error")
    func missingInverse() throws {
        let error = try ModelFileKit.loadError(
            """
            <entity name="Post">
                <relationship name="author" optional="YES" maxCount="1" destinationEntity="Author" inverseName="writings" inverseEntity="Author"/>
            </entity>
            <entity name="Author"/>
            """)
        expectContentError(error, mentions: ["entity 'Post'", "property 'author'", "'writings'"])
    }

    @Test("a parent entity that does not exist is an error")
    func missingParent() throws {
        let error = try ModelFileKit.loadError(#"<entity name="Car" parentEntity="Vehicle"/>"#)
        expectContentError(error, mentions: ["entity 'Car'", "'Vehicle'"], line: 3)
    }

    @Test("a cycle of parent entities is an error, not a hang")
    func parentCycle() throws {
        let error = try ModelFileKit.loadError(
            """
            <entity name="A" parentEntity="B"/>
            <entity name="B" parentEntity="A"/>
            """)
        expectContentError(error, mentions: ["cycle"])
    }

    @Test("duplicate entity and property names are errors")
    func duplicates() throws {
        let entities = try ModelFileKit.loadError(#"<entity name="A"/><entity name="A"/>"#)
        expectContentError(entities, mentions: ["duplicate entity name", "entity 'A'"])
        let properties = try ModelFileKit.loadError(
            """
            <entity name="A">
                <attribute name="x" optional="YES" attributeType="String"/>
                <attribute name="x" optional="YES" attributeType="Date"/>
            </entity>
            """)
        expectContentError(properties, mentions: ["duplicate property name", "property 'x'"], line: 5)
    }

    @Test("a default value that does not fit the type is an error")
    func badDefaultValue() throws {
        let error = try ModelFileKit.loadError(
            """
            <entity name="A">
                <attribute name="count" attributeType="Integer 16" defaultValueString="70000"/>
            </entity>
            """)
        expectContentError(error, mentions: ["property 'count'", "70000", "16-bit"])
        let text = try ModelFileKit.loadError(
            """
            <entity name="A">
                <attribute name="flag" attributeType="Boolean" defaultValueString="maybe"/>
            </entity>
            """)
        expectContentError(text, mentions: ["property 'flag'", "maybe"])
    }

    @Test("an unknown delete rule is an error")
    func unknownDeleteRule() throws {
        let error = try ModelFileKit.loadError(
            """
            <entity name="A">
                <relationship name="b" optional="YES" maxCount="1" deletionRule="Explode" destinationEntity="A"/>
            </entity>
            """)
        expectContentError(error, mentions: ["Explode", "property 'b'"])
    }

    @Test("a composite attribute naming no defined composite is an error")
    func missingComposite() throws {
        let error = try ModelFileKit.loadError(
            """
            <entity name="A"><attribute name="where" optional="YES" attributeType="Composite" composite="Location"/></entity>
            """)
        expectContentError(error, mentions: ["'Location'", "property 'where'"])
    }

    @Test("a fetch index or uniqueness constraint naming a missing property is an error")
    func indexOnMissingProperty() throws {
        let index = try ModelFileKit.loadError(
            """
            <entity name="A">
                <fetchIndex name="byX"><fetchIndexElement property="x" type="Binary" order="ascending"/></fetchIndex>
            </entity>
            """)
        expectContentError(index, mentions: ["byX", "'x'"])
        let constraint = try ModelFileKit.loadError(
            """
            <entity name="A">
                <uniquenessConstraints><uniquenessConstraint><constraint value="y"/></uniquenessConstraint></uniquenessConstraints>
            </entity>
            """)
        expectContentError(constraint, mentions: ["uniqueness constraint", "'y'"])
    }

    @Test("a fetch request template on a missing entity is an error")
    func templateOnMissingEntity() throws {
        let error = try ModelFileKit.loadError(#"<entity name="A"/><fetchRequest name="All" entity="Nope"/>"#)
        expectContentError(error, mentions: ["'Nope'", "'All'"])
    }

    @Test("a malformed predicate in a template is an error naming the template")
    func malformedTemplatePredicate() throws {
        let error = try ModelFileKit.loadError(
            """
            <entity name="A"><attribute name="x" optional="YES" attributeType="String"/></entity>
            <fetchRequest name="Broken" entity="A" predicateString="x == == 3"/>
            """)
        expectContentError(error, mentions: ["'Broken'", "x == == 3"])
    }

    /// A small deterministic generator (SplitMix64), so damaged files are the same on every run.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test("randomly damaged real model files either load or throw; they never crash")
    func damagedFilesNeverCrash() throws {
        let source = ModelFileKit.fixture("SwiftGen__SwiftGen__Model.xcdatamodeld").appendingPathComponent("Model 2.xcdatamodel/contents")
        let original = Array(try Data(contentsOf: source))
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var generator = SplitMix(state: 2026)
        let alphabet = Array("<>/=\" YESNO0123456789-.$@(){}&;abcxyz".utf8)
        var thrown = 0
        for round in 0..<150 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...6, using: &generator) {
                let position = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes[position] = alphabet.randomElement(using: &generator) ?? 0x20
                case 1: bytes.remove(at: position)
                default: bytes.insert(alphabet.randomElement(using: &generator) ?? 0x20, at: position)
                }
            }
            let folder = try ModelFileKit.writeVersion(String(decoding: bytes, as: UTF8.self), named: "Damaged\(round)", in: directory)
            do {
                _ = try NSManagedObjectModel.load(from: folder)
            } catch {
                let error = error as NSError
                #expect(error.domain == NSCocoaErrorDomain && error.code == NSCoreDataError)
                #expect(error.localizedDescription.contains("Damaged\(round).xcdatamodel/contents"))
                thrown += 1
            }
        }
        #expect(thrown > 0)
    }

    @Test("a missing contents file is an error naming the folder")
    func missingContents() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let folder = directory.appendingPathComponent("Empty.xcdatamodel")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        expectContentError(try ModelFileKit.loadError(at: folder), mentions: ["Empty.xcdatamodel", "missing 'contents'"])
    }

    @Test("a path that does not exist gives Foundation's no-such-file error")
    func nonexistentPath() throws {
        let url = Fixtures.models.appendingPathComponent("NoSuchModel.xcdatamodeld")
        let error = try ModelFileKit.loadError(at: url)
        #expect(error.domain == NSCocoaErrorDomain)
        #expect(error.code == NSFileReadNoSuchFileError)
        #expect(error.localizedDescription.contains("NoSuchModel.xcdatamodeld"))
        #expect(error.userInfo[NSFilePathErrorKey] as? String == url.path)
    }

    @Test("an Xcode 3 binary version alone gives the binary-format error; its bundle still loads")
    func xcode3BinaryVersion() throws {
        let bundle = ModelFileKit.fixture("Automattic__simplenote-ios__Simplenote.xcdatamodeld")
        let binary = bundle.appendingPathComponent("Simplenote.xcdatamodel")
        expectContentError(
            try ModelFileKit.loadError(at: binary),
            mentions: ["Xcode 3 binary model format is not supported", "Simplenote.xcdatamodel"])
        #expect(NSManagedObjectModel(contentsOf: bundle) != nil)
    }

    @Test("the Recipes bundle, binary in every version, gives the binary-format error")
    func binaryOnlyBundle() throws {
        let bundle = Fixtures.stores.appendingPathComponent("magicalpanda__MagicalRecord__Recipes/Recipes.xcdatamodeld")
        expectContentError(try ModelFileKit.loadError(at: bundle), mentions: ["Xcode 3 binary model format is not supported"])
    }

    /// Writes a bundle with one version and the given `.xccurrentversion` bytes; returns the bundle.
    func bundle(marker: String, in directory: URL) throws -> URL {
        let bundle = directory.appendingPathComponent("M.xcdatamodeld")
        try ModelFileKit.writeVersion(ModelFileKit.contents(#"<entity name="A"/>"#), named: "M", in: bundle)
        try Data(marker.utf8).write(to: bundle.appendingPathComponent(".xccurrentversion"))
        return bundle
    }

    @Test(
        "an empty, garbage or dangling .xccurrentversion is an error naming the file",
        arguments: [
            "", "this is not a property list", "<plist version=\"1.0\"><array/></plist>",
            "<plist version=\"1.0\"><dict><key>_XCCurrentVersionName</key><string>Missing.xcdatamodel</string></dict></plist>",
            "<plist version=\"1.0\"><dict><key>_XCCurrentVersionName</key><integer>3</integer></dict></plist>",
        ])
    func badCurrentVersionFile(_ marker: String) throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = try bundle(marker: marker, in: directory)
        expectContentError(try ModelFileKit.loadError(at: url), mentions: [".xccurrentversion"])
        #expect(throws: NSError.self) { try NSManagedObjectModel.versions(inBundleAt: url) }
    }

    @Test("a binary .xccurrentversion holding a set is an error naming the file and the set, not a crash")
    func currentVersionFileWithSet() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = try bundle(marker: "", in: directory)
        try PropertyListKit.setInDictionary.write(to: url.appendingPathComponent(".xccurrentversion"))
        expectContentError(try ModelFileKit.loadError(at: url), mentions: [".xccurrentversion", "holds a set (the object at byte 13)"])
        // The same file with an array in the set's place is read (and names no version).
        try PropertyListKit.arrayInDictionary.write(to: url.appendingPathComponent(".xccurrentversion"))
        #expect(throws: Never.self) { try NSManagedObjectModel.versions(inBundleAt: url) }
    }

    @Test("a damaged compiled .momd or .mom is refused with an explanation")
    func compiledModel() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let momd = directory.appendingPathComponent("Model.momd")
        try FileManager.default.createDirectory(at: momd, withIntermediateDirectories: true)
        let mom = momd.appendingPathComponent("Model.mom")
        try Data([0x62, 0x70, 0x6C, 0x69, 0x73, 0x74]).write(to: mom)
        expectContentError(try ModelFileKit.loadError(at: momd), mentions: ["not a compiled Core Data model", "Model.momd/Model.mom"])
        expectContentError(try ModelFileKit.loadError(at: mom), mentions: ["not a compiled Core Data model", "Model.mom"])
    }

    @Test("a bundle without any version folder is an error")
    func bundleWithoutVersions() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bundle = directory.appendingPathComponent("Nothing.xcdatamodeld")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        expectContentError(try ModelFileKit.loadError(at: bundle), mentions: ["Nothing.xcdatamodeld", "no .xcdatamodel"])
    }

    // MARK: Hostile files

    /// Writes raw bytes as a version's `contents` and returns the error loading it gives.
    func errorLoading(bytes: Data, named name: String = "Hostile") throws -> NSError {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let folder = directory.appendingPathComponent(name + ".xcdatamodel", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try bytes.write(to: folder.appendingPathComponent("contents"))
        return try ModelFileKit.loadError(at: folder)
    }

    @Test("binary garbage as contents is an error, not a crash")
    func binaryGarbage() throws {
        var generator = SystemRandomNumberGenerator()
        let noise = Data((0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) })
        expectContentError(try errorLoading(bytes: noise), mentions: ["Hostile.xcdatamodel/contents"])
        let zeros = Data(repeating: 0, count: 1024)
        expectContentError(try errorLoading(bytes: zeros), mentions: ["Hostile.xcdatamodel/contents"])
    }

    @Test("an XML entity bomb (billion laughs) is refused without expanding it")
    func billionLaughs() throws {
        var doctype = "<!DOCTYPE model [\n<!ENTITY lol \"lol\">\n"
        doctype += "<!ENTITY lol1 \"" + String(repeating: "&lol;", count: 10) + "\">\n"
        for level in 2...9 {
            doctype += "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level - 1);", count: 10) + "\">\n"
        }
        doctype += "]>\n"
        let text =
            #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"# + "\n" + doctype
            + #"<model type="com.apple.IDECoreDataModeler.DataModel"><entity name="A"><attribute name="x" optional="YES" attributeType="String" defaultValueString="&lol9;"/></entity></model>"#
        let error = try errorLoading(bytes: Data(text.utf8))
        expectContentError(error, mentions: ["<!ENTITY", "Hostile.xcdatamodel/contents:3:"])
        let utf16 = try #require(text.replacingOccurrences(of: "UTF-8", with: "UTF-16").data(using: .utf16))
        expectContentError(try errorLoading(bytes: utf16), mentions: ["<!ENTITY"])
    }

    @Test(
        "a processing instruction besides the XML declaration is refused, naming its line; one in a comment is not",
        arguments: ["<?pi?>", "<?pi data?>", "<?xml-stylesheet href=\"a.css\"?>"])
    func processingInstruction(instruction: String) throws {
        let model =
            #"<model type="com.apple.IDECoreDataModeler.DataModel"><entity name="A"><attribute name="x" optional="YES" attributeType="String"/></entity></model>"#
        let text = #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"# + "\n<!-- <?pi?> -->\n" + instruction + "\n" + model
        let error = try errorLoading(bytes: Data(text.utf8))
        expectContentError(error, mentions: ["processing instruction", "Hostile.xcdatamodel/contents:3:"])
        let commentOnly = #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"# + "\n<!-- <?pi?> -->\n" + model
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let folder = directory.appendingPathComponent("Commented.xcdatamodel", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(commentOnly.utf8).write(to: folder.appendingPathComponent("contents"))
        #expect(try NSManagedObjectModel.load(from: folder).entitiesByName["A"] != nil)
    }

    @Test("an external entity is never fetched")
    func externalEntity() throws {
        let text =
            #"<?xml version="1.0" encoding="UTF-8"?><!DOCTYPE model [<!ENTITY secret SYSTEM "file:///etc/passwd">]>"#
            + #"<model><entity name="A"><attribute name="x" optional="YES" attributeType="String" defaultValueString="&secret;"/></entity></model>"#
        expectContentError(try errorLoading(bytes: Data(text.utf8)), mentions: ["<!ENTITY"])
    }

    @Test("huge names and values load or fail quickly, never crash")
    func hugeValues() throws {
        let long = String(repeating: "x", count: 2_000_000)
        let model = try ModelFileKit.load(
            """
            <entity name="A">
                <attribute name="\(long)" optional="YES" attributeType="String" defaultValueString="\(long)"/>
            </entity>
            """)
        let attribute = try #require(model.entitiesByName["A"]?.properties.first as? NSAttributeDescription)
        #expect(attribute.name.count == long.count)
        #expect((attribute.defaultValue as? String)?.count == long.count)
        let error = try ModelFileKit.loadError(
            """
            <entity name="A">
                <attribute name="n" optional="YES" attributeType="Integer 64" defaultValueString="\(String(repeating: "9", count: 100_000))"/>
            </entity>
            """)
        expectContentError(error, mentions: ["entity 'A'", "property 'n'"])
    }

    @Test("deeply nested XML is an error, not a stack overflow")
    func deepNesting() throws {
        let depth = 100_000
        let body = String(repeating: "<userInfo>", count: depth) + String(repeating: "</userInfo>", count: depth)
        let error = try ModelFileKit.loadError("<entity name=\"A\">" + body + "</entity>")
        expectContentError(error, mentions: ["nested more than"])
    }

    @Test("an entity whose parent is itself is an error")
    func selfParent() throws {
        let error = try ModelFileKit.loadError(#"<entity name="A" parentEntity="A"/>"#)
        expectContentError(error, mentions: ["entity 'A'"])
    }

    @Test("a long cycle of parent entities is an error")
    func longParentCycle() throws {
        let body = (0..<50).map { #"<entity name="E\#($0)" parentEntity="E\#(($0 + 1) % 50)"/>"# }.joined(separator: "\n")
        expectContentError(try ModelFileKit.loadError(body), mentions: ["cycle"])
    }

    @Test("an inverse naming an attribute of the destination is an error")
    func inverseIsAttribute() throws {
        let error = try ModelFileKit.loadError(
            """
            <entity name="Author">
                <attribute name="posts" optional="YES" attributeType="String"/>
            </entity>
            <entity name="Post">
                <relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Author" inverseName="posts" inverseEntity="Author"/>
            </entity>
            """)
        expectContentError(error, mentions: ["entity 'Post'", "property 'author'", "'posts'"])
    }

    @Test(
        "non-numeric or negative relationship counts are errors",
        arguments: [
            #"minCount="abc""#, #"maxCount="abc""#, #"minCount="-1""#, #"maxCount="-5""#, #"minCount="3" maxCount="2""#,
        ])
    func badCounts(counts: String) throws {
        let error = try ModelFileKit.loadError(
            """
            <entity name="Author">
                <relationship name="posts" optional="YES" toMany="YES" \(counts) deletionRule="Nullify" destinationEntity="Post"/>
            </entity>
            <entity name="Post"/>
            """)
        expectContentError(error, mentions: ["entity 'Author'", "property 'posts'"])
    }

    @Test("bytes that are not UTF-8 in a file declaring UTF-8 are an error naming the line")
    func notUTF8() throws {
        let header = Data(ModelFileKit.header.utf8)
        let text = header + Data("\n<entity name=\"Caf".utf8) + Data([0xE9]) + Data("\"/>\n</model>\n".utf8)
        expectContentError(try errorLoading(bytes: text), mentions: ["Hostile.xcdatamodel/contents:3:", "not UTF-8"])
        let garbage = Data([0x3C, 0x6D, 0xFF, 0xFE, 0xC0, 0x80, 0xED, 0xA0, 0x80])
        expectContentError(try errorLoading(bytes: garbage), mentions: ["not UTF-8"])
    }

    @Test("UTF-16 files and files declaring ISO-8859-1 load with their text")
    func otherEncodings() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let utf16 = ModelFileKit.contents(#"<entity name="Café"/>"#)
            .replacingOccurrences(of: #"encoding="UTF-8""#, with: #"encoding="UTF-16""#)
        let first = try ModelFileKit.writeVersion("", named: "Sixteen", in: directory)
        try #require(utf16.data(using: .utf16)).write(to: first.appendingPathComponent("contents"))
        #expect(try NSManagedObjectModel.load(from: first).entitiesByName["Café"] != nil)
        let latin1 = ModelFileKit.contents(#"<entity name="Café"/>"#)
            .replacingOccurrences(of: #"encoding="UTF-8""#, with: #"encoding="ISO-8859-1""#)
        let second = try ModelFileKit.writeVersion("", named: "Latin", in: directory)
        try #require(latin1.data(using: .isoLatin1)).write(to: second.appendingPathComponent("contents"))
        #expect(try NSManagedObjectModel.load(from: second).entitiesByName["Café"] != nil)
        var bom = Data([0xEF, 0xBB, 0xBF])
        bom.append(Data(ModelFileKit.contents(#"<entity name="Ünï"/>"#).utf8))
        let third = try ModelFileKit.writeVersion("", named: "BOM", in: directory)
        try bom.write(to: third.appendingPathComponent("contents"))
        #expect(try NSManagedObjectModel.load(from: third).entitiesByName["Ünï"] != nil)
    }

    @Test("a composite that contains itself is an error, not endless recursion")
    func selfContainingComposite() throws {
        let error = try ModelFileKit.loadError(
            """
            <entity name="A">
                <attribute name="place" optional="YES" attributeType="Composite" composite="Loop"/>
            </entity>
            <composite name="Loop">
                <attribute name="inner" optional="YES" attributeType="Composite" composite="Loop"/>
            </composite>
            """)
        expectContentError(error, mentions: ["Loop", "contains itself"])
    }

    @Test(
        "garbage in validation rules and derivation expressions is an error naming the property",
        arguments: [
            #"attributeType="Integer 32" minValueString="abc""#,
            #"attributeType="String" maxValueString="-3""#,
            #"attributeType="String" regularExpressionString="([""#,
            #"attributeType="Integer 64" derived="YES" derivationExpression="((""#,
        ])
    func garbageRules(attributes: String) throws {
        let error = try ModelFileKit.loadError(
            """
            <entity name="A">
                <attribute name="x" optional="YES" \(attributes)/>
            </entity>
            """)
        expectContentError(error, mentions: ["entity 'A'", "property 'x'"])
    }

    @Test("a device or a link to one is refused without reading it")
    func deviceFiles() throws {
        let zero = URL(fileURLWithPath: "/dev/zero")
        guard FileManager.default.fileExists(atPath: zero.path) else { return }
        expectContentError(try ModelFileKit.loadError(at: zero), mentions: ["/dev/zero", "not a regular file"])
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let folder = directory.appendingPathComponent("Device.xcdatamodel", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent("contents"), withDestinationURL: zero)
        expectContentError(try ModelFileKit.loadError(at: folder), mentions: ["Device.xcdatamodel/contents", "not a regular file"])
        let bundle = directory.appendingPathComponent("Device.xcdatamodeld", isDirectory: true)
        try ModelFileKit.writeVersion(ModelFileKit.contents(""), in: bundle)
        try FileManager.default.createSymbolicLink(at: bundle.appendingPathComponent(".xccurrentversion"), withDestinationURL: zero)
        expectContentError(try ModelFileKit.loadError(at: bundle), mentions: [".xccurrentversion", "not a regular file"])
    }
}
