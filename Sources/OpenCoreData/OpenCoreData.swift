// OpenCoreData, the module a user imports: it re-exports the library's two modules, so that a file importing
// OpenCoreData alone sees every type of Apple's CoreData module, and through them Foundation. Module-qualified
// names (`OpenCoreData.NSManagedObjectContext`, `OpenCoreData.NSFetchedResultsController`) name the
// re-exported declarations. Docs/Architecture.md says what each module holds.

/// The object graph and its persistence: every layer from Support to Migration, and Foundation.
@_exported import OpenCoreDataCore
/// `NSFetchedResultsController`, its delegate, its section information and its change types.
@_exported import OpenCoreDataResults

// The classes OpenCoreData declares under Foundation's names are also declared here, so that a scoped
// import (`import class OpenCoreData.NSPredicate`) finds one declaration in this module rather than two
// re-exported ones, OpenCoreData's and Foundation's, and makes OpenCoreData's win over Foundation's.

/// OpenCoreData's predicate class: a logical condition that constrains a fetch or filters objects in memory.
public typealias NSPredicate = OpenCoreDataCore.NSPredicate
/// OpenCoreData's comparison predicate class: compares the results of two expressions.
public typealias NSComparisonPredicate = OpenCoreDataCore.NSComparisonPredicate
/// OpenCoreData's compound predicate class: joins predicates with AND, OR or NOT.
public typealias NSCompoundPredicate = OpenCoreDataCore.NSCompoundPredicate
/// OpenCoreData's expression class: a value in a predicate — a constant, a key path, a variable, a function.
public typealias NSExpression = OpenCoreDataCore.NSExpression
/// OpenCoreData's sort descriptor class: orders objects by the value of a key path.
public typealias NSSortDescriptor = OpenCoreDataCore.NSSortDescriptor
