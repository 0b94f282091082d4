extension NSEntityDescription {
    /// Stops the program when the entity is abstract: Core Data raises when code creates an instance of
    /// an abstract entity, because only its concrete sub-entities have objects.
    func _requireInstantiable() {
        guard isAbstract else { return }
        let concrete = _subentities.filter { !$0.isAbstract }.compactMap(\.name)
        preconditionFailure(
            "Cannot create an instance of the abstract entity \(name ?? "?")"
                + (concrete.isEmpty ? "." : "; create an instance of one of its sub-entities (\(concrete.joined(separator: ", "))) instead."))
    }
}
