/// Finds the class of an entity's objects and the entity of a managed object class.
///
/// An entity names its class with `managedObjectClassName`: `"Module.Note"` (as `NSStringFromClass`
/// writes it) or `"Note"` (as model files often do); a class nested in another type also answers to
/// `"Module.Notes.Note"` and `"Notes.Note"`. Module-qualified names of top-level classes are found with
/// `NSClassFromString`; other names match classes the program has used (a class is remembered when it
/// creates or fetches objects, or asks for its entity).
// @unchecked Sendable: the dictionaries and the model list are only touched with `lock` held; models are
// immutable once a coordinator uses them.
final class ManagedObjectClasses: @unchecked Sendable {
    private static let shared = ManagedObjectClasses()
    private let lock = NSLock()
    /// Classes the program has used, by bare and by module-qualified name.
    private var classesByName: [String: NSManagedObject.Type] = [:]
    /// The class `remember(_:)` remembered last.
    private var lastRemembered: ObjectIdentifier?
    /// Models of the coordinators that contexts use, newest last (held without a reference count).
    private var models: [WeakModel] = []

    /// The entity found for a class in a given model, so that creating objects (`Item(context:)`) looks
    /// it up once: class and model → entity. The model is held without a reference count but its memory
    /// stays allocated, so a new model is never at the same address as a cached one.
    private var entitiesByClassAndModel: [ClassInModel: (model: WeakModel, entity: NSEntityDescription)] = [:]

    private struct WeakModel {
        @NonRetaining var model: NSManagedObjectModel?
    }

    private struct ClassInModel: Hashable {
        let type: ObjectIdentifier
        let model: ObjectIdentifier
    }

    /// Remembers a managed object class under its bare and qualified names.
    static func remember(_ type: NSManagedObject.Type) {
        guard type != NSManagedObject.self else { return }
        let key = ObjectIdentifier(type)
        // Every typed fetch remembers its class: the class remembered last is still what its names name.
        if shared.lock.withLock({ shared.lastRemembered == key }) { return }
        let names = names(of: type)
        shared.lock.withLock {
            for name in names { shared.classesByName[name] = type }
            shared.lastRemembered = key
        }
    }

    /// Remembers a model a context uses, so that `entity()` can find the entities of classes.
    static func remember(_ model: NSManagedObjectModel) {
        shared.lock.withLock {
            shared.models.removeAll { $0.model == nil || $0.model === model }
            shared.models.append(WeakModel(model: model))
        }
    }

    /// The class for objects of an entity: the class its `managedObjectClassName` names when the
    /// program has it (searching superentities' classes too), `NSManagedObject` otherwise.
    static func objectClass(for entity: NSEntityDescription) -> NSManagedObject.Type {
        var current: NSEntityDescription? = entity
        while let candidate = current {
            if let type = namedClass(candidate.managedObjectClassName) { return type }
            current = candidate.superentity
        }
        return NSManagedObject.self
    }

    /// The entity of `type` in `model` (or, without one, in the models in use, newest first).
    /// Stops the program when there is none.
    static func entity(for type: NSManagedObject.Type, in model: NSManagedObjectModel? = nil) -> NSEntityDescription {
        guard let model else { return findEntity(for: type, in: nil) }
        let key = ClassInModel(type: ObjectIdentifier(type), model: ObjectIdentifier(model))
        if let cached = shared.lock.withLock({ shared.entitiesByClassAndModel[key] }), cached.model.model === model {
            return cached.entity
        }
        let entity = findEntity(for: type, in: model)
        // Only immutable models (in use by a coordinator): an editable model's entities may still change.
        if model._isImmutable {
            shared.lock.withLock { shared.entitiesByClassAndModel[key] = (WeakModel(model: model), entity) }
        }
        return entity
    }

    private static func findEntity(for type: NSManagedObject.Type, in model: NSManagedObjectModel?) -> NSEntityDescription {
        remember(type)
        let names = Set(names(of: type))
        let candidates: [NSManagedObjectModel]
        if let model {
            candidates = [model]
        } else {
            candidates = shared.lock.withLock { shared.models.compactMap(\.model).reversed() }
        }
        for model in candidates {
            if let entity = model.entities.first(where: { names.contains($0.managedObjectClassName ?? "") }) {
                return entity
            }
        }
        preconditionFailure(
            "No entity of \(model == nil ? "the models in use" : "the context's model") has the managed object class \(String(reflecting: type)); set the entity's managedObjectClassName to \"\(String(reflecting: type))\"."
        )
    }

    private static func namedClass(_ name: String?) -> NSManagedObject.Type? {
        guard let name, !name.isEmpty, name != "NSManagedObject" else { return nil }
        if let type = shared.lock.withLock({ shared.classesByName[name] }) { return type }
        // Foundation finds top-level classes by name only (`Module.Class`); for a nested class's name it
        // logs a complaint and finds nothing, so it is not asked.
        guard name.utf8.count(where: { $0 == UInt8(ascii: ".") }) <= 1 else { return nil }
        if let type = NSClassFromString(name) as? NSManagedObject.Type {
            remember(type)
            return type
        }
        return nil
    }

    /// The names an entity may give `type` as its `managedObjectClassName`: module-qualified
    /// (`Module.Note`, `Module.Notes.Note` for a class nested in another type), bare (`Note`), and, for a
    /// nested class, its path without the module (`Notes.Note`).
    ///
    /// Not `NSStringFromClass`, which on this platform gives the module-qualified name of a top-level
    /// class, stops the program for a class nested in another type or declared in a function, and on its
    /// first call builds a table of the program's classes (tens of milliseconds in a large program).
    private static func names(of type: NSManagedObject.Type) -> [String] {
        let qualified = String(reflecting: type)
        // A generic class's arguments (`Module.Box<Swift.Int>`) stay with its own name.
        let arguments = qualified[(qualified.firstIndex(of: "<") ?? qualified.endIndex)...]
        let components = qualified[..<arguments.startIndex].split(separator: ".", omittingEmptySubsequences: false)
        guard components.count > 1, let last = components.last else { return [qualified] }
        var names = [qualified, String(last + arguments)]
        // A class declared in a function has no path to name it by (its enclosing contexts read
        // "(unknown context at $…)").
        if components.count > 2, !components.contains(where: { $0.hasPrefix("(") }) {
            names.append(components.dropFirst().joined(separator: ".") + String(arguments))
        }
        return names
    }
}

extension NSManagedObjectContext {
    /// The entity of `type` in the model of the context's coordinator, remembered for the next object
    /// of the same class while the coordinator stays (its model is immutable once in use).
    func _entity(for type: NSManagedObject.Type) -> NSEntityDescription {
        let key = ObjectIdentifier(type)
        if let last = _lastClassEntity, last.type == key { return last.entity }
        let model = persistentStoreCoordinator?.managedObjectModel
        let entity = ManagedObjectClasses.entity(for: type, in: model)
        // A model still being edited may give another answer next time.
        _lastClassEntity = model?._isImmutable == true ? (key, entity) : nil
        return entity
    }
}
