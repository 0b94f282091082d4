/// A policy that customizes how the instances of one entity mapping are migrated.
///
/// A migration manager creates one policy object for each entity mapping, of the class the mapping's
/// ``NSEntityMapping/entityMigrationPolicyClassName`` names (this class when it names none), and calls its
/// methods in three passes: instance creation (``begin(_:with:)``,
/// ``createDestinationInstances(forSource:in:manager:)`` for each source instance,
/// ``endInstanceCreation(forMapping:manager:)``), relationship creation
/// (``createRelationships(forDestination:in:manager:)`` for each destination instance,
/// ``endRelationshipCreation(forMapping:manager:)``), then validation
/// (``performCustomValidation(forMapping:manager:)`` and ``end(_:manager:)``).
///
/// Subclasses are found by name with ``register(_:forClassName:)`` or as module-qualified Swift class
/// names; `FUNCTION($entityPolicy, "selector:", …)` value expressions call
/// ``performFunction(_:with:)``, which subclasses override (Linux cannot send a message by selector name).
open class NSEntityMigrationPolicy: NSObject {
    /// The manager running the migration, while the policy is in use.
    weak var _manager: NSMigrationManager?

    /// Creates a policy; the migration manager creates one for each entity mapping.
    public required override init() {
        super.init()
    }

    /// Makes a policy subclass findable by the name an entity mapping's
    /// ``NSEntityMapping/entityMigrationPolicyClassName`` gives (an OpenCoreData addition: Linux has no
    /// Objective-C runtime to look classes up by name).
    ///
    /// The class is registered under `name` when given, under its module-qualified name
    /// (`MyApp.BookToBookV2MigrationPolicy`) and under its bare name (`BookToBookV2MigrationPolicy`).
    /// Module-qualified names of classes that were not registered are also found.
    public class func register(_ policyClass: NSEntityMigrationPolicy.Type, forClassName name: String? = nil) {
        MigrationPolicyRegistry.shared.register(policyClass, name: name)
    }

    /// Sets up state before the instances of `mapping` are created. The default does nothing.
    open func begin(_ mapping: NSEntityMapping, with manager: NSMigrationManager) throws {}

    /// Creates the destination instances for one source instance.
    ///
    /// The default inserts one instance of the mapping's destination entity into the manager's
    /// destination context, sets each attribute from its property mapping's value expression (a copy
    /// mapping without attribute mappings copies the attributes of the same names), and associates the
    /// two instances with ``NSMigrationManager/associate(sourceInstance:withDestinationInstance:for:)``.
    open func createDestinationInstances(
        forSource sInstance: NSManagedObject, in mapping: NSEntityMapping,
        manager: NSMigrationManager
    ) throws {
        try manager._createDefaultDestinationInstance(for: sInstance, mapping: mapping, policy: self)
    }

    /// Called when every destination instance of `mapping` has been created. The default does nothing.
    open func endInstanceCreation(forMapping mapping: NSEntityMapping, manager: NSMigrationManager) throws {}

    /// Sets the relationships of one destination instance.
    ///
    /// The default evaluates each relationship mapping's value expression with `$source` bound to the
    /// instance's source instance — typically
    /// `FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "BookToBook", $source.books)`
    /// — and sets the relationship to the destination instances found.
    open func createRelationships(
        forDestination dInstance: NSManagedObject, in mapping: NSEntityMapping,
        manager: NSMigrationManager
    ) throws {
        try manager._createDefaultRelationships(for: dInstance, mapping: mapping, policy: self)
    }

    /// Called when the relationships of every destination instance of `mapping` are set. The default
    /// does nothing.
    open func endRelationshipCreation(forMapping mapping: NSEntityMapping, manager: NSMigrationManager) throws {}

    /// Validates the destination instances of `mapping` beyond the model's own rules, before the
    /// destination store is saved. The default does nothing.
    open func performCustomValidation(forMapping mapping: NSEntityMapping, manager: NSMigrationManager) throws {}

    /// Called at the end of the migration of `mapping`. The default does nothing.
    open func end(_ mapping: NSEntityMapping, manager: NSMigrationManager) throws {}

    /// Returns the result of the function `selector` that a `FUNCTION($entityPolicy, "selector", …)`
    /// value expression calls, with the evaluated arguments.
    ///
    /// Override it to provide the methods your mapping model's expressions call (an OpenCoreData
    /// addition: Linux cannot send a message by selector name):
    ///
    /// ```swift
    /// override func performFunction(_ selector: String, with arguments: [Any?]) throws -> Any? {
    ///     switch selector {
    ///     case "priceWithTax:": return ((arguments.first as? Double) ?? 0) * 1.1
    ///     default: return try super.performFunction(selector, with: arguments)
    ///     }
    /// }
    /// ```
    ///
    /// - Throws: ``NSEntityMigrationPolicyError`` (134170) naming the selector: the default implements
    ///   no function.
    open func performFunction(_ selector: String, with arguments: [Any?]) throws -> Any? {
        throw NSError(
            domain: NSCocoaErrorDomain, code: NSEntityMigrationPolicyError,
            userInfo: [
                NSLocalizedDescriptionKey:
                    "The entity migration policy \(String(reflecting: type(of: self))) does not implement the function \"\(selector)\" (override performFunction(_:with:)).",
                "selector": selector,
            ])
    }
}

extension NSEntityMigrationPolicy: ExpressionMethodReceiver {
    /// `FUNCTION($entityPolicy, …)`: calls ``performFunction(_:with:)``; an error it throws is kept by
    /// the manager and fails the migration once the expression is evaluated.
    func _expressionMethod(_ selector: String, arguments: [Any?]) -> ExpressionMethodOutcome {
        do {
            return .handled(try performFunction(selector, with: arguments))
        } catch {
            _manager?._noteExpressionError(error)
            return .handled(nil)
        }
    }
}
