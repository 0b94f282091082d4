/// Finding the `NSEntityMigrationPolicy` subclass an entity mapping names.
///
/// Linux has no Objective-C runtime to look a class up by name. A name is resolved, in order, among the
/// classes registered with ``NSEntityMigrationPolicy/register(_:forClassName:)`` (by the name given, the
/// module-qualified class name, and the bare class name), then as a module-qualified Swift class name
/// (`MyApp.BookToBookV2MigrationPolicy`). Xcode's `$(PRODUCT_MODULE_NAME).` prefix matches any module.
// @unchecked Sendable: `classes` is only read or written with `lock` held.
final class MigrationPolicyRegistry: @unchecked Sendable {
    static let shared = MigrationPolicyRegistry()
    private let lock = NSLock()
    private var classes: [String: NSEntityMigrationPolicy.Type] = [:]

    /// Registers `type` under `name` (when given), its module-qualified name and its bare name.
    func register(_ type: NSEntityMigrationPolicy.Type, name: String?) {
        let qualified = String(reflecting: type)
        let bare = qualified.split(separator: ".").last.map(String.init) ?? qualified
        lock.withLock {
            for key in [name, qualified, bare].compactMap({ $0 }) { classes[key] = type }
        }
    }

    /// The policy class a mapping names, or `nil` when no class by that name is known.
    func policyClass(named name: String) -> NSEntityMigrationPolicy.Type? {
        var trimmed = name.trimmingCharacters(in: .whitespaces)
        let modulePlaceholder = "$(PRODUCT_MODULE_NAME)."
        if trimmed.hasPrefix(modulePlaceholder) { trimmed.removeFirst(modulePlaceholder.count) }
        let bare = trimmed.split(separator: ".").last.map(String.init) ?? trimmed
        let registered = lock.withLock { classes[trimmed] ?? classes[bare] }
        if let registered { return registered }
        if let type = TypeNameLookup.type(named: trimmed) as? NSEntityMigrationPolicy.Type { return type }
        return nil
    }
}
