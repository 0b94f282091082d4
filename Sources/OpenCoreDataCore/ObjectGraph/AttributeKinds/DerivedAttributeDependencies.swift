import Foundation

/// A derived attribute that reads a value of related objects: `writerName = writer.name` on Article
/// reads Writer's `name`; `totalViews = articles.@sum.views` on Writer reads Article's `views`.
///
/// When a save changes that value on a related object, the objects holding the derived attribute are
/// recomputed too — as the store does for Core Data — not only when they change themselves.
struct DerivedAttributeDependency {
    /// The entity that has the derived attribute.
    let owner: NSEntityDescription
    /// The owner's relationship the key path starts with.
    let relationship: NSRelationshipDescription
    /// The property of the relationship's destination the key path reads next (`name`, `views`);
    /// `nil` for a path that only counts or lists the destinations (`articles.@count`), which changes
    /// only with the relationship itself.
    let destinationKey: String?

    /// The dependencies of every derived attribute of a model's entities.
    static func all(in model: NSManagedObjectModel) -> [DerivedAttributeDependency] {
        var result: [DerivedAttributeDependency] = []
        for entity in model.entities {
            for attribute in entity._writeTraits.derivedAttributes {
                // Inherited derived attributes are found on the entity that declares them.
                guard attribute._entity === entity, let expression = attribute.derivationExpression else { continue }
                for path in keyPaths(in: expression) {
                    let components = path.split(separator: ".").map(String.init)
                    guard components.count > 1, let relationship = entity.relationshipsByName[components[0]] else { continue }
                    let next = components.dropFirst().first { !$0.hasPrefix("@") }
                    result.append(DerivedAttributeDependency(owner: entity, relationship: relationship, destinationKey: next))
                }
            }
        }
        return result
    }

    /// The key paths an expression reads from the evaluated object.
    private static func keyPaths(in expression: NSExpression) -> [String] {
        switch expression.storage {
        case let .keyPath(path, operand):
            if case .evaluatedObject = operand.storage { return [path] }
            return keyPaths(in: operand)
        case let .function(_, arguments):
            return arguments.flatMap(keyPaths(in:))
        case let .method(receiver, _, arguments):
            return keyPaths(in: receiver) + arguments.flatMap(keyPaths(in:))
        default:
            return []
        }
    }
}

extension NSManagedObjectContext {
    /// Recomputes the derived attributes that read, through a relationship, a value this save changes on
    /// an updated object (the objects holding them become updated too when their value changes).
    /// Inserts, deletes and relationship changes need nothing here: they change the related objects'
    /// relationships, and so those objects are saved and recomputed anyway.
    func _recomputeDependentDerivedAttributes() {
        guard !_updated.isEmpty, let model = _coordinator?.managedObjectModel else { return }
        let dependencies = DerivedAttributeDependency.all(in: model)
        guard !dependencies.isEmpty else { return }
        var owners: [ObjectIdentifier: NSManagedObject] = [:]
        for object in _updated.values where !object._isDeleted {
            for dependency in dependencies {
                guard let key = dependency.destinationKey, object.changedKeys.contains(key),
                    let destination = dependency.relationship.destinationEntity,
                    object.entity === destination || object.entity.isKindOf(entity: destination)
                else { continue }
                for owner in self.owners(of: object, through: dependency) where !owner._isDeleted {
                    owners[ObjectIdentifier(owner)] = owner
                }
            }
        }
        for owner in owners.values { owner._recomputeDerivedAttributes() }
    }

    /// The objects of a dependency's owner entity whose relationship leads to `object`: through the
    /// inverse relationship when the model has one, otherwise with a fetch.
    private func owners(of object: NSManagedObject, through dependency: DerivedAttributeDependency) -> [NSManagedObject] {
        let relationship = dependency.relationship
        if let inverse = relationship.inverseRelationship {
            let related: [NSManagedObject]
            if inverse.isToMany {
                related = object.loadedToMany(inverse)
            } else {
                related = (object.storage[inverse.name] as? NSManagedObject).map { [$0] } ?? []
            }
            return related.filter { $0.entity === dependency.owner || $0.entity.isKindOf(entity: dependency.owner) }
        }
        guard !object.objectID.isTemporaryID else { return [] }
        let request = NSFetchRequest<NSManagedObject>()
        request.entity = dependency.owner
        request.predicate =
            relationship.isToMany
            ? NSPredicate(format: "ANY %K == %@", relationship.name, object)
            : NSPredicate(format: "%K == %@", relationship.name, object)
        return (try? fetch(request)) ?? []
    }
}
