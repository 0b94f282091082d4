import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// The class around a single property declaration, as the tests write it before expansion.
private func noteClass(_ member: String) -> String {
    """
    final class Note: NSManagedObject {
        \(member)
    }
    """
}

/// What `@Managed var <name>: <type>` (with `modifiers`) becomes inside `Note`.
private func expandedNoteClass(_ name: String, _ type: String, key: String? = nil, modifiers: String = "") -> String {
    """
    final class Note: NSManagedObject {
        \(modifiers)var \(name): \(type) {
            get {
                managedValue(forKey: "\(key ?? name)")
            }
            set {
                setManagedValue(newValue, forKey: "\(key ?? name)")
            }
        }
    }
    """
}

@Suite("@Managed expansion")
struct ManagedMacroExpansionTests {
    static let attributeTypes = [
        "Int16", "Int32", "Int64", "Int", "Double", "Float", "Bool",
        "Decimal", "Date", "Data", "String", "UUID", "URL",
    ]

    @Test("a non-optional attribute of every type reads and writes its key", arguments: attributeTypes)
    func nonOptionalAttribute(type: String) {
        assertManagedExpansion(
            noteClass("@Managed var value: \(type)"),
            expandedSource: expandedNoteClass("value", type)
        )
    }

    @Test("an optional attribute of every type reads and writes its key", arguments: attributeTypes)
    func optionalAttribute(type: String) {
        assertManagedExpansion(
            noteClass("@Managed var value: \(type)?"),
            expandedSource: expandedNoteClass("value", "\(type)?")
        )
    }

    @Test(
        "the written types of Optional are kept as declared",
        arguments: [
            "Optional<String>", "Swift.Int64", "Foundation.Date?", "String!",
        ])
    func spelledTypes(type: String) {
        assertManagedExpansion(
            noteClass("@Managed var value: \(type)"),
            expandedSource: expandedNoteClass("value", type)
        )
    }

    @Test(
        "relationships of every shape read and write their key",
        arguments: [
            "Author?", "Author", "Set<Book>", "Set<Book>?", "NSSet", "NSSet?", "NSOrderedSet", "NSOrderedSet?",
        ])
    func relationship(type: String) {
        assertManagedExpansion(
            noteClass("@Managed var related: \(type)"),
            expandedSource: expandedNoteClass("related", type)
        )
    }

    @Test(
        "access and other modifiers stay on the property",
        arguments: [
            "public ", "open ", "internal ", "fileprivate ", "private ", "public private(set) ",
            "public internal(set) ", "final ", "override ", "nonisolated ", "dynamic ",
        ])
    func modifiers(modifiers: String) {
        assertManagedExpansion(
            noteClass("@Managed \(modifiers)var title: String?"),
            expandedSource: expandedNoteClass("title", "String?", modifiers: modifiers)
        )
    }

    @Test("a backticked name uses the bare name as its key")
    func backtickedName() {
        assertManagedExpansion(
            noteClass("@Managed var `default`: Bool"),
            expandedSource: expandedNoteClass("`default`", "Bool", key: "default")
        )
    }

    @Test("a non-ASCII name is its own key")
    func unicodeName() {
        assertManagedExpansion(
            noteClass("@Managed var größe: Double"),
            expandedSource: expandedNoteClass("größe", "Double")
        )
    }

    @Test("properties in an extension expand as in the class (Xcode's +CoreDataProperties layout)")
    func extensionProperties() {
        assertManagedExpansion(
            """
            extension Note {
                @Managed public var title: String?
                @Managed public var tags: NSSet?
            }
            """,
            expandedSource: """
                extension Note {
                    public var title: String? {
                        get {
                            managedValue(forKey: "title")
                        }
                        set {
                            setManagedValue(newValue, forKey: "title")
                        }
                    }
                    public var tags: NSSet? {
                        get {
                            managedValue(forKey: "tags")
                        }
                        set {
                            setManagedValue(newValue, forKey: "tags")
                        }
                    }
                }
                """
        )
    }

    @Test("other attributes, comments and an attribute on its own line are kept")
    func surroundingTrivia() {
        assertManagedExpansion(
            """
            final class Note: NSManagedObject {
                /// The note's text.
                @available(*, deprecated, message: "use body")
                @Managed
                var text: String?
            }
            """,
            expandedSource: """
                final class Note: NSManagedObject {
                    /// The note's text.
                    @available(*, deprecated, message: "use body")
                    var text: String? {
                        get {
                            managedValue(forKey: "text")
                        }
                        set {
                            setManagedValue(newValue, forKey: "text")
                        }
                    }
                }
                """
        )
    }

    @Test("a class nested in another type may declare managed properties")
    func nestedClass() {
        assertManagedExpansion(
            """
            enum Blog {
                final class Post: NSManagedObject {
                    @Managed var title: String
                }
            }
            """,
            expandedSource: """
                enum Blog {
                    final class Post: NSManagedObject {
                        var title: String {
                            get {
                                managedValue(forKey: "title")
                            }
                            set {
                                setManagedValue(newValue, forKey: "title")
                            }
                        }
                    }
                }
                """
        )
    }
}
