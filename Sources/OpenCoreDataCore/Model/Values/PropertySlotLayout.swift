import Foundation
import Synchronization

/// Where the values of an entity's properties live in a ``PropertyValues``: one slot per property (its
/// inherited properties included), in the entity's property order.
///
/// There is one layout for each shape (see ``shared(_:)``), made on first use and kept for the life of
/// the process: every object and row of an entity shares it, as do entities of the same shape, and
/// values may refer to their layout without a reference count (``PropertyValues/layout``).
final class PropertySlotLayout: Sendable {
    /// How a slot's value is kept.
    enum Kind: UInt8, Sendable {
        /// An Integer 16, 32 or 64 attribute: an `Int64`, boxed as `NSNumber(value: Int64)` on demand.
        case integer
        /// A Double attribute: a `Double`, boxed as `NSNumber(value: Double)` on demand.
        case double
        /// A to-many relationship (an object keeps its contents apart; snapshots keep destination IDs).
        case toMany
        /// Any other property (an attribute or a to-one relationship): its value in canonical form.
        case other
    }

    /// The property names, by slot.
    let names: [String]
    /// An open-addressing table of each name's representation (see ``StringRepresentation``), slot and
    /// kind, indexed by the hash of the representation (``StringRepresentation/none`` where empty): the
    /// lookup of every `@Managed` access, which names its property with a literal.
    private let literalTable: [LiteralEntry]
    /// An open-addressing table of slots + 1 (0: empty), indexed by ``probeHash(_:)`` of the name's
    /// contents: the lookup of names in other representations.
    private let probeTable: [Int32]
    /// `probeTable.count - 1` and `literalTable.count - 1` (the counts are a power of two).
    private let probeMask: Int
    /// How each slot keeps its value.
    let kinds: [Kind]
    /// The slots of to-one relationships.
    let toOneSlots: [Int]
    /// The slots of transient properties.
    let transientSlots: [Int]
    /// Whether an object's values in this layout are its row's values as they are: no to-one
    /// relationship (whose row holds a destination ID) and no transient property (which the row lacks).
    var holdsRowValuesAsTheyAre: Bool {
        @inline(__always) get { toOneSlots.isEmpty && transientSlots.isEmpty }
    }

    /// A layout with no slots: every value it holds is kept by name.
    static let empty = PropertySlotLayout.shared(Shape(names: [], kinds: [], toOneSlots: [], transientSlots: []))

    /// What a layout is made of: its slots' names and kinds, and which slots hold to-one relationships
    /// and transient properties. Two layouts of one shape hold values interchangeably.
    struct Shape: Hashable, Sendable {
        var names: [String]
        var kinds: [Kind]
        var toOneSlots: [Int]
        var transientSlots: [Int]
    }

    /// A layout of the given shape. Only ``shared(_:)`` makes layouts: values rely on every layout
    /// living as long as the process.
    init(_ shape: Shape) {
        // Names rebuilt from their bytes: short ones in the small form string literals have.
        let names = shape.names.map { String(decoding: Array($0.utf8), as: UTF8.self) }
        self.names = names
        kinds = shape.kinds
        toOneSlots = shape.toOneSlots
        transientSlots = shape.transientSlots
        var size = 8
        while size < names.count * 2 { size *= 2 }
        probeTable = Self.table(size: size, hashes: names.map(Self.probeHash))
        var literalTable = [LiteralEntry](repeating: LiteralEntry(representation: .none, slot: 0, kind: .other), count: size)
        if StringRepresentation.isAvailable {
            let literalSlots = Self.table(size: size, hashes: names.map { StringRepresentation($0).hash })
            for (position, entry) in literalSlots.enumerated() where entry != 0 {
                let slot = Int(entry) - 1
                literalTable[position] = LiteralEntry(representation: StringRepresentation(names[slot]), slot: slot, kind: kinds[slot])
            }
        }
        self.literalTable = literalTable
        probeMask = size - 1
    }

    /// A name's representation with its slot and kind.
    private struct LiteralEntry {
        let representation: StringRepresentation
        let slot: Int
        let kind: Kind
    }

