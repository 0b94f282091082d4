/// A general-purpose recorder of operations that enables undo and redo.
///
/// Register an undo operation with ``registerUndo(withTarget:handler:)`` while you change something:
/// the closure you register reverts the change. ``undo()`` performs the operations of the latest undo
/// group in the reverse of the order they were registered in; the operations they register meanwhile
/// form a redo group that ``redo()`` performs.
///
/// Operations are collected in groups. With ``groupsByEvent`` set (the default), registering an
/// operation while no group is open opens one. Linux has no user-event loop to close that group, so it
/// stays open until ``endUndoGrouping()``, ``undo()`` or ``redo()`` closes it — or, for the undo manager
/// of a managed object context, until the context processes its pending changes
/// (`processPendingChanges()`, which `save()`, `undo()` and `redo()` of the context also run): each
/// event of the context becomes one undo group.
///
/// An undo manager is not thread-safe: use it on one thread at a time (the queue of the managed object
/// context it belongs to). Apple's SDK isolates the class to the main actor; here it is not isolated,
/// so that contexts on private queues can record their changes.
open class UndoManager: NSObject {
    /// Completed undo groups, the most recent last.
    var undoStack: [UndoGroup] = []
    /// Groups undone and not yet redone, the most recently undone last.
    var redoStack: [UndoGroup] = []
    /// Groups begun and not yet ended, outermost first.
    var openGroups: [UndoGroup] = []
    /// The group receiving operations registered while an undo or redo runs.
    var collectingGroup: UndoGroup?
    /// Whether the open top-level group was opened by a registration (``groupsByEvent``).
    var topGroupOpenedByEvent = false
    var disabledCount = 0
    var _isUndoing = false
    var _isRedoing = false
    var _groupsByEvent = true
    var _levelsOfUndo = 0
    var _runLoopModes: [RunLoop.Mode] = [.default]

    /// Creates an undo manager with empty undo and redo stacks.
    public override init() {
        super.init()
    }

    // MARK: Registering undo operations

    /// Registers a closure that performs a single undo operation on `target`.
    ///
    /// The undo manager keeps no strong reference to `target`; an operation whose target no longer
    /// exists is skipped. While the undo manager undoes, the operation goes on the redo stack; while it
    /// redoes, on the undo stack; otherwise on the undo stack, and the redo stack is cleared.
    /// Registering while undo registration is disabled does nothing.
    ///
    /// With no open undo group, an operation opens one when ``groupsByEvent`` is `true`; otherwise
    /// registering stops the program, as a call of ``beginUndoGrouping()`` is missing.
    open func registerUndo<TargetType: AnyObject>(withTarget target: TargetType, handler: @escaping (TargetType) -> Void) {
        guard isUndoRegistrationEnabled else { return }
        let operation = UndoOperation(target: target) { object in
            if let typed = object as? TargetType { handler(typed) }
        }
        if let collectingGroup {
            collectingGroup.steps.append(.operation(operation))
            return
        }
        if openGroups.isEmpty {
            guard _groupsByEvent else {
                preconditionFailure(
                    "UndoManager \(ObjectIdentifier(self)) is in invalid state: undo was registered with no open undo group while groupsByEvent is false; call beginUndoGrouping() first."
                )
            }
            beginUndoGrouping()
            topGroupOpenedByEvent = true
        }
        openGroups[openGroups.count - 1].steps.append(.operation(operation))
        redoStack.removeAll()
    }

    // MARK: Checking undo ability

    /// A Boolean value that indicates whether there are operations to undo: completed undo groups, or
    /// operations registered in the open top-level group.
    open var canUndo: Bool {
        !undoStack.isEmpty || (openGroups.first.map { !$0.isEmpty } ?? false)
    }

    /// A Boolean value that indicates whether there are undone operations to redo.
    open var canRedo: Bool {
        !redoStack.isEmpty
    }

    // MARK: Performing undo and redo

