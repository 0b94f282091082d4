extension NSManagedObjectModel {
    /// Creates a model that combines copies of the entities, configurations, fetch request templates
    /// and version identifiers of the given models; `nil` if two models define an entity or a template
    /// with the same name.
    public convenience init?(byMerging models: [NSManagedObjectModel]?) {
        self.init()
        guard _merge(models ?? []) else { return nil }
    }

    /// Creates a merged model, as ``init(byMerging:)``, only if the result is compatible with the given
    /// store metadata (its entity version hashes equal those recorded under
    /// ``NSStoreModelVersionHashesKey``); `nil` otherwise.
    public convenience init?(byMerging models: [NSManagedObjectModel], forStoreMetadata metadata: [String: Any]) {
        self.init()
        guard _merge(models), isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata) else { return nil }
    }

    /// Adds copies of the models' contents to the receiver; `false` on a name collision.
    private func _merge(_ models: [NSManagedObjectModel]) -> Bool {
        var entities: [NSEntityDescription] = []
        var names = Set<String>()
        var configurations: [(String, [NSEntityDescription])] = []
        var templates: [String: NSFetchRequest<NSFetchRequestResult>] = [:]
        var identifiers = Set<AnyHashable>()
        var localization: [String: String]?
        var sources: [URL?] = []
        for model in models {
            guard let copy = model.copy() as? NSManagedObjectModel else { return false }
            if !copy._entities.isEmpty { sources.append(copy._sourceURL) }
            for entity in copy._entities {
                if let name = entity._name {
                    guard names.insert(name).inserted else { return false }
                }
                entities.append(entity)
            }
            for name in copy._configurationOrder {
                configurations.append((name, copy._configurations[name] ?? []))
            }
            for (name, template) in copy._fetchRequestTemplates {
                guard templates[name] == nil else { return false }
                templates[name] = template
            }
            identifiers.formUnion(copy._versionIdentifiers)
            if let dictionary = copy._localizationDictionary {
                localization = (localization ?? [:]).merging(dictionary) { first, _ in first }
            }
        }
        self.entities = entities
        for (name, members) in configurations {
            let existing = _configurations[name] ?? []
            setEntities(
                existing + members.filter { member in !existing.contains { $0 === member } },
                forConfigurationName: name)
        }
        _fetchRequestTemplates = templates
        _versionIdentifiers = identifiers
        _localizationDictionary = localization
        // When every entity comes from one model file, the merged model is that file's model: migration
        // still finds the store's model among the versions of its bundle.
        _sourceURL = sources.count == 1 ? sources[0] : nil
        _relinkDestinationsByName()
        return true
    }

    /// Points relationships whose destination lies outside the model at the model's entity of the same
    /// name, so relationships between merged models connect.
    private func _relinkDestinationsByName() {
        let byName = entitiesByName
        for entity in _entities {
            for case let relationship as NSRelationshipDescription in entity._properties {
                guard let destination = relationship._destinationEntity, destination._model !== self,
                    let name = destination._name, let local = byName[name]
                else { continue }
                relationship._destinationEntity = local
                if let inverse = relationship._inverseRelationship,
                    let localInverse = local.relationshipsByName[inverse._name]
                {
                    relationship._inverseRelationship = localInverse
                }
            }
        }
    }
}
