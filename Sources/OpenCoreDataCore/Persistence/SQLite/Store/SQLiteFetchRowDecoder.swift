import GRDB
import GRDBSQLite

/// Turns the result rows of one compiled `.rows` fetch into store rows.
///
/// The work that depends only on the query and on a row's entity — which columns hold which
/// attribute, which of them belong to the entity, how each is read — is done once per entity of the
/// fetch, not once per row; each row then costs its column reads, its values and its object ID.
// Not Sendable: made, used and dropped inside one read of one fetch.
final class SQLiteFetchRowDecoder {
    /// How one number column becomes a slot of a row's values, unboxed.
    ///
    /// A plain struct, not an enum with payloads: the loop over a row's columns reads three fields where
    /// it took each case's payload apart.
    fileprivate struct SlotStep {
        /// The attribute types whose columns are read straight into slots. Switched on for every column
        /// of every row: four cases, where a switch over `NSAttributeType`'s eighteen took three more
        /// instructions a column.
        enum Kind: UInt8 {
            case integer16, integer32, integer64, double

            /// The kind of an attribute of `type`; `nil` for a type read otherwise.
            init?(_ type: NSAttributeType) {
                switch type {
                case .integer16AttributeType: self = .integer16
                case .integer32AttributeType: self = .integer32
                case .integer64AttributeType: self = .integer64
                case .doubleAttributeType: self = .double
                default: return nil
                }
            }

            /// The attribute type of this kind.
            var attributeType: NSAttributeType {
                switch self {
                case .integer16: .integer16AttributeType
                case .integer32: .integer32AttributeType
                case .integer64: .integer64AttributeType
                case .double: .doubleAttributeType
                }
            }
        }

        /// The column's index in the result row.
        let column: Int32
        let kind: Kind
        /// The slot of the row's values the column is written to.
        let slot: Int
    }

    /// How one other column becomes part of a row's values, for rows of one entity.
    fileprivate enum Step {
        /// A plain attribute, read with `readValue`'s rules (`external`: through the external-data
        /// reference rules of `allowsExternalBinaryDataStorage`).
        case attribute(index: Int, name: String, attribute: NSAttributeDescription, external: Bool)
        /// An element of a composite attribute, named by its dotted path.
        case compositeElement(index: Int, name: String, path: [Substring], element: NSAttributeDescription)
        /// A to-one relationship: its destination's primary key, and the entity number of the destination
        /// when the relationship can name objects of several entities.
        case toOne(ToOneStep)
    }

    /// How a to-one relationship's columns become the ID of its destination, worked out once per plan.
    fileprivate final class ToOneStep: @unchecked Sendable {
        // @unchecked Sendable: every property is a `let`, and the model objects it holds are immutable
        // once a store uses their model.

        /// The column of the destination's primary key.
        let keyIndex: Int
        /// The column of the destination's entity number (`nil`: always `destination`).
        let entityIndex: Int?
        /// The relationship's name, and its slot in the row's values (`nil`: set by name).
        let name: String
        let slot: Int?
        /// What the IDs of the relationship's destination entity share, and that entity's number: IDs of
        /// rows of that entity are made from it.
        let destination: ObjectIDScope
        let destinationNumber: Int64

        init(keyIndex: Int, entityIndex: Int?, name: String, slot: Int?, destination: ObjectIDScope, destinationNumber: Int64) {
            self.keyIndex = keyIndex
            self.entityIndex = entityIndex
            self.name = name
            self.slot = slot
            self.destination = destination
            self.destinationNumber = destinationNumber
        }
    }

    /// The steps for rows of one entity (a class: each row takes it with one reference).
    // @unchecked Sendable: every property is a `let`, and the model objects it holds are immutable once a
    // store uses their model; plans are shared by the fetches of one selection (`SQLiteDecodingPlans`).
    fileprivate final class Plan: @unchecked Sendable {
        let slotLayout: PropertySlotLayout
        /// What the entity's object IDs in this store share (the entity among it): rows name their
        /// objects by it.
        let scope: ObjectIDScope
        /// The number columns, written straight into a new row's slots.
        let slotSteps: [SlotStep]
        /// Every other column, set by name afterwards.
        let steps: [Step]

        init(slotLayout: PropertySlotLayout, scope: ObjectIDScope, slotSteps: [SlotStep], steps: [Step]) {
            self.slotLayout = slotLayout
            self.scope = scope
            self.slotSteps = slotSteps
            self.steps = steps
        }
    }

