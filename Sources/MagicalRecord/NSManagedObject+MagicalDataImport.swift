import OpenCoreData

/// The hooks a managed object class may implement to take part in its import.
///
/// MagicalRecord calls `-shouldImport:`, `-willImport:`, `-didImport:` and `-import<Key>:` when a class
/// implements them; in Swift, adopt this protocol and implement the ones you need (the others do
/// nothing).
public protocol MagicalRecordDataImport: NSManagedObject {
    /// Returns whether the object imports `data`; `false` skips it. The default is `true`.
    func shouldImport(_ data: Any) -> Bool
    /// Called before the object imports `data`.
    func willImport(_ data: Any)
    /// Called after the object imported `data`.
    func didImport(_ data: Any)
    /// Imports `value` for the attribute or relationship `key` itself; returns `true` when it did, and
    /// MagicalRecord then leaves the key alone. The default returns `false`.
    func importValue(_ value: Any?, forKey key: String) -> Bool
}

extension MagicalRecordDataImport {
    /// Imports every object.
    public func shouldImport(_ data: Any) -> Bool { true }
    /// Does nothing.
    public func willImport(_ data: Any) {}
    /// Does nothing.
    public func didImport(_ data: Any) {}
    /// Leaves every key to MagicalRecord.
    public func importValue(_ value: Any?, forKey key: String) -> Bool { false }
}

extension NSManagedObject {
    /// Sets the receiver's attributes and relationships from `objectData`, a dictionary (possibly
    /// nested), as MagicalRecord imports it; returns `false` when the object declines the data.
    ///
    /// Each attribute is read from the key its `mappedKeyName` user-info entry names (falling back to
    /// `mappedKeyName.1` … `.9`), or its own name; dates are parsed in the attribute's `dateFormat`
    /// (default `yyyy-MM-dd'T'HH:mm:ssz`, UTC; numbers are seconds since 1970, or milliseconds when the
    /// format is `UnixTime`). Each relationship's data (a dictionary, an array of them, or primary-key
    /// values) is matched with existing objects by the destination's `relatedByAttribute` (default
    /// `<entity>ID`), or makes new ones. Call it on the object's context's queue.
    @discardableResult
    public func mr_importValuesForKeys(with objectData: Any) -> Bool {
        let hooks = self as? any MagicalRecordDataImport
        if let hooks {
            guard hooks.shouldImport(objectData) else { return false }
            hooks.willImport(objectData)
        }
        mr_importAttributes(from: objectData, hooks: hooks)
        mr_importRelationships(from: objectData, hooks: hooks)
        hooks?.didImport(objectData)
        return true
    }

    private func mr_importAttributes(from objectData: Any, hooks: (any MagicalRecordDataImport)?) {
        for (name, attribute) in entity.attributesByName {
            let value: Any?
            if let keyPath = MagicalImport.lookupKey(for: attribute, in: objectData) {
                value = MagicalImport.value(for: attribute, atKeyPath: keyPath, in: objectData)
            } else if MagicalImport.boolValue(of: "\(attribute.userInfo?[kMagicalRecordImportAttributeUseDefaultValueWhenNotPresent] ?? "")") {
                value = attribute.defaultValue
            } else {
                continue
            }
            if hooks?.importValue(value, forKey: name) != true { setValue(value, forKey: name) }
        }
    }

    private func mr_importRelationships(from objectData: Any, hooks: (any MagicalRecordDataImport)?) {
        for (name, relationship) in entity.relationshipsByName {
            let lookupKey = (relationship.userInfo?[kMagicalRecordImportRelationshipMapKey] as? String) ?? name
            guard let related = MagicalImport.value(atKeyPath: lookupKey, in: objectData) else { continue }
            if hooks?.importValue(objectData, forKey: name) == true { continue }
            if related is NSNull {
                setValue(nil, forKey: name)
                continue
            }
            if relationship.isToMany, let list = related as? [Any] {
                for item in list { mr_importRelated(item, for: relationship) }
            } else {
                mr_importRelated(related, for: relationship)
            }
        }
    }

