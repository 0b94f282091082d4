import OpenCoreData
import Testing

/// A value whose changes register undo operations, as app code does.
final class UndoCounter {
    var value = 0
    var log: [String] = []
    let undoManager: UndoManager

    init(_ undoManager: UndoManager) {
        self.undoManager = undoManager
    }

    func set(_ newValue: Int) {
        let old = value
        undoManager.registerUndo(withTarget: self) { counter in
            counter.log.append(counter.undoManager.isUndoing ? "undoing" : counter.undoManager.isRedoing ? "redoing" : "plain")
            counter.set(old)
        }
        value = newValue
    }
}

@Suite("UndoManager")
struct UndoManagerTests {
    @Test("undo reverts the last group and redo re-applies it; isUndoing and isRedoing are set meanwhile")
    func undoRedo() {
        let manager = UndoManager()
        let counter = UndoCounter(manager)
        #expect(!manager.canUndo && !manager.canRedo)
        counter.set(1)
        #expect(manager.canUndo)
        #expect(manager.groupingLevel == 1)
        manager.undo()
        #expect(counter.value == 0)
        #expect(manager.canRedo && !manager.canUndo)
        manager.redo()
        #expect(counter.value == 1)
        #expect(manager.canUndo && !manager.canRedo)
        #expect(counter.log == ["undoing", "redoing"])
        #expect(!manager.isUndoing && !manager.isRedoing)
    }

    @Test("explicit groups: every operation between begin and end is undone at once, nested groups included")
    func explicitGroups() {
        let manager = UndoManager()
        manager.groupsByEvent = false
        let counter = UndoCounter(manager)
        manager.beginUndoGrouping()
        counter.set(1)
        manager.beginUndoGrouping()
        #expect(manager.groupingLevel == 2)
        counter.set(2)
        manager.endUndoGrouping()
        counter.set(3)
        manager.endUndoGrouping()
        #expect(manager.groupingLevel == 0)
        manager.beginUndoGrouping()
        counter.set(4)
        manager.endUndoGrouping()
        manager.undo()
        #expect(counter.value == 3)
        manager.undo()
        #expect(counter.value == 0)
        manager.redo()
        #expect(counter.value == 3)
        manager.redo()
        #expect(counter.value == 4)
    }

    @Test("undoNestedGroup undoes the last nested group of the open group only")
    func nestedUndo() {
        let manager = UndoManager()
        manager.groupsByEvent = false
        let counter = UndoCounter(manager)
        manager.beginUndoGrouping()
        counter.set(1)
        manager.beginUndoGrouping()
        counter.set(2)
        manager.endUndoGrouping()
        manager.undoNestedGroup()
        #expect(counter.value == 1)
        manager.endUndoGrouping()
        manager.undo()
        #expect(counter.value == 0)
        manager.redo()
        #expect(counter.value == 1)
        manager.redo()
        #expect(counter.value == 2)
        #expect(!manager.canRedo)
    }

    @Test("an empty group leaves nothing to undo")
    func emptyGroup() {
        let manager = UndoManager()
        manager.beginUndoGrouping()
        manager.endUndoGrouping()
        #expect(!manager.canUndo)
    }

    @Test("a new registration clears the redo stack")
    func registrationClearsRedo() {
        let manager = UndoManager()
        let counter = UndoCounter(manager)
        counter.set(1)
        manager.undo()
        #expect(manager.canRedo)
        counter.set(5)
        #expect(!manager.canRedo)
    }

    @Test("levelsOfUndo keeps only the newest groups")
    func levelsOfUndo() {
        let manager = UndoManager()
        let counter = UndoCounter(manager)
        for value in 1...5 {
            counter.set(value)
            manager.endUndoGrouping()
        }
        manager.levelsOfUndo = 2
        manager.undo()
        manager.undo()
        #expect(counter.value == 3)
        #expect(!manager.canUndo)
        manager.levelsOfUndo = 0
        #expect(manager.levelsOfUndo == 0)
    }

