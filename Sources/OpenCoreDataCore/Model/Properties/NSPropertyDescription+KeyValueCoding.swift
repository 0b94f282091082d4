import Foundation

/// Property descriptions answer Key-Value Coding, so that predicates can read them: a fetched property's
/// request reads its own description as `$FETCHED_PROPERTY` (for example
/// `$FETCHED_PROPERTY.userInfo.minimumRating`).
extension NSPropertyDescription: KeyValueCoding {
    /// Returns the value of the description's property with the given name (`name`, `userInfo`,
    /// `isOptional`, `isTransient`, `isReadOnly`, `entity`, `validationPredicates`,
    /// `validationWarnings`, `versionHashModifier`, `renamingIdentifier`), or `nil` for other keys.
    public func value(forKey key: String) -> Any? {
        switch key {
        case "name": return name
        case "userInfo": return userInfo.map { NSDictionary(dictionary: $0) }
        case "isOptional", "optional": return isOptional
        case "isTransient", "transient": return isTransient
        case "isReadOnly", "readOnly": return isReadOnly
        case "entity": return _entity
        case "validationPredicates": return validationPredicates
        case "validationWarnings": return validationWarnings
        case "versionHashModifier": return versionHashModifier
        case "renamingIdentifier": return renamingIdentifier
        default: return nil
        }
    }
}
