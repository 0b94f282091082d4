import Foundation

// `values[0]` on an array and `table["key"]` on a dictionary, as the function `objectFrom:withIndex:` that
// the format language's subscripts make. Apple's conversion converts an index subscript only on arrays.

/// The collections whose index subscript converts: arrays.
protocol TypedPredicateIndexedCollection {}

extension Array: TypedPredicateIndexedCollection {}

extension PredicateExpressions.CollectionIndexSubscript: TypedPredicateNode
where Wrapped.Output: TypedPredicateIndexedCollection {
    /// `$0.values[0]` becomes `values[0]`.
    func converted(in conversion: TypedPredicateConversion) throws -> TypedPredicateConverted {
        .expression(
            PredicateFormatSubscripts.expression(
                try conversion.expression(wrapped),
                index: try conversion.expression(index)))
    }
}

extension PredicateExpressions.DictionaryKeySubscript: TypedPredicateNode {
    /// `$0.table["a"]` becomes `table["a"]`.
    func converted(in conversion: TypedPredicateConversion) throws -> TypedPredicateConverted {
        .expression(
            PredicateFormatSubscripts.expression(
                try conversion.expression(wrapped),
                index: try conversion.expression(key)))
    }
}
