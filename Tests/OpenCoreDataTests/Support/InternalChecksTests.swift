import Foundation
import Testing

@testable import OpenCoreDataCore

/// The internal-checks build (`OCD_INTERNAL_CHECKS=1 swift test`, as CI runs the suite) stops the program
/// when an invariant a runtime technique relies on does not hold; other builds compile the checks out.
@Suite("Internal checks")
struct InternalChecksTests {
    @Test(
        "a failing check stops the program, naming the invariant", .tags(.exitTest),
        .enabled(if: InternalChecks.isEnabled, "the build does not compile the internal checks"))
    func failingCheckStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            InternalChecks.check(1 + 1 == 3, "arithmetic holds")
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("OpenCoreData internal check failed: arithmetic holds"))
    }

    @Test(
        "a check that holds lets the program go on",
        .enabled(if: InternalChecks.isEnabled, "the build does not compile the internal checks"))
    func passingCheckGoesOn() {
        var evaluated = false
        InternalChecks.check(
            {
                evaluated = true
                return true
            }(), "never shown")
        #expect(evaluated)
    }

    @Test(
        "without the checks, a failing check is not even evaluated",
        .enabled(if: !InternalChecks.isEnabled, "the build compiles the internal checks"))
    func checksCompiledOut() {
        var evaluated = false
        InternalChecks.check(
            {
                evaluated = true
                return false
            }(), "never shown")
        #expect(!evaluated)
    }

    @Test(
        "an object whose unretained context outlived it is caught on its next read", .tags(.exitTest),
        .enabled(
            if: InternalChecks.isEnabled && RuntimeTechniques.unretainedContext,
            "the build neither checks nor holds contexts unretained"))
    func staleContextReferenceIsCaught() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let entity = NSEntityDescription()
            entity.name = "Item"
            let model = NSManagedObjectModel()
            model.entities = [entity]
            let object = NSManagedObject(entity: entity, insertInto: nil)
            do {
                // Pointed at a context that never registered it, so the context cannot clear the
                // reference when it goes: the invariant the unretained reference relies on is broken.
                let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
                object._context = context
            }
            _ = object._context
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("refers to a context that is gone"))
    }
}
