extension NSManagedObjectContext {
    /// Gives the context's objects the derived values the store computed itself while writing a save
    /// (the derived-attribute triggers of an Apple-written SQLite store), so that objects hold what the
    /// file holds. Values that differ from an object's replace its value and its snapshot without
    /// counting as a change; faults and objects the context does not hold are left alone (they read the
    /// file when next used).
    func _adoptStoreDerivedValues(_ values: [StoreDerivedValue]) {
        for derived in values {
            guard let object = registry[derived.objectID], !object._isFault, !object._isDeleted else { continue }
            if !PropertyValueEquality.equal(derived.value, object.storage[derived.name]) {
                object.storage[derived.name] = derived.value
            }
            object.snapshot[derived.name] = derived.value
        }
    }
}
