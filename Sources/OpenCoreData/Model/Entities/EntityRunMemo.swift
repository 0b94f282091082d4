/// The value last computed for an entity.
///
/// Fetches and saves meet objects in runs of one entity: keeping the last entity's value spares a
/// lookup (or a computation) per object, for the price of an identity check.
struct EntityRunMemo<Value> {
    private var last: (entity: NSEntityDescription, value: Value)?

    init() {}

    /// The value for `entity`: the kept one when `entity` is the entity last asked about, otherwise
    /// `compute`'s, which is then kept.
    @inline(__always)
    mutating func value(for entity: NSEntityDescription, _ compute: (NSEntityDescription) throws -> Value) rethrows -> Value {
        if let last, last.entity === entity { return last.value }
        let value = try compute(entity)
        last = (entity, value)
        return value
    }
}
