/// The kinds of change a set-valued property undergoes, as key-value observing names them (Foundation on
/// Linux has no key-value observing, so OpenCoreData declares the type with Apple's cases and values).
public enum NSKeyValueSetMutationKind: UInt, Sendable {
    /// Objects are added to the set.
    case union = 1
    /// Objects are removed from the set.
    case minus = 2
    /// The set keeps only the objects it shares with another set.
    case intersect = 3
    /// The set is replaced.
    case set = 4
}
