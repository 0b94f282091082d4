import Foundation

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads an Xcode mapping model: an `.xcmappingmodel` bundle holding `xcmapping.xml`.
///
/// The file is a Core Data XML store of Xcode's own editing objects: one `XDDEVMAPPINGMODEL` (the paths
/// of the source and destination models, and its entity mappings), one `XDDEVENTITYMAPPING` per entity
/// mapping (`sourcename`, `destinationname`, `mappingtypename`, `mappingnumber`,
/// `sourcefilterpredicatestring`, `migrationpolicyclassname`), and one `XDDEVATTRIBUTEMAPPING` or
/// `XDDEVRELATIONSHIPMAPPING` per property mapping (`name`, `autogenerateexpression`). A property
/// mapping without a stored expression gets the one Xcode generates (`$source.<name>` when the source
/// entity has the property); expressions typed into Xcode's editor are stored as keyed archives
/// (`valueexpressiondata`, `sourceexpressiondata`), which this reader refuses with an error naming them.
enum XcodeMappingFile {
    /// One `<object>` of the file.
    struct Object {
        var type: String
        var id: String
        var attributes: [String: String] = [:]
        var relationships: [String: [String]] = [:]
        var line: Int

        func string(_ name: String) -> String? {
            guard let value = attributes[name]?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else { return nil }
            return value
        }

        func flag(_ name: String) -> Bool {
            guard let value = string(name)?.lowercased() else { return false }
            return value == "1" || value == "yes" || value == "true"
        }
    }

