/// Names Swift key paths as Key-Value Coding key paths (`\Item.owner?.name` → `"owner.name"`).
enum KeyPathNames {
    /// The dotted key path a Swift key path reads, or `nil` when it cannot be named: the root type is
    /// asked first (``KeyValueCoding/kvcKeyPathString(for:)``); otherwise key paths made only of stored
    /// properties are named from their description.
    static func string(for keyPath: AnyKeyPath) -> String? {
        let rootType = type(of: keyPath).rootType
        if let coding = rootType as? KeyValueCoding.Type, let name = coding.kvcKeyPathString(for: keyPath) {
            return name
        }
        let prefix = "\\" + String(describing: rootType) + "."
        let text = keyPath.debugDescription
        guard text.hasPrefix(prefix) else { return nil }
        let path = text.dropFirst(prefix.count).filter { $0 != "?" && $0 != "!" }
        let components = path.split(separator: ".", omittingEmptySubsequences: false)
        let isIdentifier: (Substring) -> Bool = { component in
            guard let first = component.first, first == "_" || first.isLetter else { return false }
            return component.allSatisfy { $0 == "_" || $0.isLetter || $0.isNumber }
        }
        guard !components.isEmpty, components.allSatisfy(isIdentifier) else { return nil }
        return components.joined(separator: ".")
    }
}
