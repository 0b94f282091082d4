extension NSExpression {
    /// Returns the value of the expression for `object` in `scope`.
    func evaluate(_ object: Any?, in scope: EvaluationScope) -> Any? {
        switch storage {
        case .constant(let value):
            return EvaluationValues.flatten(value)
        case .evaluatedObject:
            return EvaluationValues.flatten(object)
        case .variable(let name):
            return scope.value(ofVariable: name)
        case .keyPath(let path, let operand):
            let base = operand.evaluate(object, in: scope)
            if let coding = base as? KeyValueCoding { return EvaluationValues.flatten(coding.value(forKeyPath: path)) }
            return KeyValueAccess.value(of: base, forKeyPath: path)
        case .function(let name, let arguments):
            if name == FetchExpression.functionName { return FetchExpression.evaluate(arguments.map { $0.evaluate(object, in: scope) }) }
            return ExpressionFunctions.evaluate(name, arguments.map { $0.evaluate(object, in: scope) })
        case .method(let receiver, let selector, let arguments):
            return MethodCall.call(
                selector, on: receiver.evaluate(object, in: scope),
                arguments: arguments.map { $0.evaluate(object, in: scope) })
        case .unionSet(let left, let right):
            guard let a = collection(left, object, scope), let b = collection(right, object, scope) else { return nil }
            return EvaluationValues.distinct(a + b)
        case .intersectSet(let left, let right):
            guard let a = collection(left, object, scope), let b = collection(right, object, scope) else { return nil }
            return EvaluationValues.distinct(a.filter { x in b.contains { ValueComparison.isEqual(x, $0, options: []) } })
        case .minusSet(let left, let right):
            guard let a = collection(left, object, scope), let b = collection(right, object, scope) else { return nil }
            return EvaluationValues.distinct(a.filter { x in !b.contains { ValueComparison.isEqual(x, $0, options: []) } })
        case .subquery(let collectionExpression, let variable, let predicate):
            guard let elements = collection(collectionExpression, object, scope) else { return nil }
            return elements.filter { element in
                predicate.evaluate(element, in: scope.binding(variable, to: element))
            }
        case .aggregate(let subexpressions):
            return subexpressions.map { $0.evaluate(object, in: scope) ?? NSNull() }
        case .anyKey:
            return AnyKey.values(of: object)
        case .block(let block, let arguments):
            let values = (arguments ?? []).map { $0.evaluate(object, in: scope) ?? NSNull() }
            return EvaluationValues.flatten(block(object, values, scope.context))
        case .conditional(let predicate, let whenTrue, let whenFalse):
            return predicate.evaluate(object, in: scope)
                ? whenTrue.evaluate(object, in: scope) : whenFalse.evaluate(object, in: scope)
        }
    }

    private func collection(_ expression: NSExpression, _ object: Any?, _ scope: EvaluationScope) -> [Any]? {
        let value = expression.evaluate(object, in: scope)
        if value == nil { return [] }
        return EvaluationValues.elements(of: value)
    }

    /// Returns the expression with free `$VARIABLE`s present in `variables` replaced by constants.
    func substituting(_ variables: [String: Any], bound: Set<String>) -> NSExpression {
        func sub(_ e: NSExpression) -> NSExpression { e.substituting(variables, bound: bound) }
        switch storage {
        case .constant, .evaluatedObject, .anyKey:
            return self
        case .variable(let name):
            guard !bound.contains(name), let value = variables[name] else { return self }
            return NSExpression(forConstantValue: value)
        case .keyPath(let path, let operand):
            return NSExpression(storage: .keyPath(path, operand: sub(operand)))
        case .function(let name, let arguments):
            return NSExpression(storage: .function(name, arguments: arguments.map(sub)))
        case .method(let receiver, let selector, let arguments):
            return NSExpression(storage: .method(receiver: sub(receiver), selector: selector, arguments: arguments.map(sub)))
        case .unionSet(let l, let r): return NSExpression(storage: .unionSet(sub(l), sub(r)))
        case .intersectSet(let l, let r): return NSExpression(storage: .intersectSet(sub(l), sub(r)))
        case .minusSet(let l, let r): return NSExpression(storage: .minusSet(sub(l), sub(r)))
        case .subquery(let collection, let variable, let predicate):
            var inner = bound
            inner.insert(variable)
            return NSExpression(
                storage: .subquery(
                    sub(collection), variable: variable,
                    predicate: predicate.substituting(variables, bound: inner)))
        case .aggregate(let subexpressions):
            return NSExpression(storage: .aggregate(subexpressions.map(sub)))
        case .block(let block, let arguments):
            return NSExpression(storage: .block(block, arguments: arguments?.map(sub)))
        case .conditional(let predicate, let t, let f):
            return NSExpression(storage: .conditional(predicate.substituting(variables, bound: bound), sub(t), sub(f)))
        }
    }
}

/// `ANYKEY`: the values of every key of the evaluated object.
enum AnyKey {
    static func values(of object: Any?) -> [Any] {
        guard let object = EvaluationValues.flatten(object) else { return [] }
        if let dictionary = object as? any AnyKeyedLookup { return dictionary.anyValues }
        if type(of: object) is NSDictionary.Type, let dictionary = object as? NSDictionary { return dictionary.allValues }
        var values: [Any] = []
        var mirror: Mirror? = Mirror(reflecting: object)
        while let current = mirror {
            values += current.children.compactMap { EvaluationValues.flatten($0.value) }
            mirror = current.superclassMirror
        }
        return values
    }
}

/// `FUNCTION(receiver, 'selector:', args…)` on Linux, where no Objective-C message can be sent.
enum MethodCall {
    /// Calls a method by selector name: `valueForKey:` and `valueForKeyPath:`, built-in functions (with the
    /// receiver as their first argument), a few Foundation string methods, and argument-less selectors,
    /// read as keys.
    static func call(_ selector: String, on receiver: Any?, arguments: [Any?]) -> Any? {
        if let object = EvaluationValues.flatten(receiver) as? ExpressionMethodReceiver,
            case .handled(let value) = object._expressionMethod(selector, arguments: arguments)
        {
            return value
        }
        if selector == "valueForKeyPath:" || selector == "valueForKey:" {
            guard arguments.count == 1, let path = arguments[0].flatMap(ValueComparison.string) else { return nil }
            if selector == "valueForKey:" { return KeyValueAccess.value(of: receiver, forKey: path) }
            if let coding = EvaluationValues.flatten(receiver) as? KeyValueCoding {
                return EvaluationValues.flatten(coding.value(forKeyPath: path))
            }
            return KeyValueAccess.value(of: receiver, forKeyPath: path)
        }
        if let arity = ExpressionFunctions.arity(of: selector), arity == arguments.count + 1 || (arity == -1) {
            return ExpressionFunctions.evaluate(selector, [receiver] + arguments)
        }
        if let string = receiver.flatMap({ EvaluationValues.flatten($0) }).flatMap(ValueComparison.string) {
            switch selector {
            case "stringByAppendingString:":
                return arguments.first.flatMap { $0 }.flatMap(ValueComparison.string).map { string + $0 }
            case "uppercaseString": return string.uppercased()
            case "lowercaseString": return string.lowercased()
            case "length": return string.utf16.count
            default: break
            }
        }
        guard !selector.contains(":"), arguments.isEmpty else { return nil }
        return KeyValueAccess.value(of: receiver, forKey: selector)
    }
}
