import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// Expands `@Managed`: turns a declared property of a managed object subclass into accessors that read
/// and write the object's value for the key named like the property.
///
/// ```swift
/// @Managed var title: String
/// // becomes
/// var title: String {
///     get { managedValue(forKey: "title") }
///     set { setManagedValue(newValue, forKey: "title") }
/// }
/// ```
///
/// A declaration `@Managed` cannot turn into such a property gets an error (with a fix-it where one is
/// clear) and no accessors; see ``ManagedPropertyCheck`` for the rules.
public struct ManagedMacro: AccessorMacro {
    /// Returns the getter and setter of the managed property `declaration`, or no accessors after
    /// diagnosing why `declaration` cannot be a managed property.
    public static func expansion(
        of node: AttributeSyntax,
        providingAccessorsOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AccessorDeclSyntax] {
        let check = ManagedPropertyCheck(attribute: node, declaration: declaration, lexicalContext: context.lexicalContext)
        for diagnostic in check.diagnostics {
            context.diagnose(diagnostic)
        }
        guard check.diagnostics.isEmpty, let key = check.key else {
            return []
        }
        let keyLiteral = StringLiteralExprSyntax(content: key)
        return [
            "get { managedValue(forKey: \(keyLiteral)) }",
            "set { setManagedValue(newValue, forKey: \(keyLiteral)) }",
        ]
    }
}
