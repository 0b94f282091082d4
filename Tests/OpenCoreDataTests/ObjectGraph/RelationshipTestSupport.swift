import OpenCoreData

/// A model built in code with every shape of relationship and every delete rule, shared by the
/// inverse, delete-rule and undo tests:
/// - User(name) posts ->> Post, cascade; Post(title) author -> User, nullify (one-to-many);
/// - Student(name) courses <<->> Course(title) students, nullify both ways (many-to-many);
/// - Writer(name) volumes ->> Volume, deny; Volume(title) writer -> Writer, nullify;
/// - Person(name) passport <-> Passport(number) holder, nullify (one-to-one);
/// - Playlist(name) songs ordered ->> Song(title) playlist (ordered one-to-many);
/// - Memo(text) label -> Label and labels ->> Label, no inverses; Label(name);
/// - Node(name) children ->> Node, cascade; parent -> Node, cascade (a cycle of cascades);
/// - Shelf(name) items ->> Item, no action; Item(name) shelf -> Shelf, nullify.
enum GraphRulesModel {
    static func make() -> NSManagedObjectModel {
        var entities: [NSEntityDescription] = []
        func entity(_ name: String, _ attribute: String) -> NSEntityDescription {
            let entity = ModelKit.entity(name, [ModelKit.attribute(attribute, .stringAttributeType)])
            entity.managedObjectClassName = "NSManagedObject"
            entities.append(entity)
            return entity
        }
        func link(
            _ source: NSEntityDescription, _ name: String, _ destination: NSEntityDescription, toMany: Bool,
            rule: NSDeleteRule, ordered: Bool = false
        ) -> NSRelationshipDescription {
            let relationship = ModelKit.relationship(name, to: destination, toMany: toMany)
            relationship.deleteRule = rule
            relationship.isOrdered = ordered
            source.properties += [relationship]
            return relationship
        }
        let user = entity("User", "name"), post = entity("Post", "title")
        ModelKit.pair(
            link(user, "posts", post, toMany: true, rule: .cascadeDeleteRule),
            link(post, "author", user, toMany: false, rule: .nullifyDeleteRule))
        let student = entity("Student", "name"), course = entity("Course", "title")
        ModelKit.pair(
            link(student, "courses", course, toMany: true, rule: .nullifyDeleteRule),
            link(course, "students", student, toMany: true, rule: .nullifyDeleteRule))
        let writer = entity("Writer", "name"), volume = entity("Volume", "title")
        ModelKit.pair(
            link(writer, "volumes", volume, toMany: true, rule: .denyDeleteRule),
            link(volume, "writer", writer, toMany: false, rule: .nullifyDeleteRule))
        let person = entity("Person", "name"), passport = entity("Passport", "number")
        ModelKit.pair(
            link(person, "passport", passport, toMany: false, rule: .nullifyDeleteRule),
            link(passport, "holder", person, toMany: false, rule: .nullifyDeleteRule))
        let playlist = entity("Playlist", "name"), song = entity("Song", "title")
        ModelKit.pair(
            link(playlist, "songs", song, toMany: true, rule: .nullifyDeleteRule, ordered: true),
            link(song, "playlist", playlist, toMany: false, rule: .nullifyDeleteRule))
        let memo = entity("Memo", "text"), label = entity("Label", "name")
        _ = link(memo, "label", label, toMany: false, rule: .nullifyDeleteRule)
        _ = link(memo, "labels", label, toMany: true, rule: .nullifyDeleteRule)
        let node = entity("Node", "name")
        ModelKit.pair(
            link(node, "children", node, toMany: true, rule: .cascadeDeleteRule),
            link(node, "parent", node, toMany: false, rule: .cascadeDeleteRule))
        let shelf = entity("Shelf", "name"), item = entity("Item", "name")
        ModelKit.pair(
            link(shelf, "items", item, toMany: true, rule: .noActionDeleteRule),
            link(item, "shelf", shelf, toMany: false, rule: .nullifyDeleteRule))
        let model = NSManagedObjectModel()
        model.entities = entities
        return model
    }

    /// A coordinator with a store of the given kind on this model.
    static func stack(_ kind: TestStoreKind) throws -> GraphStack {
        try GraphStack(kind, model: make(), fileName: "Rules.sqlite")
    }
}

extension NSManagedObject {
    /// The objects of a to-many relationship as an array (in order for an ordered relationship).
    func related(_ key: String) -> [NSManagedObject] {
        switch value(forKey: key) {
        case let ordered as NSOrderedSet: return ordered.array.compactMap { $0 as? NSManagedObject }
        case let set as NSSet: return set.allObjects.compactMap { $0 as? NSManagedObject }
        default: return []
        }
    }

    /// The values of an attribute of the objects of a to-many relationship, sorted (or in order for an
    /// ordered relationship).
    func relatedNames(_ key: String, _ attribute: String = "name") -> [String] {
        let names = related(key).map { $0.value(forKey: attribute) as? String ?? "?" }
        return value(forKey: key) is NSOrderedSet ? names : names.sorted()
    }

    /// The value of a to-one relationship.
    func toOne(_ key: String) -> NSManagedObject? {
        value(forKey: key) as? NSManagedObject
    }
}
