import OpenCoreData
import Testing

@Suite("Query programmer errors trap, as Apple raises")
struct QueryProgrammerErrorTests {
    @Test("NSPredicate(format:) with malformed text traps with a message quoting the text and the offset", .tags(.exitTest))
    func malformedFormatTraps() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = NSPredicate(format: "age >")
        }
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("\"age >\""))
        #expect(message.contains("offset 5"))
    }

    @Test("asking a subclass for text of another kind traps", .tags(.exitTest))
    func wrongSubclassTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = NSComparisonPredicate(format: "a == 1 AND b == 2")
        }
    }

    @Test("reading an accessor that does not apply to the expression's kind traps", .tags(.exitTest))
    func wrongAccessorTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = NSExpression(forConstantValue: 1).keyPath
        }
    }

    @Test("an unknown function name traps for programmatic construction", .tags(.exitTest))
    func unknownFunctionTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = NSExpression(forFunction: "frobnicate:", arguments: [NSExpression(forConstantValue: 1)])
        }
    }

    @Test("an unknown sort selector traps", .tags(.exitTest))
    func unknownSortSelectorTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = NSSortDescriptor(key: "a", ascending: true, selector: "frobnicate:")
        }
    }

    @Test("a Swift key path that cannot be named traps in NSExpression(forKeyPath:)", .tags(.exitTest))
    func unnamedKeyPathTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = NSExpression(forKeyPath: \[Int].count)
        }
    }
}
