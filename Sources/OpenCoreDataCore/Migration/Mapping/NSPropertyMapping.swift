/// How the value of one destination property is computed from a source instance during migration.
open class NSPropertyMapping: NSObject, @unchecked Sendable {
    // @unchecked Sendable: a property mapping is configured before a migration starts and only read
    // while it runs; Apple documents mapping models as not to be changed during a migration.

    /// The name of the destination property.
    open var name: String?
    /// The expression that computes the destination value, for example `$source.title`; `nil` leaves
    /// the destination property at its default value.
    open var valueExpression: NSExpression?
    /// Information about the mapping for your own use.
    open var userInfo: [AnyHashable: Any]?

    /// The source property the value comes from, when the mapping copies one (`$source.<name>`).
    var _sourcePropertyName: String?

    /// Creates an empty property mapping.
    public override init() {
        super.init()
    }

    /// A mapping that copies the source property `source` into the destination property `destination`.
    convenience init(copying source: String, into destination: String) {
        self.init()
        name = destination
        _sourcePropertyName = source
        valueExpression = NSExpression(forKeyPath: source, operand: NSExpression(forVariable: NSMigrationSourceObjectKey))
    }

    /// The source property this mapping copies: recorded by inference, or read from a value
    /// expression of the form `$source.<name>`.
    var sourcePropertyName: String? {
        if let _sourcePropertyName { return _sourcePropertyName }
        guard let expression = valueExpression else { return nil }
        let text = expression.description
        guard text.hasPrefix("$source.") else { return nil }
        let rest = String(text.dropFirst("$source.".count))
        guard !rest.isEmpty, rest.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { return nil }
        return rest
    }

    /// A description of the mapping: the destination name and its expression.
    open override var description: String {
        "\(name ?? "(unnamed)") = \(valueExpression?.description ?? "(default)")"
    }
}
