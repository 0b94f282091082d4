extension UndoManager {
    /// The group an action name or discardability applies to: the redo group an undo is filling, the
    /// open top-level group, or the latest completed undo group.
    private var currentGroup: UndoGroup? {
        collectingGroup ?? openGroups.first ?? undoStack.last
    }

    /// The group ``undo()`` would undo next.
    private var nextUndoGroup: UndoGroup? {
        if let open = openGroups.first, !open.isEmpty || !open.actionName.isEmpty { return open }
        return undoStack.last
    }

    /// Sets the name of the action the current undo group stands for (shown in menu titles as
    /// "Undo *name*"). An empty string clears it.
    public func setActionName(_ actionName: String) {
        currentGroup?.actionName = actionName
    }

    /// The name of the action ``undo()`` would undo, or an empty string.
    public var undoActionName: String {
        nextUndoGroup?.actionName ?? ""
    }

    /// The name of the action ``redo()`` would redo, or an empty string.
    public var redoActionName: String {
        redoStack.last?.actionName ?? ""
    }

    /// The title of an Undo menu item for the action ``undo()`` would undo: "Undo", followed by the
    /// action name when there is one.
    public var undoMenuItemTitle: String {
        undoMenuTitle(forUndoActionName: undoActionName)
    }

    /// The title of a Redo menu item for the action ``redo()`` would redo: "Redo", followed by the
    /// action name when there is one.
    public var redoMenuItemTitle: String {
        redoMenuTitle(forUndoActionName: redoActionName)
    }

    /// Returns the title of an Undo menu item for an action name ("Undo" alone for an empty name).
    public func undoMenuTitle(forUndoActionName actionName: String) -> String {
        actionName.isEmpty ? "Undo" : "Undo \(actionName)"
    }

    /// Returns the title of a Redo menu item for an action name ("Redo" alone for an empty name).
    public func redoMenuTitle(forUndoActionName actionName: String) -> String {
        actionName.isEmpty ? "Redo" : "Redo \(actionName)"
    }

    /// Marks the current undo group as changing nothing that needs saving (or not).
    public func setActionIsDiscardable(_ discardable: Bool) {
        currentGroup?.isDiscardable = discardable
    }

    /// A Boolean value that indicates whether the action ``undo()`` would undo was marked discardable.
    public var undoActionIsDiscardable: Bool {
        nextUndoGroup?.isDiscardable ?? false
    }

    /// A Boolean value that indicates whether the action ``redo()`` would redo was marked discardable.
    public var redoActionIsDiscardable: Bool {
        redoStack.last?.isDiscardable ?? false
    }
}

extension NSNotification.Name {
    /// Posted when an undo manager opens or closes a group and before it undoes or redoes.
    public static let NSUndoManagerCheckpoint = NSNotification.Name("NSUndoManagerCheckpointNotification")
    /// Posted just before an undo manager undoes a group.
    public static let NSUndoManagerWillUndoChange = NSNotification.Name("NSUndoManagerWillUndoChangeNotification")
    /// Posted just before an undo manager redoes a group.
    public static let NSUndoManagerWillRedoChange = NSNotification.Name("NSUndoManagerWillRedoChangeNotification")
    /// Posted just after an undo manager undid a group.
    public static let NSUndoManagerDidUndoChange = NSNotification.Name("NSUndoManagerDidUndoChangeNotification")
    /// Posted just after an undo manager redid a group.
    public static let NSUndoManagerDidRedoChange = NSNotification.Name("NSUndoManagerDidRedoChangeNotification")
    /// Posted after an undo manager opened an undo group.
    public static let NSUndoManagerDidOpenUndoGroup = NSNotification.Name("NSUndoManagerDidOpenUndoGroupNotification")
    /// Posted before an undo manager closes an undo group; its user info tells, under
    /// `NSUndoManagerGroupIsDiscardableKey`, whether the group is discardable.
    public static let NSUndoManagerWillCloseUndoGroup = NSNotification.Name("NSUndoManagerWillCloseUndoGroupNotification")
    /// Posted after an undo manager closed an undo group.
    public static let NSUndoManagerDidCloseUndoGroup = NSNotification.Name("NSUndoManagerDidCloseUndoGroupNotification")
}

/// The user-info key of `NSUndoManagerWillCloseUndoGroup` notifications whose value tells whether the
/// closing group was marked discardable.
public let NSUndoManagerGroupIsDiscardableKey = "NSUndoManagerGroupIsDiscardableKey"
