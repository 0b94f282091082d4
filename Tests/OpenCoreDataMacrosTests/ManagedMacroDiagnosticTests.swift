import SwiftSyntaxMacrosGenericTestSupport
import Testing

@Suite("@Managed diagnostics")
struct ManagedMacroDiagnosticTests {
    @Test("'let' is an error whose fix-it makes it 'var'")
    func letProperty() {
        assertManagedExpansion(
            """
            final class Note: NSManagedObject {
                @Managed let title: String
            }
            """,
            expandedSource: """
                final class Note: NSManagedObject {
                    let title: String
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "'@Managed' property 'title' must be declared with 'var', not 'let'",
                    line: 2, column: 14,
                    fixIts: [FixItSpec(message: "replace 'let' with 'var'")]
                )
            ],
            fixedSource: """
                final class Note: NSManagedObject {
                    @Managed var title: String
                }
                """
        )
    }

    @Test("an initial value is an error whose fix-it removes it")
    func initialValue() {
        assertManagedExpansion(
            """
            final class Note: NSManagedObject {
                @Managed var priority: Int16 = 3
            }
            """,
            expandedSource: """
                final class Note: NSManagedObject {
                    var priority: Int16 = 3
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "'@Managed' property 'priority' cannot have an initial value; give the attribute a default value in the data model instead",
                    line: 2, column: 34,
                    fixIts: [FixItSpec(message: "remove the initial value")]
                )
            ],
            fixedSource: """
                final class Note: NSManagedObject {
                    @Managed var priority: Int16
                }
                """
        )
    }

    @Test(
        "a computed property is an error whose fix-it removes '@Managed'",
        arguments: [
            "{ title.count }",
            "{ get { title.count } set { } }",
            "{ get { title.count } }",
        ])
    func computedProperty(body: String) {
        assertManagedExpansion(
            """
            final class Note: NSManagedObject {
                @Managed var length: Int \(body)
            }
            """,
            expandedSource: """
                final class Note: NSManagedObject {
                    var length: Int \(body)
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "'@Managed' cannot be applied to computed property 'length'",
                    line: 2, column: 30,
                    fixIts: [FixItSpec(message: "remove '@Managed'")]
                )
            ],
        )
        #expect(
            fixedSourceAfterAllFixIts(inClass: "@Managed var length: Int \(body)")
                == "final class Note: NSManagedObject {\n    var length: Int \(body)\n}"
        )
    }

    @Test(
        "observers are an error whose fix-it removes them",
        arguments: [
            "{ didSet { print(title) } }",
            "{ willSet { } didSet { } }",
        ])
    func observers(body: String) {
        assertManagedExpansion(
            """
            final class Note: NSManagedObject {
                @Managed var title: String \(body)
            }
            """,
            expandedSource: """
                final class Note: NSManagedObject {
                    var title: String \(body)
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "'@Managed' property 'title' cannot have 'willSet' or 'didSet' observers",
                    line: 2, column: 32,
                    fixIts: [FixItSpec(message: "remove the observers")]
                )
            ],
        )
        #expect(
            fixedSourceAfterAllFixIts(inClass: "@Managed var title: String \(body)")
                == "final class Note: NSManagedObject {\n    @Managed var title: String\n}"
        )
    }

    @Test("a 'static' or 'class' property is an error whose fix-it removes the modifier", arguments: ["static", "class"])
    func typeProperty(modifier: String) {
        assertManagedExpansion(
            """
            final class Note: NSManagedObject {
                @Managed \(modifier) var count: Int
            }
            """,
            expandedSource: """
                final class Note: NSManagedObject {
                    \(modifier) var count: Int
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "'@Managed' is only allowed on instance properties; 'count' is '\(modifier)'",
                    line: 2, column: 14,
                    fixIts: [FixItSpec(message: "remove '\(modifier)'")]
                )
            ],
            fixedSource: """
                final class Note: NSManagedObject {
                    @Managed var count: Int
                }
                """
        )
    }

    @Test("'lazy', 'weak' and 'unowned' are errors whose fix-its remove them", arguments: ["lazy", "weak", "unowned"])
    func storageModifiers(modifier: String) {
        assertManagedExpansion(
            """
            final class Note: NSManagedObject {
                @Managed public \(modifier) var author: Author?
            }
            """,
            expandedSource: """
                final class Note: NSManagedObject {
                    public \(modifier) var author: Author?
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "'@Managed' property 'author' cannot be '\(modifier)'",
                    line: 2, column: 21,
                    fixIts: [FixItSpec(message: "remove '\(modifier)'")]
                )
            ],
            fixedSource: """
                final class Note: NSManagedObject {
                    @Managed public var author: Author?
                }
                """
        )
    }

    @Test("a property without a type annotation is an error whose fix-it adds a placeholder type")
    func missingType() {
        assertManagedExpansion(
            """
            final class Note: NSManagedObject {
                @Managed var title
            }
            """,
            expandedSource: """
                final class Note: NSManagedObject {
                    var title
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "'@Managed' property 'title' needs a type annotation: its declared type says how the stored value is read",
                    line: 2, column: 18,
                    fixIts: [FixItSpec(message: "add a type annotation")]
                )
            ],
            fixedSource: """
                final class Note: NSManagedObject {
                    @Managed var title: <#Type#>
                }
                """
        )
    }

    @Test("a property with only an initial value gets both errors; removing the value is the fix-it")
    func missingTypeWithInitialValue() {
        assertManagedExpansion(
            """
            final class Note: NSManagedObject {
                @Managed var count = 0
            }
            """,
            expandedSource: """
                final class Note: NSManagedObject {
                    var count = 0
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "'@Managed' property 'count' needs a type annotation: its declared type says how the stored value is read",
                    line: 2, column: 18
                ),
                DiagnosticSpec(
                    message: "'@Managed' property 'count' cannot have an initial value; give the attribute a default value in the data model instead",
                    line: 2, column: 24,
                    fixIts: [FixItSpec(message: "remove the initial value")]
                ),
            ],
            fixedSource: """
                final class Note: NSManagedObject {
                    @Managed var count
                }
                """
        )
    }

    @Test("every rule a declaration breaks is reported, and all fix-its together repair it")
    func severalErrors() {
        assertManagedExpansion(
            """
            final class Note: NSManagedObject {
                @Managed static let title: String = ""
            }
            """,
            expandedSource: """
                final class Note: NSManagedObject {
                    static let title: String = ""
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "'@Managed' property 'title' must be declared with 'var', not 'let'",
                    line: 2, column: 21,
                    fixIts: [FixItSpec(message: "replace 'let' with 'var'")]
                ),
                DiagnosticSpec(
                    message: "'@Managed' is only allowed on instance properties; 'title' is 'static'",
                    line: 2, column: 14,
                    fixIts: [FixItSpec(message: "remove 'static'")]
                ),
                DiagnosticSpec(
                    message: "'@Managed' property 'title' cannot have an initial value; give the attribute a default value in the data model instead",
                    line: 2, column: 39,
                    fixIts: [FixItSpec(message: "remove the initial value")]
                ),
            ],
            fixedSource: """
                final class Note: NSManagedObject {
                    @Managed var title: String
                }
                """
        )
    }

    @Test("a subscript is not a property: an error whose fix-it removes '@Managed'")
    func subscriptDeclaration() {
        assertManagedExpansion(
            """
            final class Note: NSManagedObject {
                @Managed subscript(index: Int) -> String { "" }
            }
            """,
            expandedSource: """
                final class Note: NSManagedObject {
                    subscript(index: Int) -> String { "" }
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "'@Managed' can only be applied to a 'var' property",
                    line: 2, column: 5,
                    fixIts: [FixItSpec(message: "remove '@Managed'")]
                )
            ],
        )
        #expect(
            fixedSourceAfterAllFixIts(inClass: #"@Managed subscript(index: Int) -> String { "" }"#)
                == #"final class Note: NSManagedObject {\#n    subscript(index: Int) -> String { "" }\#n}"#
        )
    }

    @Test("several properties in one declaration are an error and get no accessors")
    func multipleBindings() {
        assertManagedExpansion(
            """
            final class Note: NSManagedObject {
                @Managed var title: String, body: String
            }
            """,
            expandedSource: """
                final class Note: NSManagedObject {
                    var title: String, body: String
                }
                """,
            diagnostics: [
                // Swift itself refuses an accessor macro here, before `@Managed` is asked.
                DiagnosticSpec(message: "accessor macro can only be applied to a single variable", line: 2, column: 5)
            ]
        )
    }

    @Test("a tuple pattern is an error")
    func tuplePattern() {
        assertManagedExpansion(
            """
            final class Note: NSManagedObject {
                @Managed var (title, body): (String, String)
            }
            """,
            expandedSource: """
                final class Note: NSManagedObject {
                    var (title, body): (String, String)
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "'@Managed' property must be a single name, not a pattern",
                    line: 2, column: 18
                )
            ]
        )
    }

    @Test(
        "a property outside a class or extension is an error whose fix-it removes '@Managed'",
        arguments: [
            ("struct Note {", "in struct 'Note'"),
            ("enum Note {", "in enum 'Note'"),
            ("actor Note {", "in actor 'Note'"),
            ("protocol Note {", "in protocol 'Note'"),
            ("func make() {", "a local variable"),
        ])
    func wrongPlace(opening: String, place: String) {
        assertManagedExpansion(
            """
            \(opening)
                @Managed var title: String
            }
            """,
            expandedSource: """
                \(opening)
                    var title: String
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "'@Managed' is only allowed on properties of an NSManagedObject subclass or its extensions, not \(place)",
                    line: 2, column: 5,
                    fixIts: [FixItSpec(message: "remove '@Managed'")]
                )
            ],
            fixedSource: """
                \(opening)
                    var title: String
                }
                """
        )
    }

    @Test("a global variable is an error whose fix-it removes '@Managed'")
    func globalVariable() {
        assertManagedExpansion(
            "@Managed var title: String",
            expandedSource: "var title: String",
            diagnostics: [
                DiagnosticSpec(
                    message: "'@Managed' is only allowed on properties of an NSManagedObject subclass or its extensions, not a global variable",
                    line: 1, column: 1,
                    fixIts: [FixItSpec(message: "remove '@Managed'")]
                )
            ],
            fixedSource: "var title: String"
        )
    }
}
