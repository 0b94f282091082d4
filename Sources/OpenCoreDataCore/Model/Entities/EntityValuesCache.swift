import Synchronization

/// Values computed once from an entity of an immutable model and kept with its lookups.
// @unchecked Sendable: the default values are published once through `defaultValues` (an atomic
// reference written with release and read with acquire ordering: a reader that sees the box sees the
// values it was made with), and the values are immutable canonical values, never changed in place
// (objects copy them on their first change).
final class EntityValuesCache: @unchecked Sendable {
    /// The default values, boxed so that an atomic reference can hold them.
    private final class DefaultValues {
        let values: PropertyValues

        init(_ values: PropertyValues) {
            self.values = values
        }
    }

    /// The box, retained by the cache once published (released in `deinit`). An `Atomic` of an
    /// unmanaged reference rather than `AtomicLazyReference`, whose `load()` is not specialized
    /// outside its module and cost more than the lock it replaced.
    private let defaultValues = Atomic<Unmanaged<DefaultValues>?>(nil)

    /// The cached default values, computing them with `make` the first time (two threads asking at once
    /// may both compute them; the first to finish is kept).
    func defaults(_ make: () -> PropertyValues) -> PropertyValues {
        if let box = defaultValues.load(ordering: .acquiring) { return box.takeUnretainedValue().values }
        let made = Unmanaged.passRetained(DefaultValues(make()))
        let (stored, current) = defaultValues.compareExchange(expected: nil, desired: made, ordering: .acquiringAndReleasing)
        if stored { return made.takeUnretainedValue().values }
        made.release()
        return current.unsafelyAssumedValue.takeUnretainedValue().values
    }

    deinit {
        defaultValues.load(ordering: .acquiring)?.release()
    }
}
