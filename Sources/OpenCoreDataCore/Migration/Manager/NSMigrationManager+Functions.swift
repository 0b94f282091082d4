/// The methods of the migration manager that `FUNCTION($manager, "selector:", …)` expressions call.
///
/// Linux cannot send a message by selector name, so the manager answers these selectors itself:
/// - `destinationInstancesForEntityMappingNamed:sourceInstances:` — the destination instances the
///   named mapping created for a source instance or collection of source instances;
/// - `sourceInstancesForEntityMappingNamed:destinationInstances:` — the reverse;
/// - `destinationInstancesForSourceRelationshipNamed:sourceInstances:` — the destination instances any
///   mapping created for the source instances (what inferred mapping models use);
/// - `fetchRequestForSourceEntityNamed:predicateString:` — a fetch request of the source entity
///   (without subentities) whose predicate is the string, where `$source` stands for the instance, as
///   Xcode's filter predicates (`$source.height < 100`) write it;
/// - `fetchRequestForDestinationEntityNamed:predicateString:` — the same for a destination entity.
extension NSMigrationManager: ExpressionMethodReceiver {
    func _expressionMethod(_ selector: String, arguments: [Any?]) -> ExpressionMethodOutcome {
        switch selector {
        case "destinationInstancesForEntityMappingNamed:sourceInstances:":
            guard arguments.count == 2, let name = Self._string(arguments[0]) else { return .handled(nil) }
            return .handled(destinationInstances(forEntityMappingName: name, sourceInstances: Self._objects(in: arguments[1])))
        case "sourceInstancesForEntityMappingNamed:destinationInstances:":
            guard arguments.count == 2, let name = Self._string(arguments[0]) else { return .handled(nil) }
            return .handled(sourceInstances(forEntityMappingName: name, destinationInstances: Self._objects(in: arguments[1])))
        case "destinationInstancesForSourceRelationshipNamed:sourceInstances:":
            guard arguments.count == 2 else { return .handled(nil) }
            return .handled(_associations.destinations(anyMappingFor: Self._objects(in: arguments[1])))
        case "fetchRequestForSourceEntityNamed:predicateString:", "fetchRequestForDestinationEntityNamed:predicateString:":
            guard arguments.count == 2, let name = Self._string(arguments[0]) else { return .handled(nil) }
            let model = selector.hasPrefix("fetchRequestForSource") ? sourceModel : destinationModel
            guard model.entitiesByName[name] != nil else {
                _noteExpressionError(
                    Self._error(
                        NSMigrationError, "The fetch request of a source expression names the entity \(name), which the model does not have.",
                        url: nil))
                return .handled(nil)
            }
            let request = NSFetchRequest<NSManagedObject>(entityName: name)
            request.includesSubentities = false
            let text = Self._string(arguments[1]) ?? "TRUEPREDICATE"
            do {
                let predicate = try NSPredicate(validatingFormat: Self._replacingSourceVariable(in: text))
                if predicate.predicateFormat != "TRUEPREDICATE" { request.predicate = predicate }
            } catch {
                _noteExpressionError(
                    Self._error(
                        NSMigrationError, "The filter predicate \"\(text)\" of the entity \(name) cannot be read: \(error.localizedDescription)",
                        url: nil, underlying: error))
                return .handled(nil)
            }
            return .handled(request)
        default:
            return .notHandled
        }
    }

    private static func _string(_ value: Any?) -> String? {
        let value = EvaluationValues.flatten(value)
        return (value as? String) ?? (value as? NSString).map { $0 as String }
    }

    /// A filter predicate with `$source.` removed and a bare `$source` read as `SELF`, outside quoted
    /// strings: the fetch request is evaluated against each source instance.
    static func _replacingSourceVariable(in text: String) -> String {
        var result = ""
        var quote: Character?
        var index = text.startIndex
        let marker = "$source"
        while index < text.endIndex {
            let character = text[index]
            if let open = quote {
                result.append(character)
                if character == "\\" {
                    index = text.index(after: index)
                    if index < text.endIndex { result.append(text[index]) }
                } else if character == open {
                    quote = nil
                }
            } else if character == "\"" || character == "'" {
                quote = character
                result.append(character)
            } else if text[index...].hasPrefix(marker) {
                let after = text.index(index, offsetBy: marker.count)
                let next = after < text.endIndex ? text[after] : " "
                if next == "." {
                    index = text.index(after: after)
                    continue
                } else if !(next.isLetter || next.isNumber || next == "_") {
                    result += "SELF"
                    index = after
                    continue
                }
                result.append(character)
            } else {
                result.append(character)
            }
            index = text.index(after: index)
        }
        return result
    }
}