    /// An open-addressing table of `size` entries holding each index + 1 at the first free position
    /// from its hash.
    private static func table(size: Int, hashes: [Int]) -> [Int32] {
        var table = [Int32](repeating: 0, count: size)
        for (index, hash) in hashes.enumerated() {
            var position = hash & (size - 1)
            while table[position] != 0 { position = (position + 1) & (size - 1) }
            table[position] = Int32(index + 1)
        }
        return table
    }

    /// The slot of a property name, or `nil` when the entity has no such property.
    @inline(__always)
    func index(of name: String) -> Int? {
        if let (slot, _) = literalSlot(of: name) { return slot }
        return index(ofContents: name)
    }

    /// The slot and kind of a property name whose representation is the layout's name's: a short name
    /// (as every short literal is, every `@Managed` accessor's among them). `nil` when no name has that
    /// representation, which a name of the entity given in another form may still match (see
    /// ``index(of:)``).
    @inline(__always)
    func literalSlot(of name: String) -> (Int, Kind)? {
        guard StringRepresentation.isAvailable else { return nil }
        let representation = StringRepresentation(name)
        return literalTable.withUnsafeBufferPointer { table in
            // The table's count is a power of two and `probeMask` one less: positions stay inside it.
            var position = representation.hash & probeMask
            while true {
                let entry = table[position]
                if entry.representation == representation {
                    InternalChecks.check(
                        names[entry.slot] == name,
                        "the name \(name) has the bits of the layout's name \(names[entry.slot])")
                    return (entry.slot, entry.kind)
                }
                if entry.representation == .none { return nil }
                position = (position &+ 1) & probeMask
            }
        }
    }

    /// The slot of a property name, found by its characters.
    @inline(never)
    private func index(ofContents name: String) -> Int? {
        var position = Self.probeHash(name) & probeMask
        while true {
            let entry = Int(probeTable[position])
            if entry == 0 { return nil }
            if names[entry - 1] == name { return entry - 1 }
            position = (position + 1) & probeMask
        }
    }

    /// FNV-1a over the name's UTF-8 bytes: property names are short.
    @inline(__always)
    private static func probeHash(_ name: String) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return Int(truncatingIfNeeded: hash ^ (hash >> 32))
    }

    /// The shape of an entity's layout. A property that redeclares an inherited name takes over its slot.
    static func shape(of entity: NSEntityDescription) -> Shape {
        var names: [String] = []
        var kinds: [Kind] = []
        var toOne: Set<Int> = []
        var transient: Set<Int> = []
        var positions: [String: Int] = [:]
        for property in entity._allProperties where !(property is NSFetchedPropertyDescription) {
            let slot: Int
            if let existing = positions[property.name] {
                slot = existing
            } else {
                slot = names.count
                positions[property.name] = slot
                names.append(property.name)
                kinds.append(.other)
            }
            kinds[slot] = Self.kind(of: property)
            if let relationship = property as? NSRelationshipDescription, !relationship.isToMany {
                toOne.insert(slot)
            } else {
                toOne.remove(slot)
            }
            if property.isTransient { transient.insert(slot) } else { transient.remove(slot) }
        }
        return Shape(names: names, kinds: kinds, toOneSlots: toOne.sorted(), transientSlots: transient.sorted())
    }

    /// The number of slots.
    var count: Int { names.count }

    private static func kind(of property: NSPropertyDescription) -> Kind {
        if let relationship = property as? NSRelationshipDescription, relationship.isToMany { return .toMany }
        guard let attribute = property as? NSAttributeDescription,
            !(attribute is NSCompositeAttributeDescription)
        else { return .other }
        switch attribute.attributeType {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType: return .integer
        case .doubleAttributeType: return .double
        default: return .other
        }
    }
}

extension NSEntityDescription {
    /// The slot layout of the entity's values: fixed once the model is in use; while the model is still
    /// editable, the shared layout of the entity's current properties.
    var _slotLayout: PropertySlotLayout {
        _frozen?.slotLayout ?? PropertySlotLayout.shared(self)
    }
}