    @Test("disabled registration records nothing; disable calls nest")
    func disableRegistration() {
        let manager = UndoManager()
        let counter = UndoCounter(manager)
        manager.disableUndoRegistration()
        manager.disableUndoRegistration()
        counter.set(1)
        manager.enableUndoRegistration()
        #expect(!manager.isUndoRegistrationEnabled)
        counter.set(2)
        manager.enableUndoRegistration()
        #expect(manager.isUndoRegistrationEnabled)
        #expect(!manager.canUndo)
        counter.set(3)
        manager.undo()
        #expect(counter.value == 2)
    }

    @Test("removeAllActions clears both stacks; removeAllActions(withTarget:) only that target's operations")
    func removeActions() {
        let manager = UndoManager()
        let first = UndoCounter(manager)
        let second = UndoCounter(manager)
        first.set(1)
        second.set(1)
        manager.endUndoGrouping()
        first.set(2)
        manager.endUndoGrouping()
        manager.removeAllActions(withTarget: first)
        #expect(manager.canUndo)
        manager.undo()
        #expect(first.value == 2 && second.value == 0)
        #expect(!manager.canUndo)
        manager.removeAllActions()
        #expect(!manager.canUndo && !manager.canRedo)
    }

    @Test("action names and menu titles follow the group they name")
    func actionNames() {
        let manager = UndoManager()
        let counter = UndoCounter(manager)
        #expect(manager.undoMenuItemTitle == "Undo")
        counter.set(1)
        manager.setActionName("Typing")
        #expect(manager.undoActionName == "Typing")
        #expect(manager.undoMenuItemTitle == "Undo Typing")
        manager.undo()
        #expect(manager.undoActionName == "")
        #expect(manager.redoActionName == "Typing")
        #expect(manager.redoMenuItemTitle == "Redo Typing")
        #expect(manager.undoMenuTitle(forUndoActionName: "Move") == "Undo Move")
        #expect(manager.redoMenuTitle(forUndoActionName: "") == "Redo")
        counter.set(2)
        manager.setActionIsDiscardable(true)
        #expect(manager.undoActionIsDiscardable && !manager.redoActionIsDiscardable)
    }

    @Test("an operation whose target is gone is skipped")
    func releasedTarget() {
        let manager = UndoManager()
        var counter: UndoCounter? = UndoCounter(manager)
        counter?.set(1)
        weak let weakCounter = counter
        counter = nil
        #expect(weakCounter == nil)
        manager.undo()
        #expect(!manager.canRedo)
    }

    @Test("undo and redo post their notifications")
    func notifications() {
        let manager = UndoManager()
        let counter = UndoCounter(manager)
        let names: [Notification.Name] = [
            .NSUndoManagerWillUndoChange, .NSUndoManagerDidUndoChange,
            .NSUndoManagerWillRedoChange, .NSUndoManagerDidRedoChange,
            .NSUndoManagerDidCloseUndoGroup,
        ]
        // @unchecked Sendable: notifications are posted synchronously on the test's own thread, the only
        // thread that touches `seen`.
        final class Box: @unchecked Sendable { var seen: [Notification.Name] = [] }
        let box = Box()
        let tokens = names.map { name in
            NotificationCenter.default.addObserver(forName: name, object: manager, queue: nil) { box.seen.append($0.name) }
        }
        defer { tokens.forEach(NotificationCenter.default.removeObserver) }
        counter.set(1)
        manager.undo()
        manager.redo()
        #expect(
            box.seen == [
                .NSUndoManagerDidCloseUndoGroup, .NSUndoManagerWillUndoChange, .NSUndoManagerDidUndoChange,
                .NSUndoManagerWillRedoChange, .NSUndoManagerDidRedoChange,
            ])
    }

    @Test("registering with no open group while groupsByEvent is false stops the program", .tags(.exitTest))
    func registrationWithoutGroupTraps() async {
        await #expect(processExitsWith: .failure) {
            let manager = UndoManager()
            manager.groupsByEvent = false
            UndoCounter(manager).set(1)
        }
    }

    @Test("endUndoGrouping without a matching begin stops the program", .tags(.exitTest))
    func unbalancedEndTraps() async {
        await #expect(processExitsWith: .failure) {
            UndoManager().endUndoGrouping()
        }
    }
}
