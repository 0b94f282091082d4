/// The value last computed for an entity.
///
/// Fetches and saves meet objects in runs of one entity: keeping the last entity's value spares a
/// lookup (or a computation) per object, for the price of an identity check.
struct EntityRunMemo<Value> {
    /// The entity last asked about, kept alive so that its identity is not reused.
    private var lastEntity: NSEntityDescription?
    private var lastIdentity: ObjectIdentifier?
    private var lastValue: Value?

    init() {}

    /// The value for `entity`: the kept one when `entity` is the entity last asked about, otherwise
    /// `compute`'s, which is then kept.
    @inline(__always)
    mutating func value(for entity: NSEntityDescription, _ compute: (NSEntityDescription) throws -> Value) rethrows -> Value {
        // Compared by identity, without copying (retaining) the kept entity.
        if lastIdentity == ObjectIdentifier(entity), let lastValue { return lastValue }
        let value = try compute(entity)
        lastEntity = entity
        lastIdentity = ObjectIdentifier(entity)
        lastValue = value
        return value
    }
}
