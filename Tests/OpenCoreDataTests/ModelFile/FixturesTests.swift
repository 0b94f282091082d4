import Foundation
import Testing

@Suite("Fixtures")
struct FixturesTests {
    @Test("every model bundle from shared/fixtures is copied into Tests/Fixtures")
    func modelBundlesArePresent() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Fixtures.models.path)
        let bundles = names.filter { $0.hasSuffix(".xcdatamodeld") || $0.hasSuffix(".xcdatamodel") }
        #expect(bundles.count == 45)
    }
}
