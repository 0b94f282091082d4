import GRDB

extension StatementArguments {
    /// Positional arguments of the given values, in order.
    ///
    /// GRDB's initializer for a sequence of concrete values reads each value through a key path, which
    /// this platform builds anew on every call (about 20,000 instructions, more than the rest of a small
    /// fetch's own work); values that are already `DatabaseValue`s go through the initializer for optional
    /// existentials instead, which reads them with a closure.
    init(databaseValues values: [DatabaseValue]) {
        if values.isEmpty {
            self.init()
        } else {
            self.init(values.lazy.map { Optional($0 as any DatabaseValueConvertible) })
        }
    }

    /// Positional arguments of the given values, in order, each turned into a `DatabaseValue` with a
    /// closure rather than GRDB's key path.
    init(databaseValues values: some Sequence<some DatabaseValueConvertible>) {
        self.init(databaseValues: values.map { $0.databaseValue })
    }
}