    /// Closes the top-level undo group if one is open, then undoes the latest undo group
    /// (``undoNestedGroup()``), recording the operations it registers as one redo group.
    ///
    /// Calling it while nested groups are open stops the program.
    open func undo() {
        closeTopLevelGroupForUndoOrRedo("undo()")
        undoNestedGroup()
    }

    /// Performs the operations of the latest undo group — the last group nested in the open group when
    /// one is open, otherwise the latest completed top-level group — recording the operations they
    /// register as one redo group.
    open func undoNestedGroup() {
        precondition(!_isUndoing && !_isRedoing, "undoNestedGroup() was called while the undo manager is undoing or redoing.")
        let group: UndoGroup
        if let open = openGroups.last {
            guard let index = open.steps.lastIndex(where: { if case .group = $0 { return true } else { return false } }),
                case .group(let nested) = open.steps[index]
            else { return }
            open.steps.remove(at: index)
            group = nested
        } else {
            guard let last = undoStack.popLast() else { return }
            group = last
        }
        postNotification(.NSUndoManagerCheckpoint)
        postNotification(.NSUndoManagerWillUndoChange)
        let redoGroup = run(group, undoing: true)
        if !redoGroup.isEmpty {
            redoStack.append(redoGroup)
            trim(&redoStack)
        }
        postNotification(.NSUndoManagerDidUndoChange)
    }

    /// Performs the operations of the latest undone group, recording the operations they register as
    /// one undo group (the redo stack is kept).
    ///
    /// Calling it while the undo manager is undoing, or while nested groups are open, stops the program.
    open func redo() {
        precondition(!_isUndoing, "redo() was called while the undo manager is undoing.")
        closeTopLevelGroupForUndoOrRedo("redo()")
        guard let group = redoStack.popLast() else { return }
        postNotification(.NSUndoManagerCheckpoint)
        postNotification(.NSUndoManagerWillRedoChange)
        let undoGroup = run(group, undoing: false)
        if !undoGroup.isEmpty {
            undoStack.append(undoGroup)
            trim(&undoStack)
        }
        postNotification(.NSUndoManagerDidRedoChange)
    }

    /// A Boolean value that indicates whether the undo manager is performing an undo.
    open var isUndoing: Bool {
        _isUndoing
    }

    /// A Boolean value that indicates whether the undo manager is performing a redo.
    open var isRedoing: Bool {
        _isRedoing
    }

    // MARK: Limiting the undo stack

    /// The most top-level undo groups the undo manager keeps; the oldest are dropped beyond it. 0 (the
    /// default) means no limit.
    open var levelsOfUndo: Int {
        get { _levelsOfUndo }
        set {
            _levelsOfUndo = max(0, newValue)
            trim(&undoStack)
            trim(&redoStack)
        }
    }

    // MARK: Grouping undo operations

    /// Begins a new undo group, nested in the open group when there is one.
    open func beginUndoGrouping() {
        postNotification(.NSUndoManagerCheckpoint)
        openGroups.append(UndoGroup())
        if openGroups.count == 1 { topGroupOpenedByEvent = false }
        postNotification(.NSUndoManagerDidOpenUndoGroup)
    }

    /// Ends the innermost open undo group. A top-level group with operations goes on the undo stack; a
    /// nested group becomes one step of the group around it; an empty group is dropped.
    ///
    /// Calling it with no open group stops the program.
    open func endUndoGrouping() {
        guard let group = openGroups.last else {
            preconditionFailure("endUndoGrouping() was called with no matching beginUndoGrouping().")
        }
        postNotification(.NSUndoManagerCheckpoint)
        postNotification(.NSUndoManagerWillCloseUndoGroup, userInfo: [NSUndoManagerGroupIsDiscardableKey: group.isDiscardable])
        openGroups.removeLast()
        if let outer = openGroups.last {
            if !group.isEmpty { outer.steps.append(.group(group)) }
        } else {
            topGroupOpenedByEvent = false
            if !group.isEmpty {
                undoStack.append(group)
                trim(&undoStack)
            }
        }
        postNotification(.NSUndoManagerDidCloseUndoGroup)
    }

