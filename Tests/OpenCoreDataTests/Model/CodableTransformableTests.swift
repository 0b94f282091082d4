import Foundation
import GRDB
import OpenCoreData
import Testing

/// A Swift value stored in a transformable attribute with no value transformer.
struct TrailPoint: Codable, Equatable {
    var latitude: Double
    var longitude: Double
    var label: String
}

/// Another Codable type, for the check that the stored type must match the attribute's value class.
struct OtherPoint: Codable, Equatable {
    var latitude: Double
    var longitude: Double
    var label: String
}

@Suite("Transformable attributes: the default storage of Codable values")
struct CodableTransformableTests {
    static func model(valueClass: String? = nil) -> NSManagedObjectModel {
        let point = ModelKit.attribute("point", .transformableAttributeType)
        if let valueClass { point.attributeValueClassName = valueClass }
        let trail = ModelKit.attribute("trail", .transformableAttributeType)
        let hike = ModelKit.entity("Hike", [ModelKit.attribute("name", .stringAttributeType), point, trail])
        hike.managedObjectClassName = "NSManagedObject"
        let model = NSManagedObjectModel()
        model.entities = [hike]
        return model
    }

    /// The first hike's value for `key`, read through a new coordinator on the same file.
    static func reread(_ stack: GraphStack, _ key: String) throws -> Any? {
        let context = stack.context(try stack.secondCoordinator())
        return try context.all("Hike").first?.value(forKey: key)
    }

    @Test("a Codable struct and an array of them round-trip through a SQLite store without a transformer name")
    func roundTrip() throws {
        let stack = try GraphStack(model: Self.model(valueClass: "TrailPoint"))
        let context = stack.context()
        let top = TrailPoint(latitude: 46.5, longitude: 7.9, label: "Eiger ⛰️")
        let trail = [top, TrailPoint(latitude: 46.6, longitude: .infinity, label: "")]
        context.make("Hike", ["name": "h", "point": top, "trail": trail])
        try context.save()
        #expect(try Self.reread(stack, "point") as? TrailPoint == top)
        #expect(try Self.reread(stack, "trail") as? [TrailPoint] == trail)
    }

    @Test("a stored value of another type than the attribute's value class fails the read with an error naming both")
    func typeChecked() throws {
        let directory = TemporaryDirectory()
        let writer = try GraphStack(model: Self.model(valueClass: "OtherPoint"), directory: directory)
        let context = writer.context()
        context.make("Hike", ["name": "h", "point": OtherPoint(latitude: 1, longitude: 2, label: "x")])
        try context.save()
        let reader = try GraphStack(model: Self.model(valueClass: "TrailPoint"), directory: directory)
        let error = try #require(throws: NSError.self) { try reader.context().all("Hike") }
        #expect(error.localizedDescription.contains("OtherPoint"))
        #expect(error.localizedDescription.contains("TrailPoint"))
    }

    @Test("a stored envelope whose type name the runtime cannot look up safely fails the read with an error", arguments: ["$", "$0", "$1"])
    func unsafeTypeName(typeName: String) throws {
        let stack = try GraphStack(model: Self.model())
        let context = stack.context()
        context.make("Hike", ["name": "h", "point": TrailPoint(latitude: 1, longitude: 2, label: "x")])
        try context.save()
        let stored = try #require(try StoreKit.rows(stack.storeURL, "SELECT ZPOINT FROM ZHIKE").first?["ZPOINT"] as Data?)
        let text = String(decoding: stored, as: UTF8.self)
        let type = try #require(text.range(of: #""type":"[^"]*""#, options: .regularExpression))
        let damaged = text.replacingCharacters(in: type, with: "\"type\":\"\(typeName)\"")
        try StoreKit.execute(stack.storeURL, "UPDATE ZHIKE SET ZPOINT = ?", [Data(damaged.utf8)])

        let error = try #require(throws: NSError.self) { try Self.reread(stack, "point") }
        #expect(error.code == NSPersistentStoreOperationError)
        #expect(error.localizedDescription.contains("Hike.point"))
    }
}
