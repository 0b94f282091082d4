import Foundation

/// One element of a model file's XML, as read: its name, attributes, children and source line.
struct ModelXMLElement: Sendable {
    /// The element name, e.g. `entity`.
    var name: String
    /// The element's XML attributes.
    var attributes: [String: String]
    /// Child elements, in document order.
    var children: [ModelXMLElement]
    /// The 1-based line where the element starts (0 when the parser could not tell).
    var line: Int

    /// The value of the XML attribute `key`.
    subscript(_ key: String) -> String? { attributes[key] }

    /// Children named `name`, in document order.
    func children(named name: String) -> [ModelXMLElement] {
        children.filter { $0.name == name }
    }

    /// The first child named `name`.
    func child(named name: String) -> ModelXMLElement? {
        children.first { $0.name == name }
    }

    /// Whether the XML attribute `key` holds Xcode's `YES` (also `true` or `1`).
    func flag(_ key: String) -> Bool {
        guard let value = attributes[key] else { return false }
        switch value.lowercased() {
        case "yes", "true", "1": return true
        default: return false
        }
    }
}
