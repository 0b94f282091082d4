import Foundation
import OpenCoreData

final class Gadget: NSManagedObject {
    @Managed var title: String
    @Managed var detail: String?
    @Managed var price: Double
    @Managed var stock: Int64
    @Managed var active: Bool
    @Managed var added: Date
    @Managed var code: UUID
    @Managed var maker: Maker?
    /// A composite attribute declared as a Swift type, absent on some gadgets.
    @Managed var spot: Spot?
    /// A composite attribute declared as a non-optional Swift type, present on every gadget.
    @Managed var place: Spot
}

/// The elements of the composite attributes `spot` and `place`.
struct Spot: Codable, Equatable {
    var latitude: Double
    var longitude: Double
    var label: String?
}

final class Maker: NSManagedObject {
    @Managed var name: String
    @Managed var country: String?
    @Managed var gadgets: Set<Gadget>
}

/// A SQLite store of gadgets and their makers: strings that differ in case and diacritics, optionals,
/// dates, UUIDs, a gadget with no maker and a maker with no gadgets.
///
/// Every string is one UTF-16 unit per character: a Swift string's `count` converts to `length`, which
/// counts UTF-16 units (as on Apple platforms), so the two differ for characters outside the Basic
/// Multilingual Plane and for combining sequences.
struct GadgetStack {
    let directory = TemporaryDirectory()
    let coordinator: NSPersistentStoreCoordinator
    static let epoch = Date(timeIntervalSinceReferenceDate: 700_000_000)
    static let titles = [
        "Café", "cafe", "CAFÉ", "Ärger", "zebra", "Zebra", "naïve", "apple", "Apple pie", "",
        "résumé", "Resume", "x", "Straße", "STRASSE", "smile ☺", "a.b", "100%", "Ω", "the end",
    ]
    static let codes = (0..<40).map { UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", $0))! }

    init() throws {
        coordinator = NSPersistentStoreCoordinator(managedObjectModel: GadgetStack.model())
        try coordinator.addPersistentStore(type: .sqlite, at: directory.file("Gadgets.sqlite"))
        let context = self.context()
        try context.performAndWait {
            let makers = [("Acme", "US"), ("Bosch", "DE"), ("Café Co", nil), ("Dyson", "UK"), ("Empty", "FR")]
                .map { name, country -> Maker in
                    let maker = Maker(context: context)
                    maker.name = name
                    maker.country = country
                    return maker
                }
            for index in 0..<40 {
                let gadget = Gadget(context: context)
                gadget.title = Self.titles[index % Self.titles.count]
                gadget.detail = index % 3 == 0 ? nil : (index % 3 == 1 ? Self.titles[(index * 7) % Self.titles.count] : "")
                gadget.price = Double(index % 9) * 2.5
                gadget.stock = Int64((index * 5) % 13)
                gadget.active = index % 4 != 0
                gadget.added = Self.epoch.addingTimeInterval(Double(index - 20) * 86_400)
                gadget.code = Self.codes[index]
                gadget.maker = index == 39 ? nil : makers[index % 4]
                let label: String? = index % 3 == 0 ? nil : Self.titles[(index * 3) % Self.titles.count]
                gadget.spot = index % 5 == 0 ? nil : Spot(latitude: Double(index % 7) * 1.5, longitude: Double(index % 4) - 1.5, label: label)
                gadget.place = Spot(latitude: Double((index * 3) % 11), longitude: -Double(index % 6), label: index % 2 == 0 ? nil : "p\(index % 3)")
            }
            try context.save()
        }
    }

    func context() -> NSManagedObjectContext {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    static func model() -> NSManagedObjectModel {
        func attribute(_ name: String, _ type: NSAttributeType, optional: Bool = false) -> NSAttributeDescription {
            let attribute = NSAttributeDescription()
            attribute.name = name
            attribute.attributeType = type
            attribute.isOptional = optional
            return attribute
        }
        let gadget = NSEntityDescription()
        gadget.name = "Gadget"
        gadget.managedObjectClassName = NSStringFromClass(Gadget.self)
        let maker = NSEntityDescription()
        maker.name = "Maker"
        maker.managedObjectClassName = NSStringFromClass(Maker.self)
        let gadgetMaker = NSRelationshipDescription()
        gadgetMaker.name = "maker"
        gadgetMaker.destinationEntity = maker
        gadgetMaker.maxCount = 1
        gadgetMaker.isOptional = true
        let makerGadgets = NSRelationshipDescription()
        makerGadgets.name = "gadgets"
        makerGadgets.destinationEntity = gadget
        makerGadgets.maxCount = 0
        makerGadgets.isOptional = true
        gadgetMaker.inverseRelationship = makerGadgets
        makerGadgets.inverseRelationship = gadgetMaker
        func composite(_ name: String) -> NSCompositeAttributeDescription {
            let composite = NSCompositeAttributeDescription()
            composite.name = name
            composite.isOptional = true
            composite.elements = [
                attribute("latitude", .doubleAttributeType), attribute("longitude", .doubleAttributeType),
                attribute("label", .stringAttributeType, optional: true),
            ]
            return composite
        }
        gadget.properties = [
            attribute("title", .stringAttributeType), attribute("detail", .stringAttributeType, optional: true),
            attribute("price", .doubleAttributeType), attribute("stock", .integer64AttributeType),
            attribute("active", .booleanAttributeType), attribute("added", .dateAttributeType),
            attribute("code", .UUIDAttributeType), gadgetMaker, composite("spot"), composite("place"),
        ]
        maker.properties = [
            attribute("name", .stringAttributeType), attribute("country", .stringAttributeType, optional: true),
            makerGadgets,
        ]
        let model = NSManagedObjectModel()
        model.entities = [gadget, maker]
        return model
    }
}