    private let store: SQLiteStore
    /// The statement whose rows are decoded: unboxed columns are read from it directly.
    private let handle: SQLiteStatement
    private let columns: [SQLiteResultColumn]
    /// What the IDs of the fetched rows share: the store and its identifier.
    private let storeReference: ObjectIDStoreReference
    private let coordinator: NSPersistentStoreCoordinator?
    private let primaryKeyIndex: Int?
    private let entityNumberIndex: Int?
    /// The entity number of every row, when the query selects no `Z_ENT` to read it from.
    private let fixedEntityNumber: Int64?
    private let versionIndex: Int?
    private var plans: [Int64: Plan] = [:]
    /// The plan of the previous row (rows of one entity usually come together), held by `plans`.
    private var lastPlan: (number: Int64, plan: Unmanaged<Plan>)?
    /// The plans earlier fetches of the same columns made, taken before making one.
    private let sharedPlans: SQLiteDecodingPlans?

    /// A decoder for the rows of `statement`, which selects `columns`; `sharedPlans`, when given, are
    /// the plans of every fetch of exactly these columns from this store.
    init(store: SQLiteStore, statement: Statement, columns: [SQLiteResultColumn], sharedPlans: SQLiteDecodingPlans? = nil) {
        self.store = store
        self.sharedPlans = sharedPlans
        handle = statement.sqliteStatement
        self.columns = columns
        storeReference = store._objectIDReference
        coordinator = store.persistentStoreCoordinator
        primaryKeyIndex = columns.first { $0.role == .primaryKey }?.index
        entityNumberIndex = columns.first { $0.role == .entityNumber }?.index
        fixedEntityNumber =
            columns.lazy.compactMap { column -> Int64? in
                if case let .fixedEntityNumber(number) = column.role { return number }
                return nil
            }.first
        versionIndex = columns.first { $0.role == .version }?.index
    }

    /// The store row of one result row.
    func decode(_ row: Row) throws -> StoreRow {
        let pk: Int64 = try primaryKeyIndex.map { try integer(at: $0) ?? row.requiredStoredInteger(atIndex: $0) } ?? 0
        let number: Int64 =
            try fixedEntityNumber
            ?? entityNumberIndex.flatMap { try integer(at: $0) ?? row.storedInteger(atIndex: $0) } ?? 0
        let version: Int64 = try versionIndex.flatMap { try integer(at: $0) ?? row.storedInteger(atIndex: $0) } ?? 0
        // Unretained: `plans` keeps every plan until the decoder goes away.
        return try plan(for: number).withBorrowedReference { plan in
            var values = PropertyValues(layout: plan.slotLayout) { slots in
                for step in plan.slotSteps { slotValue(step, of: row, into: slots) }
            }
            if !plan.steps.isEmpty { try readOtherColumns(of: row, with: plan, into: &values) }
            // No ID yet: the row's object makes one when asked for it.
            return StoreRow(identity: .row(plan.scope, primaryKey: pk), version: version, values: values)
        }
    }

    /// Reads the columns that are not numbers written into slots: other attributes, composite elements
    /// and to-one relationships' keys.
    private func readOtherColumns(of row: Row, with plan: Plan, into values: inout PropertyValues) throws {
        for step in plan.steps {
            switch step {
            case let .attribute(index, name, attribute, external):
                let dbValue: DatabaseValue = row[index]
                if let value = try read(dbValue, attribute: attribute, external: external) { values[name] = value }
            case let .compositeElement(index, name, path, element):
                let dbValue: DatabaseValue = row[index]
                guard let value = try store.readValue(from: dbValue, attribute: element, coordinator: coordinator) else { continue }
                var dictionary = values[name] as? [String: Any] ?? [:]
                SQLiteCompositeValues.insert(value, at: path[...], into: &dictionary)
                values[name] = dictionary
            case let .toOne(step):
                guard let key = try integer(at: step.keyIndex) ?? row.storedInteger(atIndex: step.keyIndex) else { continue }
                let id: NSManagedObjectID
                if let entityIndex = step.entityIndex, let number = try integer(at: entityIndex) ?? row.storedInteger(atIndex: entityIndex),
                    number != step.destinationNumber
                {
                    id = NSManagedObjectID(entity: try store.entity(number: number), store: storeReference, primaryKey: key)
                } else {
                    id = step.destination.objectID(primaryKey: key)
                }
                if let slot = step.slot {
                    values.slots[slot] = PropertySlot(id)
                } else {
                    values[step.name] = id
                }
            }
        }
    }

