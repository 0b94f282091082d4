/// Declares a property of a managed object subclass whose value Core Data stores and reads: the
/// counterpart of `@NSManaged`.
///
/// Mark each property that stands for an attribute or a relationship of the entity. The property's
/// name is the key of the attribute or relationship in the data model, and its declared type says how
/// the stored value reaches your code:
///
/// ```swift
/// final class Note: NSManagedObject {
///     @Managed var text: String?
///     @Managed var created: Date
///     @Managed var priority: Int16
///     @Managed var author: Author?
///     @Managed var tags: Set<Tag>
/// }
/// ```
///
/// Reading the property returns the object's value for the key, as `managedValue(forKey:)` does;
/// assigning to it sets the value, as `setManagedValue(_:forKey:)` does, so the context sees the change.
/// Use a non-optional scalar type (`Int16`, `Int32`, `Int64`, `Int`, `Double`, `Float`, `Bool`) to read a
/// missing value as zero or `false`, and an optional type to tell a missing value apart. A to-one
/// relationship is the destination class (optional or not); a to-many relationship is a `Set` of the
/// destination class, an `NSSet`, or an `NSOrderedSet` for an ordered relationship.
///
/// Declare a managed property with `var`, with a type and without an initial value (give the attribute
/// a default value in the data model instead), as an instance property of a class or of a class
/// extension. Any access level is allowed. The compiler reports an error for a declaration that breaks
/// these rules.
@attached(accessor)
public macro Managed() = #externalMacro(module: "OpenCoreDataMacros", type: "ManagedMacro")
