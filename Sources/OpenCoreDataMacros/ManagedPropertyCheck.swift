import SwiftDiagnostics
import SwiftSyntax

/// Decides whether a declaration marked `@Managed` can become a managed property, and finds its key.
///
/// A managed property is a single stored-looking instance `var` with a type annotation and nothing
/// else: no initial value (defaults live in the data model), no accessors or observers, not `static`,
/// `class`, `lazy`, `weak` or `unowned`, declared in a class or an extension (where an
/// `NSManagedObject` subclass keeps its properties). Every rule a declaration breaks becomes one error.
struct ManagedPropertyCheck {
    /// The errors found, in source order of the rules; empty when the declaration is a managed property.
    private(set) var diagnostics: [Diagnostic] = []
    /// The key the property reads and writes: its name without backticks. `nil` when there is no single name.
    private(set) var key: String?

    init(attribute: AttributeSyntax, declaration: some DeclSyntaxProtocol, lexicalContext: [Syntax]) {
        guard let variable = declaration.as(VariableDeclSyntax.self) else {
            diagnose(attribute, .notAVariable, fixIt: removal(of: attribute, message: .removeAttribute))
            return
        }
        if let place = Self.disallowedPlace(lexicalContext) {
            diagnose(attribute, .notInClass(place), fixIt: removal(of: attribute, message: .removeAttribute))
        }
        guard variable.bindings.count == 1, let binding = variable.bindings.first else {
            if let second = variable.bindings.dropFirst().first {
                diagnose(second, .multipleBindings)
            }
            return
        }
        guard let pattern = binding.pattern.as(IdentifierPatternSyntax.self) else {
            diagnose(binding.pattern, .notASimpleName)
            return
        }
        let name = pattern.identifier.identifier?.name ?? pattern.identifier.text

        checkSpecifier(of: variable, name: name)
        checkModifiers(of: variable, name: name)
        checkAccessors(of: binding, attribute: attribute, name: name)
        checkType(of: binding, pattern: pattern, name: name)
        checkInitializer(of: binding, name: name)
        key = name
    }

    // MARK: Rules

    private mutating func checkSpecifier(of variable: VariableDeclSyntax, name: String) {
        let specifier = variable.bindingSpecifier
        guard specifier.tokenKind != .keyword(.var) else { return }
        let fixIt = FixIt(
            message: ManagedFixItMessage.replaceLetWithVar,
            changes: [.replace(oldNode: Syntax(specifier), newNode: Syntax(specifier.with(\.tokenKind, .keyword(.var))))]
        )
        diagnose(specifier, .letProperty(name: name), fixIt: fixIt)
    }

    private mutating func checkModifiers(of variable: VariableDeclSyntax, name: String) {
        for modifier in variable.modifiers {
            let keyword = modifier.name.text
            switch modifier.name.tokenKind {
            case .keyword(.static), .keyword(.class):
                diagnose(
                    modifier, .typeProperty(name: name, modifier: keyword),
                    fixIt: removal(of: modifier, message: .remove(keyword)))
            case .keyword(.lazy), .keyword(.weak), .keyword(.unowned):
                diagnose(
                    modifier, .disallowedModifier(name: name, modifier: keyword),
                    fixIt: removal(of: modifier, message: .remove(keyword)))
            default:
                continue
            }
        }
    }

    private mutating func checkAccessors(of binding: PatternBindingSyntax, attribute: AttributeSyntax, name: String) {
        guard let block = binding.accessorBlock else { return }
        if Self.isObserversOnly(block) {
            diagnose(block, .observers(name: name), fixIt: trailingRemoval(of: block, message: .removeObservers))
        } else {
            diagnose(block, .computed(name: name), fixIt: removal(of: attribute, message: .removeAttribute))
        }
    }

    private mutating func checkType(of binding: PatternBindingSyntax, pattern: IdentifierPatternSyntax, name: String) {
        guard binding.typeAnnotation == nil else { return }
        // With an initial value present, the fix-it for the value is the one to apply first; adding
        // a type there would edit the same text.
        var fixIt: FixIt?
        if binding.initializer == nil {
            let end = pattern.endPositionBeforeTrailingTrivia
            fixIt = FixIt(
                message: ManagedFixItMessage.addTypeAnnotation,
                changes: [.replaceText(range: end..<end, with: ": <#Type#>", in: Syntax(pattern))]
            )
        }
        diagnose(pattern, .missingType(name: name), fixIt: fixIt)
    }

    private mutating func checkInitializer(of binding: PatternBindingSyntax, name: String) {
        guard let initializer = binding.initializer else { return }
        diagnose(
            initializer, .initialValue(name: name),
            fixIt: trailingRemoval(of: initializer, message: .removeInitialValue))
    }

    // MARK: Where the property is

    /// Describes the place of a property that is not in a class or an extension; `nil` when it is.
    private static func disallowedPlace(_ lexicalContext: [Syntax]) -> String? {
        guard let innermost = lexicalContext.first else {
            return "a global variable"
        }
        if innermost.is(ClassDeclSyntax.self) || innermost.is(ExtensionDeclSyntax.self) {
            return nil
        }
        if let type = innermost.as(StructDeclSyntax.self) {
            return "in struct '\(type.name.text)'"
        }
        if let type = innermost.as(EnumDeclSyntax.self) {
            return "in enum '\(type.name.text)'"
        }
        if let type = innermost.as(ActorDeclSyntax.self) {
            return "in actor '\(type.name.text)'"
        }
        if let type = innermost.as(ProtocolDeclSyntax.self) {
            return "in protocol '\(type.name.text)'"
        }
        return "a local variable"
    }

    /// Whether an accessor block holds only `willSet` / `didSet` observers.
    private static func isObserversOnly(_ block: AccessorBlockSyntax) -> Bool {
        guard case .accessors(let accessors) = block.accessors, !accessors.isEmpty else {
            return false
        }
        return accessors.allSatisfy {
            $0.accessorSpecifier.tokenKind == .keyword(.willSet) || $0.accessorSpecifier.tokenKind == .keyword(.didSet)
        }
    }

    // MARK: Reporting

    private mutating func diagnose(_ node: some SyntaxProtocol, _ message: ManagedMacroMessage, fixIt: FixIt? = nil) {
        diagnostics.append(Diagnostic(node: Syntax(node), message: message, fixIts: fixIt.map { [$0] } ?? []))
    }

    /// A fix-it deleting `node` with the whitespace after it, keeping what stands before it.
    private func removal(of node: some SyntaxProtocol, message: ManagedFixItMessage) -> FixIt {
        let range = node.positionAfterSkippingLeadingTrivia..<node.endPosition
        return FixIt(message: message, changes: [.replaceText(range: range, with: "", in: Syntax(node))])
    }

    /// A fix-it deleting `node` with the whitespace between it and the token before it, for clauses
    /// that end a declaration (`= 0`, `{ didSet { … } }`).
    private func trailingRemoval(of node: some SyntaxProtocol, message: ManagedFixItMessage) -> FixIt {
        let start =
            node.previousToken(viewMode: .sourceAccurate)?.endPositionBeforeTrailingTrivia
            ?? node.positionAfterSkippingLeadingTrivia
        let range = start..<node.endPositionBeforeTrailingTrivia
        return FixIt(message: message, changes: [.replaceText(range: range, with: "", in: Syntax(node))])
    }
}
