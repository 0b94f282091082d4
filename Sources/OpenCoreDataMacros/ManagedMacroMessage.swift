import SwiftDiagnostics

/// The errors `@Managed` reports on a declaration it cannot turn into a managed property.
enum ManagedMacroMessage: DiagnosticMessage {
    /// Attached to something other than a `var` (a subscript, say).
    case notAVariable
    /// Attached to a property outside a class or class extension.
    case notInClass(String)
    /// Attached to a declaration of more than one property (`var a: Int, b: Int`).
    case multipleBindings
    /// Attached to a property whose pattern is not a single name (`var (a, b): (Int, Int)`).
    case notASimpleName
    /// Attached to a `let`.
    case letProperty(name: String)
    /// Attached to a `static` or `class` property.
    case typeProperty(name: String, modifier: String)
    /// Attached to a `lazy`, `weak` or `unowned` property.
    case disallowedModifier(name: String, modifier: String)
    /// Attached to a property without a type annotation.
    case missingType(name: String)
    /// Attached to a property with an initial value.
    case initialValue(name: String)
    /// Attached to a computed property.
    case computed(name: String)
    /// Attached to a property with `willSet` / `didSet` observers.
    case observers(name: String)

    var message: String {
        switch self {
        case .notAVariable:
            return "'@Managed' can only be applied to a 'var' property"
        case .notInClass(let place):
            return "'@Managed' is only allowed on properties of an NSManagedObject subclass or its extensions, not \(place)"
        case .multipleBindings:
            return "'@Managed' applies to one property at a time; declare each managed property with its own 'var'"
        case .notASimpleName:
            return "'@Managed' property must be a single name, not a pattern"
        case .letProperty(let name):
            return "'@Managed' property '\(name)' must be declared with 'var', not 'let'"
        case .typeProperty(let name, let modifier):
            return "'@Managed' is only allowed on instance properties; '\(name)' is '\(modifier)'"
        case .disallowedModifier(let name, let modifier):
            return "'@Managed' property '\(name)' cannot be '\(modifier)'"
        case .missingType(let name):
            return "'@Managed' property '\(name)' needs a type annotation: its declared type says how the stored value is read"
        case .initialValue(let name):
            return "'@Managed' property '\(name)' cannot have an initial value; give the attribute a default value in the data model instead"
        case .computed(let name):
            return "'@Managed' cannot be applied to computed property '\(name)'"
        case .observers(let name):
            return "'@Managed' property '\(name)' cannot have 'willSet' or 'didSet' observers"
        }
    }

    var diagnosticID: MessageID {
        let id: String
        switch self {
        case .notAVariable: id = "notAVariable"
        case .notInClass: id = "notInClass"
        case .multipleBindings: id = "multipleBindings"
        case .notASimpleName: id = "notASimpleName"
        case .letProperty: id = "letProperty"
        case .typeProperty: id = "typeProperty"
        case .disallowedModifier: id = "disallowedModifier"
        case .missingType: id = "missingType"
        case .initialValue: id = "initialValue"
        case .computed: id = "computed"
        case .observers: id = "observers"
        }
        return MessageID(domain: "OpenCoreDataMacros.Managed", id: id)
    }

    var severity: DiagnosticSeverity { .error }
}

/// The fix-its `@Managed`'s errors offer.
struct ManagedFixItMessage: FixItMessage {
    /// What the fix-it does, as an editor shows it.
    let message: String

    var fixItID: MessageID {
        MessageID(domain: "OpenCoreDataMacros.Managed", id: message)
    }

    static let removeAttribute = ManagedFixItMessage(message: "remove '@Managed'")
    static let replaceLetWithVar = ManagedFixItMessage(message: "replace 'let' with 'var'")
    static let removeInitialValue = ManagedFixItMessage(message: "remove the initial value")
    static let removeObservers = ManagedFixItMessage(message: "remove the observers")
    static let addTypeAnnotation = ManagedFixItMessage(message: "add a type annotation")

    static func remove(_ modifier: String) -> ManagedFixItMessage {
        ManagedFixItMessage(message: "remove '\(modifier)'")
    }
}