    /// A Boolean value that indicates whether a registration opens an undo group when none is open;
    /// `true` unless set. See the discussion of ``UndoManager`` for when such a group ends on Linux.
    open var groupsByEvent: Bool {
        get { _groupsByEvent }
        set { _groupsByEvent = newValue }
    }

    /// The number of nested undo groups open (counting the redo group an undo is filling).
    open var groupingLevel: Int {
        openGroups.count + (collectingGroup == nil ? 0 : 1)
    }

    /// The run loop modes of the event loop on Apple platforms; kept for source compatibility (Linux
    /// groups by context events instead, see ``groupsByEvent``).
    open var runLoopModes: [RunLoop.Mode] {
        get { _runLoopModes }
        set { _runLoopModes = newValue }
    }

    // MARK: Enabling and disabling undo

    /// Disables the recording of undo operations. Calls nest: each needs a matching
    /// ``enableUndoRegistration()``.
    open func disableUndoRegistration() {
        disabledCount += 1
    }

    /// Balances a call of ``disableUndoRegistration()``; registration resumes when every disable call
    /// is balanced. Calling it more often than `disableUndoRegistration()` stops the program.
    open func enableUndoRegistration() {
        precondition(disabledCount > 0, "enableUndoRegistration() was called without a matching disableUndoRegistration().")
        disabledCount -= 1
    }

    /// A Boolean value that indicates whether the undo manager records undo operations.
    open var isUndoRegistrationEnabled: Bool {
        disabledCount == 0
    }

    // MARK: Clearing undo operations

    /// Clears the undo and redo stacks (and any open group) and enables undo registration again.
    open func removeAllActions() {
        undoStack.removeAll()
        redoStack.removeAll()
        openGroups.removeAll()
        topGroupOpenedByEvent = false
        disabledCount = 0
    }

    /// Removes from the undo and redo stacks every operation registered with `target`; groups left
    /// empty are dropped.
    open func removeAllActions(withTarget target: Any) {
        let object = target as AnyObject
        undoStack = undoStack.filter { $0.removeOperations(withTarget: object) }
        redoStack = redoStack.filter { $0.removeOperations(withTarget: object) }
        for group in openGroups { group.removeOperations(withTarget: object) }
    }

    // MARK: Internal

    /// Closes the automatically opened top-level group of the current event (the managed object
    /// context calls it when it processes pending changes). Groups begun by the caller stay open.
    func endEventGroupIfOpen() {
        guard _groupsByEvent, topGroupOpenedByEvent, openGroups.count == 1, collectingGroup == nil else { return }
        endUndoGrouping()
    }

    private func closeTopLevelGroupForUndoOrRedo(_ method: String) {
        precondition(openGroups.count <= 1, "\(method) was called with \(openGroups.count) nested undo groups open; end them first.")
        if openGroups.count == 1 { endUndoGrouping() }
    }

    /// Performs a group, collecting what it registers into a new group named like it.
    private func run(_ group: UndoGroup, undoing: Bool) -> UndoGroup {
        let collected = UndoGroup()
        collected.actionName = group.actionName
        collected.isDiscardable = group.isDiscardable
        collectingGroup = collected
        if undoing { _isUndoing = true } else { _isRedoing = true }
        group.performInReverse()
        _isUndoing = false
        _isRedoing = false
        collectingGroup = nil
        return collected
    }

    /// Drops the oldest groups beyond ``levelsOfUndo``.
    private func trim(_ stack: inout [UndoGroup]) {
        guard _levelsOfUndo > 0, stack.count > _levelsOfUndo else { return }
        stack.removeFirst(stack.count - _levelsOfUndo)
    }

    private func postNotification(_ name: Notification.Name, userInfo: [String: Any]? = nil) {
        NotificationCenter.default.post(name: name, object: self, userInfo: userInfo)
    }
}
