import OpenCoreData
import Testing

@Suite("Compound predicates")
struct CompoundPredicateTests {
    let yes = NSPredicate(value: true), no = NSPredicate(value: false)

    @Test("AND, OR and NOT combine subpredicates")
    func logic() {
        #expect(NSCompoundPredicate(andPredicateWithSubpredicates: [yes, yes]).evaluate(with: nil))
        #expect(!NSCompoundPredicate(andPredicateWithSubpredicates: [yes, no]).evaluate(with: nil))
        #expect(NSCompoundPredicate(orPredicateWithSubpredicates: [no, yes]).evaluate(with: nil))
        #expect(!NSCompoundPredicate(orPredicateWithSubpredicates: [no, no]).evaluate(with: nil))
        #expect(NSCompoundPredicate(notPredicateWithSubpredicate: no).evaluate(with: nil))
        #expect(!NSCompoundPredicate(notPredicateWithSubpredicate: yes).evaluate(with: nil))
    }

    @Test("an empty AND is true and an empty OR is false")
    func emptyCompounds() {
        #expect(NSCompoundPredicate(andPredicateWithSubpredicates: []).evaluate(with: nil))
        #expect(!NSCompoundPredicate(orPredicateWithSubpredicates: []).evaluate(with: nil))
    }

    @Test("type and subpredicates are kept; LogicalType has Apple's raw values")
    func accessors() {
        let compound = NSCompoundPredicate(type: .or, subpredicates: [yes, no])
        #expect(compound.compoundPredicateType == .or)
        #expect(compound.subpredicates.count == 2)
        #expect((compound.subpredicates[0] as? NSPredicate) === yes)
        #expect(NSCompoundPredicate.LogicalType.not.rawValue == 0)
        #expect(NSCompoundPredicate.LogicalType.and.rawValue == 1)
        #expect(NSCompoundPredicate.LogicalType.or.rawValue == 2)
    }

    @Test("nested compounds evaluate on real objects")
    func nested() {
        let person = QueryPerson(name: "Ann", age: 31, tags: ["swift"])
        let predicate = NSCompoundPredicate(andPredicateWithSubpredicates: [
            NSCompoundPredicate(orPredicateWithSubpredicates: [
                Q.compare("name", .beginsWith, "a", .caseInsensitive),
                Q.compare("name", .equalTo, "Bob"),
            ]),
            NSCompoundPredicate(notPredicateWithSubpredicate: Q.compare("age", .lessThan, 18)),
            Q.compare("tags", .contains, "swift"),
        ])
        #expect(predicate.evaluate(with: person))
        #expect(!predicate.evaluate(with: QueryPerson(name: "Ann", age: 12, tags: ["swift"])))
    }

    @Test("TRUEPREDICATE and FALSEPREDICATE print their format")
    func valuePredicateFormat() {
        #expect(yes.predicateFormat == "TRUEPREDICATE")
        #expect(no.description == "FALSEPREDICATE")
    }

    @Test("block predicates receive the object and the substitution variables")
    func blockPredicates() {
        let predicate = NSPredicate { object, bindings in
            (object as? Int ?? 0) > (bindings?["min"] as? Int ?? 0)
        }
        #expect(predicate.evaluate(with: 5))
        #expect(!predicate.evaluate(with: 5, substitutionVariables: ["min": 9]))
        #expect(predicate.predicateFormat.hasPrefix("BLOCKPREDICATE(0x"))
        #expect(predicate.isEqual(predicate) && !predicate.isEqual(NSPredicate { _, _ in true }))
    }

    @Test("structurally equal predicates are equal and hash alike")
    func equality() {
        let a = NSCompoundPredicate(andPredicateWithSubpredicates: [Q.compare("age", .greaterThan, 3), yes])
        let b = NSCompoundPredicate(andPredicateWithSubpredicates: [Q.compare("age", .greaterThan, 3), NSPredicate(value: true)])
        let c = NSCompoundPredicate(orPredicateWithSubpredicates: [Q.compare("age", .greaterThan, 3), yes])
        #expect(a.isEqual(b) && a.hash == b.hash)
        #expect(!a.isEqual(c))
        #expect(!Q.compare("age", .greaterThan, 3).isEqual(Q.compare("age", .greaterThan, 3, .caseInsensitive)))
        #expect(a.isEqual(a.copy()))
        #expect(!yes.isEqual(no))
    }

    @Test("NSPredicate(format:) returns the subclass the text describes")
    func classCluster() {
        let compound = NSPredicate(format: "age > %@ AND name == %@", 3, "Ann")
        #expect(compound is NSCompoundPredicate)
        #expect((compound as? NSCompoundPredicate)?.compoundPredicateType == .and)
        #expect(NSPredicate(format: "age > 3") is NSComparisonPredicate)
        #expect(NSComparisonPredicate(format: "age > 3").predicateOperatorType == .greaterThan)
        #expect(NSCompoundPredicate(format: "NOT age > 3").compoundPredicateType == .not)
        #expect(!(NSPredicate(format: "TRUEPREDICATE") is NSComparisonPredicate))
        #expect(NSPredicate(format: "TRUEPREDICATE").evaluate(with: nil))
        let array = NSPredicate(format: "age IN %@", argumentArray: [[1, 2, 3]])
        #expect(array.evaluate(with: ["age": 2]))
        #expect(compound.evaluate(with: ["age": 4, "name": "Ann"]))
    }

    @Test("the validating initializer throws for malformed text and for the wrong subclass")
    func validatingFormat() throws {
        #expect(throws: NSError.self) { try NSPredicate(validatingFormat: "age >") }
        #expect(throws: NSError.self) { try NSComparisonPredicate(validatingFormat: "a == 1 AND b == 2") }
        let parsed = try NSPredicate(validatingFormat: "name BEGINSWITH[c] %@", argumentArray: ["a"])
        #expect(parsed.evaluate(with: ["name": "Anna"]))
        do {
            _ = try NSPredicate(validatingFormat: "age >")
        } catch let error as NSError {
            #expect(error.domain == NSCocoaErrorDomain && error.code == NSFormattingError)
        }
    }

    @Test("withSubstitutionVariables keeps the predicate's class")
    func substitutionKeepsClass() {
        let compound = NSCompoundPredicate(andPredicateWithSubpredicates: [
            NSComparisonPredicate(
                leftExpression: Q.key("age"), rightExpression: NSExpression(forVariable: "a"),
                modifier: .direct, type: .equalTo)
        ])
        let bound = compound.withSubstitutionVariables(["a": 5])
        #expect(bound.compoundPredicateType == .and)
        #expect(bound.evaluate(with: ["age": 5]))
        #expect(NSPredicate(value: true).withSubstitutionVariables(["a": 1]).evaluate(with: nil))
    }
}
