import Testing

@testable import OpenCoreDataCore

/// After a save, every saved object's committed values are its current values, whatever its entity
/// holds: only stored attributes (with derived ones and subentities), or also transient attributes and
/// relationships to other objects saved in the same save.
@Suite("Save: committed values of saved objects")
struct SaveSnapshotTests {
    /// Leaf (stored attributes only, one derived) ← SubLeaf; Node (transient note, to-one leaf without inverse).
    private static func model() -> NSManagedObjectModel {
        let searchName = NSDerivedAttributeDescription()
        searchName.name = "searchName"
        searchName.attributeType = .stringAttributeType
        searchName.derivationExpression = NSExpression(format: "lowercase:(name)")
        let leaf = ModelKit.entity("Leaf", [ModelKit.attribute("name", .stringAttributeType), searchName])
        let subLeaf = ModelKit.entity("SubLeaf", [ModelKit.attribute("extra", .integer64AttributeType)])
        leaf.subentities = [subLeaf]
        let node = ModelKit.entity(
            "Node",
            [
                ModelKit.attribute("title", .stringAttributeType),
                ModelKit.attribute("note", .stringAttributeType, transient: true),
            ])
        node.properties += [ModelKit.relationship("leaf", to: leaf)]
        let model = NSManagedObjectModel()
        model.entities = [leaf, subLeaf, node]
        return model
    }

    @Test("saved objects' committed values are their values, with permanent IDs of related new objects and derived values")
    func committedValuesAfterSave() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("Nodes.sqlite")
        let (coordinator, _) = try StoreKit.sqliteCoordinator(Self.model(), at: url)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            var pairs: [(node: NSManagedObject, leaf: NSManagedObject)] = []
            for index in 0..<40 {
                let leaf = NSEntityDescription.insertNewObject(forEntityName: index.isMultiple(of: 2) ? "Leaf" : "SubLeaf", into: context)
                leaf.setValue("Leaf\(index)", forKey: "name")
                if leaf.entity.name == "SubLeaf" { leaf.setValue(Int64(index), forKey: "extra") }
                let node = NSEntityDescription.insertNewObject(forEntityName: "Node", into: context)
                node.setValue("n\(index)", forKey: "title")
                node.setValue("note\(index)", forKey: "note")
                node.setValue(leaf, forKey: "leaf")
                pairs.append((node, leaf))
            }
            try context.save()
            for (index, pair) in pairs.enumerated() {
                #expect(!pair.leaf.objectID.isTemporaryID && !pair.node.objectID.isTemporaryID)
                #expect(pair.leaf.changedValues().isEmpty && pair.node.changedValues().isEmpty)
                #expect(pair.leaf.value(forKey: "searchName") as? String == "leaf\(index)")
                let leafCommitted = pair.leaf.committedValues(forKeys: ["name", "searchName"])
                #expect(leafCommitted["name"] as? String == "Leaf\(index)")
                #expect(leafCommitted["searchName"] as? String == "leaf\(index)")
                #expect(pair.node.committedValues(forKeys: ["leaf"])["leaf"] as? NSManagedObject === pair.leaf)
                #expect(pair.node.value(forKey: "note") as? String == "note\(index)")
            }
            // A second save: a changed leaf's derived value and committed values follow it.
            pairs[0].leaf.setValue("RENAMED", forKey: "name")
            pairs[1].node.setValue(pairs[0].leaf, forKey: "leaf")
            try context.save()
            #expect(pairs[0].leaf.value(forKey: "searchName") as? String == "renamed")
            #expect(pairs[0].leaf.committedValues(forKeys: ["searchName"])["searchName"] as? String == "renamed")
            #expect(pairs[1].node.committedValues(forKeys: ["leaf"])["leaf"] as? NSManagedObject === pairs[0].leaf)
            #expect(!context.hasChanges)
            // Refreshing keeps what was saved.
            context.refresh(pairs[0].leaf, mergeChanges: false)
            #expect(pairs[0].leaf.value(forKey: "name") as? String == "RENAMED")
        }
        let rows = try StoreKit.rows(
            url, "SELECT ZNODE.ZTITLE, ZLEAF.ZNAME FROM ZNODE JOIN ZLEAF ON ZNODE.ZLEAF = ZLEAF.Z_PK ORDER BY ZNODE.ZTITLE LIMIT 3"
        )
        .map { [$0[0] as String, $0[1] as String] }
        #expect(rows == [["n0", "RENAMED"], ["n1", "RENAMED"], ["n10", "Leaf10"]])
    }
}
