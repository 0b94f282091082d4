/// One registered undo operation: a closure and the object it acts on.
struct UndoOperation {
    /// The target the operation was registered with; the undo manager does not keep it alive.
    weak var target: AnyObject?
    /// Performs the operation on the target.
    let perform: (AnyObject) -> Void
}

/// A step of an undo group: a single operation or a nested group undone as a unit.
enum UndoStep {
    case operation(UndoOperation)
    case group(UndoGroup)
}

/// The operations registered between the beginning and the end of one undo group, undone together
/// in the reverse of the order they were registered in.
final class UndoGroup {
    /// The steps of the group, in registration order.
    var steps: [UndoStep] = []
    /// The name of the action the group stands for (an empty string when none was set).
    var actionName = ""
    /// Whether the group changes nothing that needs saving (`setActionIsDiscardable(_:)`).
    var isDiscardable = false

    /// Whether the group holds no operation at all (nested empty groups count as nothing).
    var isEmpty: Bool {
        steps.allSatisfy { step in
            if case .group(let nested) = step { return nested.isEmpty }
            return false
        }
    }

    /// Performs every operation, the last one registered first. Operations whose target no longer
    /// exists are skipped.
    func performInReverse() {
        for step in steps.reversed() {
            switch step {
            case .operation(let operation):
                if let target = operation.target { operation.perform(target) }
            case .group(let nested):
                nested.performInReverse()
            }
        }
    }

    /// Drops the operations registered with `target`, those whose target no longer exists, and nested
    /// groups left empty; returns whether anything is left.
    @discardableResult
    func removeOperations(withTarget target: AnyObject) -> Bool {
        steps = steps.compactMap { step in
            switch step {
            case .operation(let operation):
                guard let existing = operation.target, existing !== target else { return nil }
                return step
            case .group(let nested):
                return nested.removeOperations(withTarget: target) ? step : nil
            }
        }
        return !isEmpty
    }
}
