import OpenCoreData
import Testing

/// Loads every version of every real model bundle under Tests/Fixtures (models and the store folders)
/// and checks each loaded model against its own `contents` file.
@Suite("Model fixtures")
struct ModelFixtureTests {
    /// What a `contents` file declares, read line by line (Xcode writes one element per line),
    /// independently of the model file reader.
    struct Declared {
        var entities: [String] = []
        /// Entity name → names of the properties it declares (attributes, relationships, fetched properties).
        var properties: [String: [String]] = [:]
        /// (entity, relationship, inverse name, inverse entity) for each relationship naming an inverse.
        var inverses: [(entity: String, relationship: String, inverse: String, inverseEntity: String)] = []
        var parents: [String: String] = [:]

        init(_ text: String) {
            var entity: String?
            var depth = 0
            for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
                let line = raw.trimmingCharacters(in: .whitespaces)
                if line.hasPrefix("<entity ") {
                    let name = Self.value("name", in: line) ?? ""
                    entities.append(name)
                    properties[name] = []
                    if let parent = Self.value("parentEntity", in: line) { parents[name] = parent }
                    entity = line.hasSuffix("/>") ? nil : name
                    depth = 0
                    continue
                }
                if line.hasPrefix("</entity>") {
                    entity = nil
                    continue
                }
                guard let current = entity else { continue }
                let isProperty = line.hasPrefix("<attribute ") || line.hasPrefix("<relationship ") || line.hasPrefix("<fetchedProperty ")
                if isProperty && depth == 0, let name = Self.value("name", in: line) {
                    properties[current, default: []].append(name)
                    if line.hasPrefix("<relationship "), let inverse = Self.value("inverseName", in: line) {
                        let inverseEntity = Self.value("inverseEntity", in: line) ?? Self.value("destinationEntity", in: line) ?? ""
                        inverses.append((current, name, inverse, inverseEntity))
                    }
                }
                if isProperty && !line.hasSuffix("/>") { depth += 1 }
                if line.hasPrefix("</attribute>") || line.hasPrefix("</relationship>") || line.hasPrefix("</fetchedProperty>") {
                    depth -= 1
                }
            }
        }

        static func value(_ key: String, in line: String) -> String? {
            guard let start = line.range(of: " \(key)=\"") else { return nil }
            let rest = line[start.upperBound...]
            guard let end = rest.firstIndex(of: "\"") else { return nil }
            return String(rest[..<end])
                .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&lt;", with: "<")
                .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
        }
    }

    /// Every `.xcdatamodeld` bundle and bare `.xcdatamodel` folder under models/ and stores/*/.
    static func allModelPaths() throws -> [URL] {
        let fm = FileManager.default
        var result: [URL] = []
        for name in try fm.contentsOfDirectory(atPath: Fixtures.models.path).sorted()
        where name.hasSuffix(".xcdatamodeld") || name.hasSuffix(".xcdatamodel") {
            result.append(Fixtures.models.appendingPathComponent(name))
        }
        for folder in try fm.contentsOfDirectory(atPath: Fixtures.stores.path).sorted() {
            let url = Fixtures.stores.appendingPathComponent(folder)
            guard let names = try? fm.contentsOfDirectory(atPath: url.path) else { continue }
            for name in names.sorted() where name.hasSuffix(".xcdatamodeld") {
                result.append(url.appendingPathComponent(name))
            }
        }
        return result
    }

    @Test("every version of every fixture bundle loads and matches its contents file")
    func everyFixtureVersionLoads() throws {
        var bundles = 0, versions = 0, binaryOnly = 0, entities = 0, properties = 0, inverses = 0
        for path in try Self.allModelPaths() {
            bundles += 1
            let folders: [URL]
            if path.pathExtension == "xcdatamodeld" {
                folders = try NSManagedObjectModel.versions(inBundleAt: path).map(\.url)
            } else {
                folders = [path]
            }
            for folder in folders {
                let contents = folder.appendingPathComponent("contents")
                guard FileManager.default.fileExists(atPath: contents.path) else {
                    // Only an Xcode 3 binary version may lack its XML: it must throw the specific error.
                    #expect(
                        FileManager.default.fileExists(atPath: folder.appendingPathComponent("elements").path),
                        "\(folder.path) has neither contents nor elements")
                    let error = try ModelFileKit.loadError(at: folder)
                    #expect(error.localizedDescription.contains("Xcode 3 binary model format is not supported"))
                    binaryOnly += 1
                    continue
                }
                let model: NSManagedObjectModel
                do {
                    model = try NSManagedObjectModel.load(from: folder)
                } catch {
                    Issue.record("\(folder.path) failed to load: \(error.localizedDescription)")
                    continue
                }
                versions += 1
                let declared = Declared(String(decoding: try Data(contentsOf: contents), as: UTF8.self))
                #expect(model.entities.map { $0.name ?? "" } == declared.entities, "\(folder.path): entities")
                for entity in model.entities {
                    let name = entity.name ?? ""
                    #expect(
                        entity.properties.map(\.name) == declared.properties[name] ?? [],
                        "\(folder.path): properties of \(name)")
                    #expect(entity.superentity?.name == declared.parents[name], "\(folder.path): parent of \(name)")
                    properties += entity.properties.count
                }
                entities += model.entities.count
                for item in declared.inverses {
                    let relationship = model.entitiesByName[item.entity]?.relationshipsByName[item.relationship]
                    let inverse = relationship?.inverseRelationship
                    #expect(
                        inverse?.name == item.inverse && inverse?.entity.name == item.inverseEntity,
                        "\(folder.path): inverse of \(item.entity).\(item.relationship)")
                    inverses += 1
                }
            }
        }
        print(
            "Model fixtures: \(bundles) bundles, \(versions) versions loaded (\(entities) entities, \(properties) properties, \(inverses) inverses resolved), \(binaryOnly) Xcode 3 binary versions rejected as expected"
        )
        #expect(bundles == 50)
        #expect(versions == 234)
        #expect(binaryOnly == 3)
    }

    @Test("each bundle loads through the failable initializer, choosing its current version")
    func everyBundleLoadsItsCurrentVersion() throws {
        var loaded = 0
        for path in try Self.allModelPaths() where !path.path.contains("Recipes") {
            let model = NSManagedObjectModel(contentsOf: path)
            #expect(model != nil, "\(path.lastPathComponent)")
            if model != nil { loaded += 1 }
        }
        #expect(loaded == 49)
    }
}
