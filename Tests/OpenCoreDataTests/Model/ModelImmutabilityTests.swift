import Testing

@testable import OpenCoreDataCore

/// A model in use by a coordinator is immutable: changing it is a programmer error that stops the
/// process with Apple's message. Each test runs the change in a child process.
@Suite("Immutable models trap on change")
struct ModelImmutabilityTests {
    /// Note (title, tags → Tag), Tag; marked in use, with a template.
    static func modelInUse() -> NSManagedObjectModel {
        let tag = ModelKit.entity("Tag", [ModelKit.attribute("name", .stringAttributeType)])
        let note = ModelKit.entity(
            "Note",
            [
                ModelKit.attribute("title", .stringAttributeType),
                ModelKit.relationship("tags", to: tag, toMany: true),
            ])
        note.indexes = [
            NSFetchIndexDescription(
                name: "byTitle",
                elements: [
                    NSFetchIndexElementDescription(property: note.properties[0], collationType: .binary)
                ])
        ]
        let model = NSManagedObjectModel()
        model.entities = [note, tag]
        model.setFetchRequestTemplate(NSFetchRequest(entityName: "Note"), forName: "All")
        do {
            try model._markInUse()
        } catch {
            Issue.record(error)
        }
        return model
    }

    private static func expectImmutableModelMessage(_ result: ExitTest.Result) {
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("Can't modify an immutable model."))
    }

    @Test("Changing the entities of a model in use traps", .tags(.exitTest))
    func modelSetter() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let model = ModelImmutabilityTests.modelInUse()
            model.entities = []
        }
        Self.expectImmutableModelMessage(result)
    }

    @Test("Changing an entity of a model in use traps", .tags(.exitTest))
    func entitySetter() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let model = ModelImmutabilityTests.modelInUse()
            model.entitiesByName["Note"]?.name = "Memo"
        }
        Self.expectImmutableModelMessage(result)
    }

    @Test("Changing an attribute of a model in use traps", .tags(.exitTest))
    func attributeSetter() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let model = ModelImmutabilityTests.modelInUse()
            model.entitiesByName["Note"]?.attributesByName["title"]?.isOptional = false
        }
        Self.expectImmutableModelMessage(result)
    }

    @Test("Changing a relationship of a model in use traps", .tags(.exitTest))
    func relationshipSetter() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let model = ModelImmutabilityTests.modelInUse()
            model.entitiesByName["Note"]?.relationshipsByName["tags"]?.deleteRule = .cascadeDeleteRule
        }
        Self.expectImmutableModelMessage(result)
    }

    @Test("Changing an index of a model in use traps", .tags(.exitTest))
    func indexSetter() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let model = ModelImmutabilityTests.modelInUse()
            model.entitiesByName["Note"]?.indexes.first?.elements.first?.isAscending = false
        }
        Self.expectImmutableModelMessage(result)
    }

    @Test("Changing a fetch request template of a model in use traps", .tags(.exitTest))
    func templateSetter() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let model = ModelImmutabilityTests.modelInUse()
            model.fetchRequestTemplate(forName: "All")?.fetchLimit = 1
        }
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("Can't modify a fetch request template of an immutable model"))
    }

    @Test("Reading a model in use and changing a copy of it do not trap")
    func copiesStayEditable() throws {
        let model = Self.modelInUse()
        #expect(model.entitiesByName["Note"]?.attributesByName["title"]?.isOptional == true)
        let copy = try #require(model.copy() as? NSManagedObjectModel)
        copy.entitiesByName["Note"]?.name = "Memo"
        #expect(copy.entitiesByName["Memo"] != nil)
        #expect(model.entitiesByName["Note"] != nil)
    }
}
