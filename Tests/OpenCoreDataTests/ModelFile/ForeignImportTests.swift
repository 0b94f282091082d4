import Foundation
import OpenCoreData
// The one test file that imports Foundation as well as OpenCoreData, as ported code often does: scoped
// imports of OpenCoreData's five query classes make them win over Foundation's in every position.
import Testing

import class OpenCoreData.NSComparisonPredicate
import class OpenCoreData.NSCompoundPredicate
import class OpenCoreData.NSExpression
import class OpenCoreData.NSPredicate
import class OpenCoreData.NSSortDescriptor

@Suite("Importing Foundation alongside OpenCoreData")
struct ForeignImportTests {
    @Test("scoped imports make our classes win in type positions and casts")
    func scopedImports() {
        let predicate: NSPredicate = NSPredicate(format: "age > %@", 3)
        let comparison = predicate as? NSComparisonPredicate
        #expect(comparison?.predicateOperatorType == .greaterThan)
        let expression: NSExpression = NSExpression(forKeyPath: "age")
        #expect(expression.keyPath == "age")
        let compound: NSCompoundPredicate = NSCompoundPredicate(andPredicateWithSubpredicates: [predicate])
        #expect(compound.evaluate(with: ["age": 4]))
        let descriptors: [NSSortDescriptor] = [NSSortDescriptor(key: "age", ascending: false)]
        let sorted = [["age": 1], ["age": 2]].sortedArray(using: descriptors)
        #expect(sorted.first?["age"] == 2)
    }

    @Test("qualified names reach both modules' classes")
    func qualifiedNames() {
        let ours: OpenCoreData.NSPredicate = OpenCoreData.NSPredicate(value: true)
        let theirs: Foundation.NSPredicate = Foundation.NSPredicate(value: true)
        #expect(ours.evaluate(with: nil))
        #expect(theirs.evaluate(with: nil))
        #expect((ours as AnyObject) is OpenCoreData.NSPredicate)
        #expect(!((theirs as AnyObject) is OpenCoreData.NSPredicate))
    }
}