    /// The value of a bookkeeping column when it holds an integer, as it does in every undamaged store;
    /// `nil` sends the caller to the checked read, which reports damage.
    @inline(__always)
    private func integer(at index: Int) -> Int64? {
        let value = columnValue(Int32(index))
        guard sqlite3_value_type(value) == SQLITE_INTEGER else { return nil }
        return sqlite3_value_int64(value)
    }

    /// The value in a column of the current row.
    ///
    /// Of the calls that read a column, only this one takes the connection's mutex: the value's integer,
    /// and its type when needed, are then read without taking it again, where each `sqlite3_column_*`
    /// function takes it once more. The value is read at once, on the connection's queue where the whole
    /// fetch runs, so no other thread can use the connection meanwhile (what SQLite asks of the
    /// unprotected values this function returns).
    @inline(__always)
    private func columnValue(_ index: Int32) -> OpaquePointer? {
        sqlite3_column_value(handle, index)
    }

    /// Writes a number column's value into its slot. NULL stays absent. An Integer 16, 32 or 64 column
    /// takes SQLite's own integer of the value (`sqlite3_value_int64`), cut to the attribute's width, and
    /// asks the value's type only when that is 0. A Double column takes an integer or a real as it is.
    /// Anything else is converted by the general rules (rare).
    @inline(__always)
    private func slotValue(_ step: SlotStep, of row: Row, into slots: UnsafeMutableBufferPointer<PropertySlot>) {
        let value = columnValue(step.column)
        let integer: Int64
        switch step.kind {
        case .double:
            let type = sqlite3_value_type(value)
            if type == SQLITE_NULL { return }
            guard type == SQLITE_INTEGER || type == SQLITE_FLOAT else { return convertedSlotValue(step, of: row, into: slots) }
            return put(.double(sqlite3_value_double(value)), at: step.slot, in: slots)
        case .integer64:
            integer = sqlite3_value_int64(value)
        case .integer32:
            integer = Int64(Int32(truncatingIfNeeded: sqlite3_value_int64(value)))
        case .integer16:
            integer = Int64(Int16(truncatingIfNeeded: sqlite3_value_int64(value)))
        }
        // SQLite reads any storage class as an integer, as the general rules do (`SQLiteIntegerReading`),
        // so an integer other than 0 needs no type. A zero does: NULL, an integer zero, and a value the
        // rules may read as `nil` all read as 0. Asking every column's type took a call of its own for
        // every column of every row.
        if integer == 0 {
            let type = sqlite3_value_type(value)
            if type == SQLITE_NULL { return }
            if type != SQLITE_INTEGER { return convertedSlotValue(step, of: row, into: slots) }
        }
        put(.integer(integer), at: step.slot, in: slots)
    }

    /// Writes a number column's value of another storage class into its slot, converted by the general
    /// rules: for an integer column, a value SQLite reads as 0 (text or a blob, which may read as `nil`,
    /// or a real); for a Double column, text or a blob.
    @inline(never)
    private func convertedSlotValue(_ step: SlotStep, of row: Row, into slots: UnsafeMutableBufferPointer<PropertySlot>) {
        let dbValue: DatabaseValue = row[Int(step.column)]
        let value = SQLiteValueEncoding.value(from: dbValue, attributeType: step.kind.attributeType)
        slots[step.slot] = PropertySlot(canonical: value, kind: step.kind == .double ? .double : .integer)
    }

    /// Writes a number into a slot that is still `.absent`, as every slot of a new row starts: the slot
    /// holds nothing to release, so it is overwritten without the enum's destroy.
    @inline(__always)
    private func put(_ value: PropertySlot, at slot: Int, in slots: UnsafeMutableBufferPointer<PropertySlot>) {
        (slots.baseAddress.unsafelyAssumedValue + slot).initialize(to: value)
    }

    /// An attribute's value, as `SQLiteStore.readValue` reads it.
    private func read(_ dbValue: DatabaseValue, attribute: NSAttributeDescription, external: Bool) throws -> Any? {
        if external { return try store.readValue(from: dbValue, attribute: attribute, coordinator: coordinator) }
        switch attribute.attributeType {
        case .transformableAttributeType, .objectIDAttributeType:
            return try store.readValue(from: dbValue, attribute: attribute, coordinator: coordinator)
        default:
            return SQLiteValueEncoding.value(from: dbValue, attributeType: attribute.attributeType)
        }
    }