    /// Finds or makes the object `data` stands for at the end of `relationship`, imports `data` into it
    /// and adds it to the relationship.
    private func mr_importRelated(_ data: Any, for relationship: NSRelationshipDescription) {
        guard let destination = relationship.destinationEntity, let context = managedObjectContext else { return }
        let primaryKey = Self.mr_primaryKey(of: relationship)
        let object =
            mr_findRelated(data, destination: destination, primaryKey: primaryKey, in: context)
            ?? NSEntityDescription.insertNewObject(forEntityName: destination.name ?? "", into: context)
        if data is [String: Any] || data is NSDictionary {
            object.mr_importValuesForKeys(with: data)
        } else if destination.attributesByName[primaryKey] != nil {
            let hooks = object as? any MagicalRecordDataImport
            if hooks?.importValue(data, forKey: primaryKey) != true { object.setValue(data, forKey: primaryKey) }
        }
        if relationship.isToMany {
            if relationship.isOrdered {
                object.mr_addOrdered(to: self, key: relationship.name)
            } else {
                mutableSetValue(forKey: relationship.name).add(object)
            }
        } else {
            setValue(object, forKey: relationship.name)
        }
    }

    /// Adds the receiver at the end of `owner`'s ordered relationship `key`.
    private func mr_addOrdered(to owner: NSManagedObject, key: String) {
        owner.mutableOrderedSetValue(forKey: key).add(self)
    }

    /// The existing object of `destination` in `context` whose primary key equals the one in `data`.
    private func mr_findRelated(
        _ data: Any, destination: NSEntityDescription, primaryKey: String,
        in context: NSManagedObjectContext
    ) -> NSManagedObject? {
        let value: Any?
        if data is [String: Any] || data is NSDictionary {
            if let attribute = destination.attributesByName[primaryKey] {
                let key = MagicalImport.lookupKey(for: attribute, in: data) ?? primaryKey
                value = MagicalImport.value(for: attribute, atKeyPath: key, in: data)
            } else {
                value = nil
            }
        } else {
            value = data
        }
        guard let value, destination.attributesByName[primaryKey] != nil else { return nil }
        let request = NSFetchRequest<NSFetchRequestResult>()
        request.entity = destination
        request.predicate = NSPredicate(format: "%K = %@", primaryKey, value)
        request.fetchLimit = 1
        return (try? context.fetch(request))?.first as? NSManagedObject
    }

    /// The attribute a relationship's objects are matched by: its `relatedByAttribute` or
    /// `<destination>ID`.
    static func mr_primaryKey(of relationship: NSRelationshipDescription) -> String {
        (relationship.userInfo?[kMagicalRecordImportRelationshipLinkedByKey] as? String)
            ?? MagicalImport.primaryKeyName(from: relationship.destinationEntity?.name ?? "")
    }

    /// The attribute objects of `entity` are matched by: its `relatedByAttribute` or `<entity>ID`.
    static func mr_primaryAttribute(of entity: NSEntityDescription) -> NSAttributeDescription? {
        let key =
            (entity.userInfo?[kMagicalRecordImportRelationshipLinkedByKey] as? String)
            ?? MagicalImport.primaryKeyName(from: entity.name ?? "")
        return entity.attributesByName[key]
    }

    // MARK: Importing new objects

    /// Imports `data` into the object of the class's entity it stands for in the context of the current
    /// thread: the one whose primary attribute (the entity's `relatedByAttribute`, or `<entity>ID`)
    /// equals the data's, else a new one.
    public class func mr_import(from data: [String: Any]) -> Self {
        mr_import(from: data, in: NSManagedObjectContext.mr_currentThreadContext())
    }

    /// Imports `data` into the object it stands for in `context`, found by primary attribute or new.
    ///
    /// Stops the program when the context's model has no entity for the class.
    public class func mr_import(from data: [String: Any], in context: NSManagedObjectContext) -> Self {
        context.performAndWait { () -> Self in
            var object: Self?
            if let entity = mr_entityDescription(in: context), let primary = mr_primaryAttribute(of: entity),
                let key = MagicalImport.lookupKey(for: primary, in: data),
                let value = MagicalImport.value(for: primary, atKeyPath: key, in: data)
            {
                object = mr_findFirst(byAttribute: primary.name, withValue: value, in: context)
            }
            guard let target = object ?? mr_createEntity(in: context) else {
                fatalError("No entity named \(mr_entityName()) in the model of \(context.mr_workingName())")
            }
            target.mr_importValuesForKeys(with: data)
            return target
        }
    }

    /// Imports each dictionary of `listOfObjectData` as ``mr_import(from:)-(Dictionary)`` does, in the
    /// context of the current thread.
    public class func mr_import(from listOfObjectData: [[String: Any]]) -> [NSManagedObject] {
        mr_import(from: listOfObjectData, in: NSManagedObjectContext.mr_currentThreadContext())
    }

    /// Imports each dictionary of `listOfObjectData` into `context`.
    public class func mr_import(from listOfObjectData: [[String: Any]], in context: NSManagedObjectContext) -> [NSManagedObject] {
        listOfObjectData.map { mr_import(from: $0, in: context) }
    }
}
