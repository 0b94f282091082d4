/// A programmatic representation of a Core Data data model: its entities, configurations and fetch
/// request templates.
///
/// You build a model in code or load it from an Xcode model file. A model is editable until a
/// persistent store coordinator starts using it; from then on it is immutable, and changing it, its
/// entities or their properties is a programmer error that stops the program with
/// "Can't modify an immutable model."
///
/// `NSManagedObjectModel` is `Sendable` so that coordinators on several threads can share one model.
// @unchecked Sendable: every mutable stored property is changed only while the model is editable,
// which is before a coordinator uses it (single-threaded set-up). `_markInUse()` makes the model
// immutable — every setter then traps — so after that point all state is read-only and safe to share.
open class NSManagedObjectModel: NSObject, NSCopying, @unchecked Sendable {
    /// The default configuration's name, used when a configuration name is `nil`.
    static let defaultConfigurationName = "PF_DEFAULT_CONFIGURATION_NAME"

    var _entities: [NSEntityDescription] = []
    var _configurations: [String: [NSEntityDescription]] = [:]
    var _configurationOrder: [String] = []
    var _fetchRequestTemplates: [String: NSFetchRequest<NSFetchRequestResult>] = [:]
    var _versionIdentifiers: Set<AnyHashable> = []
    var _localizationDictionary: [String: String]?
    /// The model file the model was loaded from (a bundle or a version folder); migration looks for
    /// the store's model among that bundle's versions.
    var _sourceURL: URL?
    var _isImmutable = false
    /// `entitiesByName`, fixed when the model becomes immutable.
    var _frozenEntitiesByName: [String: NSEntityDescription]?
    /// Whether any entity has a derived attribute, fixed when the model becomes immutable (`nil` before):
    /// a save of a model without any has nothing to recompute.
    var _frozenHasDerivedAttributes: Bool?
    /// Whether any entity has a uniqueness constraint, fixed when the model becomes immutable (`nil`
    /// before): a save to a store of a model without any has no duplicates to look for.
    var _frozenHasUniquenessConstraints: Bool?
    /// Serializes `_markInUse()` when several coordinators start using the model at once.
    let _useLock = NSLock()

    /// Creates an empty, editable model.
    public override init() {
        super.init()
    }

    // MARK: Mutability

    /// Whether the model can still be changed (no coordinator has used it yet).
    var _isEditable: Bool { !_isImmutable }

    /// Stops the program if the model is in use; called by every setter of the model, its entities and
    /// their properties.
    func _assertEditable() {
        if _isImmutable {
            preconditionFailure("Can't modify an immutable model.")
        }
    }

    // MARK: Entities

    /// The entities in the model.
    ///
    /// Setting the entities raises an exception if the model has been used by a persistent store
    /// coordinator.
    open var entities: [NSEntityDescription] {
        get { _entities }
        set {
            _assertEditable()
            for entity in _entities where entity._model === self {
                entity._model = nil
            }
            _entities = newValue
            for entity in newValue {
                entity._model = self
            }
        }
    }

    /// The entities of the model, keyed by name.
    open var entitiesByName: [String: NSEntityDescription] {
        if let frozen = _frozenEntitiesByName { return frozen }
        var result: [String: NSEntityDescription] = [:]
        for entity in _entities {
            if let name = entity.name, result[name] == nil {
                result[name] = entity
            }
        }
        return result
    }

    // MARK: Configurations

    /// The names of the configurations in the model.
    open var configurations: [String] {
        _configurationOrder
    }

    /// Returns the entities of the named configuration; `nil` names the default configuration, which
    /// holds every entity of the model.
    open func entities(forConfigurationName configuration: String?) -> [NSEntityDescription]? {
        guard let configuration, configuration != Self.defaultConfigurationName else { return _entities }
        return _configurations[configuration]
    }

