import OpenCoreDataCore

// UIKit and AppKit give `IndexPath` its section, row and item accessors on Apple platforms; Foundation on
// Linux has neither, so OpenCoreData provides them for the index paths a fetched results controller uses.
extension IndexPath {
    /// Creates an index path for an item (or row) in a section: `[section, item]`.
    public init(item: Int, section: Int) {
        self.init(indexes: [section, item])
    }

    /// Creates an index path for a row in a section: `[section, row]`.
    public init(row: Int, section: Int) {
        self.init(indexes: [section, row])
    }

    /// The section of the index path: its first index.
    public var section: Int {
        get { self[0] }
        set { self[0] = newValue }
    }

    /// The item of the index path within its section: its second index.
    public var item: Int {
        get { self[1] }
        set { self[1] = newValue }
    }

    /// The row of the index path within its section: its second index.
    public var row: Int {
        get { self[1] }
        set { self[1] = newValue }
    }
}
