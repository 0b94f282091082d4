/// Finds the keys of `$source` an expression reads, so that a mapping naming a property the source
/// entity lacks fails the migration with an error instead of stopping the program (Key-Value Coding of
/// an unknown key is a programmer error for managed objects).
enum MigrationExpressionCheck {
    /// The first key of every `$source.key…` key path in `expression`.
    static func sourceKeys(in expression: NSExpression) -> [String] {
        var keys: [String] = []
        collect(expression, into: &keys)
        return keys
    }

    /// The first key `expression` reads from `$source` that `entity` does not have, if any.
    static func missingSourceKey(in expression: NSExpression, entity: NSEntityDescription) -> String? {
        sourceKeys(in: expression).first { key in
            entity.propertiesByName[key] == nil && key != "self" && !ManagedObjectBuiltInKeys.names.contains(key) && !key.hasPrefix("@")
        }
    }

    private static func collect(_ expression: NSExpression, into keys: inout [String]) {
        switch expression.storage {
        case .keyPath(let path, let operand):
            if case .variable(let name) = operand.storage, name == NSMigrationSourceObjectKey,
                let first = path.split(separator: ".").first
            {
                keys.append(String(first))
            }
            collect(operand, into: &keys)
        case .function(_, let arguments), .aggregate(let arguments):
            for argument in arguments { collect(argument, into: &keys) }
        case .method(let receiver, _, let arguments):
            collect(receiver, into: &keys)
            for argument in arguments { collect(argument, into: &keys) }
        case .unionSet(let a, let b), .intersectSet(let a, let b), .minusSet(let a, let b):
            collect(a, into: &keys)
            collect(b, into: &keys)
        case .subquery(let collection, _, _):
            collect(collection, into: &keys)
        case .conditional(_, let a, let b):
            collect(a, into: &keys)
            collect(b, into: &keys)
        case .block(_, let arguments):
            for argument in arguments ?? [] { collect(argument, into: &keys) }
        case .constant, .evaluatedObject, .variable, .anyKey:
            break
        }
    }
}
