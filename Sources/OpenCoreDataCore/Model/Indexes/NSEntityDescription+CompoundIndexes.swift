import Foundation

extension NSEntityDescription {
    /// The name a compound index takes among the entity's fetch indexes: `compoundIndex` followed by its
    /// 1-based position, as a model file's `<compoundIndexes>` element gives it.
    static func _compoundIndexName(_ position: Int) -> String { "compoundIndex\(position)" }

    /// The compound indexes of the entity: each element is an array of the properties (attribute
    /// descriptions, or their names) indexed together.
    ///
    /// Each compound index is a binary, ascending fetch index among ``indexes``, named `compoundIndex`
    /// followed by its 1-based position; setting this property replaces those and keeps the other fetch
    /// indexes. Reading it gives each element as a property description when the entity has the property,
    /// and as a name otherwise.
    @available(*, deprecated, message: "Use indexes (NSFetchIndexDescription) instead")
    public var compoundIndexes: [[Any]] {
        get {
            indexes.filter(\._isCompoundIndex).map { index -> [Any] in
                index.elements.map { element -> Any in element.property ?? element.propertyName ?? "" }
            }
        }
        set {
            var kept = indexes.filter { !$0._isCompoundIndex }
            for (offset, items) in newValue.enumerated() {
                let elements = items.compactMap { item -> NSFetchIndexElementDescription? in
                    if let property = item as? NSPropertyDescription {
                        return NSFetchIndexElementDescription(property: property, collationType: .binary)
                    }
                    if let name = (item as? String) ?? (item as? NSString).map({ $0 as String }) {
                        return NSFetchIndexElementDescription(propertyName: name, collationType: .binary)
                    }
                    return nil
                }
                kept.append(NSFetchIndexDescription(name: Self._compoundIndexName(offset + 1), elements: elements))
            }
            indexes = kept
        }
    }
}

extension NSFetchIndexDescription {
    /// Whether the index is one of its entity's compound indexes (named `compoundIndex` and a position).
    var _isCompoundIndex: Bool {
        name.hasPrefix("compoundIndex") && Int(name.dropFirst("compoundIndex".count)) != nil
    }
}
