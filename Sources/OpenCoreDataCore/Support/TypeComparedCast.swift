/// `value` as a `U`, where the caller has just compared the two types and found them the same
/// (`Docs/Internals.md`, "Generic values reinterpreted after a type comparison").
///
/// The generic `@Managed` paths compare `Value.self` with each type they handle and convert in the
/// branch whose comparison held. In a specialization both the comparison and this cast fold away. With
/// the technique on the cast reinterprets the bits (`unsafeBitCast`), which an unspecialized call does
/// without asking the runtime; with it off (``RuntimeTechniques/reinterpretedValues``) it is the
/// checked `as!`, which fails loudly should a comparison and its cast ever disagree.
@inline(__always)
func typeComparedCast<T, U>(_ value: T, to type: U.Type) -> U {
    #if OCD_PLAIN_SWIFT || OCD_NO_REINTERPRETED_VALUES
    value as! U
    #else
    unsafeBitCast(value, to: type)
    #endif
}
