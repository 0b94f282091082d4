/// One `SELECT` level of a compiled fetch: the table alias of the rows it ranges over, the `LEFT JOIN`s
/// its key paths through to-one relationships need, and the subquery variables visible in it.
///
/// The main query is the outermost scope; every correlated subquery over a to-many relationship has
/// its own scope, whose rows are the relationship's destinations.
final class SQLiteQueryScope {
    /// The entity of the rows the scope ranges over.
    let entity: NSEntityDescription
    /// The layout of that entity.
    let layout: SQLiteEntityLayout
    /// The alias of the rows' table (`t0`, `t3`…).
    let alias: String
    /// The subquery variable bound to the scope's rows, if any.
    let boundVariable: String?
    /// The enclosing scope, `nil` for the main query.
    let parent: SQLiteQueryScope?
    /// The `LEFT JOIN` clauses added so far, in order.
    private(set) var joins: [String] = []
    /// The alias of each joined to-one destination, keyed by "<source alias>.<relationship>".
    private var joinedAliases: [String: String] = [:]
    /// The compilation's alias counter, shared by every scope of one compilation.
    private let counter: AliasCounter

    /// Allocates table aliases for one compilation.
    final class AliasCounter {
        private var next = 0

        /// A new alias: `t0`, `t1`, …
        func make() -> String {
            defer { next += 1 }
            return "t\(next)"
        }
    }

    /// Creates a scope over the rows of `entity` laid out as `layout`, inside `parent` (`nil` for the
    /// main query), with `variable` (when given) bound to its rows.
    init(
        entity: NSEntityDescription, layout: SQLiteEntityLayout, parent: SQLiteQueryScope?,
        binding variable: String?, counter: AliasCounter
    ) {
        self.entity = entity
        self.layout = layout
        self.parent = parent
        boundVariable = variable
        self.counter = counter
        alias = counter.make()
    }

    /// A scope for a subquery over the rows of `entity`, with `variable` (when given) bound to them.
    func subscope(entity: NSEntityDescription, layout: SQLiteEntityLayout, binding variable: String?) -> SQLiteQueryScope {
        SQLiteQueryScope(entity: entity, layout: layout, parent: self, binding: variable, counter: counter)
    }

    /// A fresh alias from the compilation's counter.
    func makeAlias() -> String {
        counter.make()
    }

    /// The scope a subquery variable names, or `nil` when no enclosing subquery binds it.
    func scope(ofVariable name: String) -> SQLiteQueryScope? {
        if boundVariable == name { return self }
        return parent?.scope(ofVariable: name)
    }

    /// The alias of the destination of a to-one relationship from the rows of `sourceAlias`, joining
    /// its table on first use: `LEFT JOIN ZAUTHOR t1 ON t1.Z_PK = t0.ZAUTHOR`.
    func joinAlias(from sourceAlias: String, foreignKey column: String, relationship: String, table: String) -> String {
        let key = sourceAlias + "." + relationship
        if let existing = joinedAliases[key] { return existing }
        let alias = counter.make()
        joins.append("LEFT JOIN \(table) \(alias) ON \(alias).Z_PK = \(sourceAlias).\(column)")
        joinedAliases[key] = alias
        return alias
    }

    /// The scope's `FROM` clause body: the table with its alias, then the joins.
    func fromClause(table: String) -> String {
        ([table + " " + alias] + joins).joined(separator: " ")
    }
}