    /// Associates the given entities with the named configuration, replacing any it had.
    ///
    /// Setting a configuration raises an exception if the model has been used by a persistent store
    /// coordinator.
    open func setEntities(_ entities: [NSEntityDescription], forConfigurationName configuration: String) {
        _assertEditable()
        if _configurations[configuration] == nil {
            _configurationOrder.append(configuration)
        }
        _configurations[configuration] = entities
    }

    // MARK: Fetch request templates

    /// The fetch request templates of the model, keyed by name.
    open var fetchRequestTemplatesByName: [String: NSFetchRequest<NSFetchRequestResult>] {
        _fetchRequestTemplates
    }

    /// Returns the fetch request template with the given name, or `nil` if the model has none.
    open func fetchRequestTemplate(forName name: String) -> NSFetchRequest<NSFetchRequestResult>? {
        _fetchRequestTemplates[name]
    }

    /// Stores a fetch request template under the given name; `nil` removes the template of that name.
    ///
    /// Setting a template raises an exception if the model has been used by a persistent store
    /// coordinator.
    open func setFetchRequestTemplate(
        _ fetchRequestTemplate: NSFetchRequest<NSFetchRequestResult>?,
        forName name: String
    ) {
        _assertEditable()
        _fetchRequestTemplates[name] = fetchRequestTemplate
    }

    /// Returns a copy of the named template in which each `$VARIABLE` of its predicate is replaced by
    /// the value of the same name in `variables`, or `nil` if the model has no such template. The copy's
    /// entity is the model's entity of the template's entity name.
    open func fetchRequestFromTemplate(
        withName name: String,
        substitutionVariables variables: [String: Any]
    ) -> NSFetchRequest<NSFetchRequestResult>? {
        guard let template = _fetchRequestTemplates[name],
            let request = template.copy() as? NSFetchRequest<NSFetchRequestResult>
        else { return nil }
        request.predicate = template.predicate?.withSubstitutionVariables(variables)
        if request.entity == nil, let entityName = request.entityName {
            request.entity = entitiesByName[entityName]
        }
        return request
    }

    // MARK: Versioning and localization

    /// The developer-defined version identifiers of the model; they play no part in compatibility.
    open var versionIdentifiers: Set<AnyHashable> {
        get { _versionIdentifiers }
        set {
            _assertEditable()
            _versionIdentifiers = newValue
        }
    }

    /// The localization dictionary of the model, mapping keys such as `"Entity/Person"` or
    /// `"Property/name/Entity/Person"` to localized names.
    open var localizationDictionary: [String: String]? {
        get { _localizationDictionary }
        set {
            _assertEditable()
            _localizationDictionary = newValue
        }
    }

    // MARK: NSCopying

    /// Returns an editable copy of the model, with copies of its entities.
    open func copy(with zone: NSZone? = nil) -> Any {
        let copy = NSManagedObjectModel()
        var copiesByOriginal: [ObjectIdentifier: NSEntityDescription] = [:]
        for entity in _entities {
            copiesByOriginal[ObjectIdentifier(entity)] = entity._shallowCopyForModel()
        }
        NSEntityDescription._relinkCopies(copiesByOriginal, originals: _entities)
        copy.entities = _entities.compactMap { copiesByOriginal[ObjectIdentifier($0)] }
        for name in _configurationOrder {
            let members = (_configurations[name] ?? []).compactMap { copiesByOriginal[ObjectIdentifier($0)] }
            copy.setEntities(members, forConfigurationName: name)
        }
        for (name, template) in _fetchRequestTemplates {
            if let templateCopy = template.copy() as? NSFetchRequest<NSFetchRequestResult> {
                if let entity = template.entity, let entityCopy = copiesByOriginal[ObjectIdentifier(entity)] {
                    templateCopy.entity = entityCopy
                }
                copy.setFetchRequestTemplate(templateCopy, forName: name)
            }
        }
        copy._versionIdentifiers = _versionIdentifiers
        copy._localizationDictionary = _localizationDictionary
        copy._sourceURL = _sourceURL
        return copy
    }
}