    /// The `xcmapping.xml` of a bundle, or the file itself.
    static func xmlURL(for url: URL) -> URL {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
            return url.appendingPathComponent("xcmapping.xml")
        }
        return url
    }

    /// Reads the mapping model at `url` (an `.xcmappingmodel` bundle or its `xcmapping.xml`).
    ///
    /// - Throws: ``NSMigrationMissingMappingModelError`` (134140) naming the file and what is wrong
    ///   when the file is missing, is not the XML of a mapping model, or holds an expression typed in
    ///   Xcode's editor (archived, which OpenCoreData cannot read).
    static func load(from url: URL) throws -> NSMappingModel {
        let file = xmlURL(for: url)
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw failure("cannot be read (\(error.localizedDescription))", file: file)
        }
        let objects = try parse(data, file: file)
        guard let root = objects.values.first(where: { $0.type == "XDDEVMAPPINGMODEL" }) else {
            throw failure("holds no XDDEVMAPPINGMODEL object: it is not the xcmapping.xml of a mapping model", file: file)
        }
        let models = recordedModels(root, near: url)
        var entityObjects: [Object] = []
        for id in root.relationships["entitymappings"] ?? [] {
            guard let object = objects[id], object.type == "XDDEVENTITYMAPPING" else {
                throw failure("names the entity mapping \(id), which the file does not hold", file: file)
            }
            entityObjects.append(object)
        }
        entityObjects.sort { (Int($0.string("mappingnumber") ?? "") ?? 0) < (Int($1.string("mappingnumber") ?? "") ?? 0) }
        let model = NSMappingModel()
        model.entityMappings = try entityObjects.map { try entityMapping($0, objects: objects, models: models, file: file) }
        return model
    }

    /// Builds one entity mapping.
    private static func entityMapping(
        _ object: Object, objects: [String: Object],
        models: (NSManagedObjectModel?, NSManagedObjectModel?), file: URL
    ) throws -> NSEntityMapping {
        let mapping = NSEntityMapping()
        let sourceName = object.string("sourcename")
        let destinationName = object.string("destinationname")
        mapping.sourceEntityName = sourceName
        mapping.destinationEntityName = destinationName
        mapping.name =
            object.string("name")
            ?? {
                if let sourceName, let destinationName { return sourceName + "To" + destinationName }
                return destinationName ?? sourceName ?? "Mapping\(object.id)"
            }()
        let sourceEntity = sourceName.flatMap { models.0?.entitiesByName[$0] }
        let destinationEntity = destinationName.flatMap { models.1?.entitiesByName[$0] }
        mapping.sourceEntityVersionHash = sourceEntity?.versionHash
        mapping.destinationEntityVersionHash = destinationEntity?.versionHash
        mapping.entityMigrationPolicyClassName = object.string("migrationpolicyclassname")
        mapping.mappingType = mappingType(object, sourceEntity: sourceEntity, destinationEntity: destinationEntity)
        if object.string("sourceexpressiondata") != nil, !object.flag("autogenerateexpression") {
            throw failure(
                "holds a source expression typed in Xcode's editor for the entity mapping \(mapping.name ?? "?") (line \(object.line)); OpenCoreData cannot read archived expressions — use a filter predicate, or build the NSEntityMapping in code",
                file: file)
        }
        if let sourceName, mapping.mappingType != .addEntityMappingType {
            let predicate = object.string("sourcefilterpredicatestring") ?? "TRUEPREDICATE"
            mapping.sourceExpression = NSExpression(
                storage: .function(
                    FetchExpression.functionName,
                    arguments: [
                        NSExpression(
                            forFunction: NSExpression(forVariable: NSMigrationManagerKey),
                            selectorName: "fetchRequestForSourceEntityNamed:predicateString:",
                            arguments: [NSExpression(forConstantValue: sourceName), NSExpression(forConstantValue: predicate)]),
                        NSExpression(forKeyPath: "sourceContext", operand: NSExpression(forVariable: NSMigrationManagerKey)),
                        NSExpression(forConstantValue: false),
                    ]))
        }
        mapping.attributeMappings = try propertyMappings(
            object, "attributemappings", objects: objects, relationship: false,
            mapping: mapping, sourceEntity: sourceEntity, file: file)
        mapping.relationshipMappings = try propertyMappings(
            object, "relationshipmappings", objects: objects, relationship: true,
            mapping: mapping, sourceEntity: sourceEntity, file: file)
        return mapping
    }

    /// The kind of an entity mapping: the one Xcode recorded, else what its entities imply.
    private static func mappingType(
        _ object: Object, sourceEntity: NSEntityDescription?,
        destinationEntity: NSEntityDescription?
    ) -> NSEntityMappingType {
        if object.string("sourcename") == nil { return .addEntityMappingType }
        if object.string("destinationname") == nil { return .removeEntityMappingType }
        switch object.string("mappingtypename")?.lowercased() {
        case "custom": return .customEntityMappingType
        case "add": return .addEntityMappingType
        case "remove": return .removeEntityMappingType
        case "copy": return .copyEntityMappingType
        case "transform": return .transformEntityMappingType
        default: break
        }
        if object.string("migrationpolicyclassname") != nil { return .customEntityMappingType }
        if let sourceEntity, let destinationEntity, sourceEntity.versionHash == destinationEntity.versionHash {
            return .copyEntityMappingType
        }
        return .transformEntityMappingType
    }

    /// The property mappings an entity mapping lists under `key`.
    private static func propertyMappings(
        _ object: Object, _ key: String, objects: [String: Object], relationship: Bool,
        mapping: NSEntityMapping, sourceEntity: NSEntityDescription?, file: URL
    ) throws -> [NSPropertyMapping] {
        var result: [NSPropertyMapping] = []
        for id in object.relationships[key] ?? [] {
            guard let property = objects[id] else {
                throw failure("names the property mapping \(id) of \(mapping.name ?? "?"), which the file does not hold", file: file)
            }
            guard let name = property.string("name") else {
                throw failure("holds a property mapping without a name in \(mapping.name ?? "?") (line \(property.line))", file: file)
            }
            let propertyMapping = NSPropertyMapping()
            propertyMapping.name = name
            if property.string("valueexpressiondata") != nil, !property.flag("autogenerateexpression") {
                throw failure(
                    "holds a value expression typed in Xcode's editor for \(mapping.name ?? "?").\(name) (line \(property.line)); OpenCoreData cannot read archived expressions — build that NSPropertyMapping in code",
                    file: file)
            }
            // Xcode generates `$source.<name>` only when the source entity has the property; without the
            // source model at hand the expression is generated and the manager checks it when it runs.
            let sourceHasIt = sourceEntity.map { $0.propertiesByName[name] != nil } ?? true
            if mapping.sourceEntityName != nil, sourceHasIt {
                if relationship {
                    propertyMapping.valueExpression = NSExpression(
                        forFunction: NSExpression(forVariable: NSMigrationManagerKey),
                        selectorName: "destinationInstancesForSourceRelationshipNamed:sourceInstances:",
                        arguments: [
                            NSExpression(forConstantValue: name),
                            NSExpression(forKeyPath: name, operand: NSExpression(forVariable: NSMigrationSourceObjectKey)),
                        ])
                } else {
                    propertyMapping.valueExpression = NSExpression(forKeyPath: name, operand: NSExpression(forVariable: NSMigrationSourceObjectKey))
                }
            }
            result.append(propertyMapping)
        }
        return result
    }

    /// The source and destination models the file records by path, when they can be found near it.
    static func recordedModels(_ root: Object, near url: URL) -> (NSManagedObjectModel?, NSManagedObjectModel?) {
        (
            root.string("sourcemodelpath").flatMap { model(atRecordedPath: $0, near: url) },
            root.string("destinationmodelpath").flatMap { model(atRecordedPath: $0, near: url) }
        )
    }

    /// A model at a path as Xcode recorded it: tried as given, then against each folder above the
    /// mapping model (a project keeps its models there).
    private static func model(atRecordedPath recorded: String, near url: URL) -> NSManagedObjectModel? {
        var candidates = [URL(fileURLWithPath: recorded)]
        let components = recorded.split(separator: "/").map(String.init)
        var folder = url.deletingLastPathComponent()
        for _ in 0..<6 {
            candidates.append(folder.appendingPathComponent(recorded))
            for count in 1...min(2, max(components.count, 1)) where components.count >= count {
                candidates.append(folder.appendingPathComponent(components.suffix(count).joined(separator: "/")))
            }
            let parent = folder.deletingLastPathComponent()
            if parent.path == folder.path { break }
            folder = parent
        }
        for candidate in candidates where FileManager.default.fileExists(atPath: candidate.path) {
            if let model = try? NSManagedObjectModel.load(from: candidate) { return model }
        }
        return nil
    }

    /// Parses the objects of the file, by id.
    private static func parse(_ data: Data, file: URL) throws -> [String: Object] {
        // Foundation's XML parser stops the program on some bytes that are not UTF-8 (in a tag's name, a
        // comment): a mapping file must be UTF-8, as Xcode writes it (model files in other encodings are
        // converted; mapping files in them are refused).
        guard String(validating: [UInt8](data), as: UTF8.self) != nil else {
            throw failure("is not UTF-8 text", file: file)
        }
        if let text = String(data: data.prefix(4096), encoding: .utf8), text.contains("<!ENTITY") {
            throw failure("declares XML entities (<!ENTITY …>), which Xcode mapping models never contain", file: file)
        }
        if let line = XMLProcessingInstructions.firstLine(in: data) {
            throw failure(
                "holds an XML processing instruction (<?…?>) besides the XML declaration, on line \(line), which Xcode mapping models never do",
                file: file)
        }
        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = false
        let collector = Collector()
        parser.delegate = collector
        guard parser.parse(), collector.error == nil else {
            let reason = (collector.error ?? parser.parserError).map { $0.localizedDescription } ?? "malformed XML"
            throw failure("is not well-formed XML (line \(parser.lineNumber)): \(reason)", file: file)
        }
        guard collector.rootName == "database" else {
            throw failure("is not a Core Data XML store (its root element is <\(collector.rootName ?? "none")>, not <database>)", file: file)
        }
        var objects: [String: Object] = [:]
        for object in collector.objects { objects[object.id] = object }
        return objects
    }

    /// The error for a mapping model file that cannot be read.
    static func failure(_ reason: String, file: URL) -> NSError {
        NSError(
            domain: NSCocoaErrorDomain, code: NSMigrationMissingMappingModelError,
            userInfo: [
                NSLocalizedDescriptionKey: "The mapping model file \(file.path) \(reason).",
                NSFilePathErrorKey: file.path,
            ])
    }

    /// Collects `<object>` elements. Used on one thread, for one parse.
    private final class Collector: NSObject, XMLParserDelegate {
        var objects: [Object] = []
        var rootName: String?
        var error: (any Error)?
        private var current: Object?
        private var attributeName: String?
        private var text = ""

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
            qualifiedName qName: String?, attributes: [String: String] = [:]
        ) {
            if rootName == nil { rootName = elementName }
            switch elementName {
            case "object":
                current = Object(type: (attributes["type"] ?? "").uppercased(), id: attributes["id"] ?? "", line: parser.lineNumber)
            case "attribute" where current != nil:
                attributeName = attributes["name"]?.lowercased()
                text = ""
            case "relationship" where current != nil:
                if let name = attributes["name"]?.lowercased() {
                    current?.relationships[name] = (attributes["idrefs"] ?? "").split(separator: " ").map(String.init)
                }
            default:
                break
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if attributeName != nil { text += string }
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
            switch elementName {
            case "attribute":
                if let name = attributeName { current?.attributes[name] = text }
                attributeName = nil
            case "object":
                if let object = current { objects.append(object) }
                current = nil
            default:
                break
            }
        }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
            if error == nil { error = parseError }
        }
    }
}