    /// The plan for rows of the entity with the given number, made on its first row; `plans` keeps it.
    @inline(__always)
    private func plan(for number: Int64) throws -> Unmanaged<Plan> {
        if let lastPlan, lastPlan.number == number { return lastPlan.plan }
        return try storedPlan(for: number)
    }

    private func storedPlan(for number: Int64) throws -> Unmanaged<Plan> {
        if let plan = plans[number] ?? sharedPlans?.plan(for: number, storeReference: storeReference) {
            plans[number] = plan
            lastPlan = (number, .passUnretained(plan))
            return .passUnretained(plan)
        }
        let plan = try makePlan(for: number)
        sharedPlans?.keep(plan, for: number, storeReference: storeReference)
        plans[number] = plan
        lastPlan = (number, .passUnretained(plan))
        return .passUnretained(plan)
    }

    /// Works out how rows of the entity with the given number are read from the columns.
    private func makePlan(for number: Int64) throws -> Plan {
        let entity = try store.entity(number: number)
        let entityName = entity.name ?? ""
        let attributes = store.attributes(of: entity)
        let slotLayout = entity._slotLayout
        var slotSteps: [SlotStep] = []
        var steps: [Step] = []
        let relationships = store.relationships(of: entity)
        // The entity-number column of each to-one relationship that has one.
        var entityColumns: [String: Int] = [:]
        for column in columns where column.entities.isEmpty || column.entities.contains(entityName) {
            if case let .toOneEntity(relationship) = column.role { entityColumns[relationship] = column.index }
        }
        for column in columns where column.entities.isEmpty || column.entities.contains(entityName) {
            switch column.role {
            case let .attribute(name, _) where name.contains("."):
                let components = name.split(separator: ".")
                guard let composite = attributes[String(components[0])] as? NSCompositeAttributeDescription,
                    let element = SQLiteCompositeValues.element(at: components.dropFirst(), in: composite)
                else { continue }
                steps.append(
                    .compositeElement(
                        index: column.index, name: String(components[0]),
                        path: Array(components.dropFirst()), element: element))
            case let .attribute(name, _):
                guard let attribute = attributes[name] else { continue }
                let external = ExternalBinaryStorage.applies(to: attribute)
                if !external, let kind = SlotStep.Kind(attribute.attributeType), let slot = slotLayout.index(of: name) {
                    slotSteps.append(SlotStep(column: Int32(column.index), kind: kind, slot: slot))
                    continue
                }
                steps.append(.attribute(index: column.index, name: name, attribute: attribute, external: external))
            case let .toOneKey(name):
                guard let destination = relationships[name]?.destinationEntity else { continue }
                steps.append(
                    .toOne(
                        ToOneStep(
                            keyIndex: column.index, entityIndex: entityColumns[name], name: name,
                            slot: slotLayout.index(of: name),
                            destination: ObjectIDScope(entity: destination, store: storeReference),
                            destinationNumber: Int64(try store.layout(of: destination).number))))
            default:
                break
            }
        }
        return Plan(
            slotLayout: slotLayout,
            scope: ObjectIDScope(entity: entity, store: storeReference),
            slotSteps: slotSteps, steps: steps)
    }
}

/// The decoding plans of one selection of columns from one store, by entity number, kept across fetches.
///
/// A plan depends on the columns, the entity and the store's layout, which stay as they are for as long
/// as the selection does (``SQLiteRowSelection``), and on what the store's object IDs share, which
/// changes with the store's identifier: a plan made for another ``ObjectIDStoreReference`` is made again.
// @unchecked Sendable: `plans` is read and changed only through its lock (`LockedValue`); the plans are
// immutable.
final class SQLiteDecodingPlans: @unchecked Sendable {
    /// Each plan with the reference it was made for, held so that a later reference cannot take its
    /// address and pass for it.
    private let plans = LockedValue<[Int64: (reference: ObjectIDStoreReference, plan: SQLiteFetchRowDecoder.Plan)]>([:])

    /// The plan kept for the entity with the given number, when it was made for `storeReference`.
    fileprivate func plan(for number: Int64, storeReference: ObjectIDStoreReference) -> SQLiteFetchRowDecoder.Plan? {
        plans.withLock { plans in
            guard let kept = plans[number], kept.reference === storeReference else { return nil }
            return kept.plan
        }
    }

    /// Keeps a plan for the entity with the given number, made for `storeReference`.
    fileprivate func keep(_ plan: SQLiteFetchRowDecoder.Plan, for number: Int64, storeReference: ObjectIDStoreReference) {
        plans.withLock { $0[number] = (storeReference, plan) }
    }
}
