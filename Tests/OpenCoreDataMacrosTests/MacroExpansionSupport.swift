import OpenCoreDataMacros
import SwiftDiagnostics
import SwiftParser
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// The macros under test, by the name they are spelled with in source.
let managedMacros: [String: MacroSpec] = ["Managed": MacroSpec(type: ManagedMacro.self)]

/// Expands `@Managed` in `source` and records a Swift Testing issue, at the caller's line, for every
/// difference from `expandedSource`, from the expected diagnostics, or (when given) from the source
/// after applying every diagnostic's first fix-it.
func assertManagedExpansion(
    _ source: String,
    expandedSource: String,
    diagnostics: [DiagnosticSpec] = [],
    fixedSource: String? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) {
    assertMacroExpansion(
        source,
        expandedSource: expandedSource,
        diagnostics: diagnostics,
        macroSpecs: managedMacros,
        fixedSource: fixedSource,
        failureHandler: { failure in
            Issue.record(
                Comment(rawValue: failure.message),
                sourceLocation: Testing.SourceLocation(
                    fileID: failure.location.fileID,
                    filePath: failure.location.filePath,
                    line: failure.location.line,
                    column: failure.location.column
                )
            )
        },
        fileID: fileID,
        filePath: filePath,
        line: line,
        column: column
    )
}

/// Puts `member` in `final class Note: NSManagedObject`, expands its `@Managed` attribute on the parsed
/// source itself, and returns the source after applying every fix-it of every diagnostic.
///
/// `assertMacroExpansion` applies fix-its through the nodes it detached for the expansion, which
/// misplaces them when the declaration has a body it rewrote (accessors, a subscript's body); the
/// compiler hands a macro the declaration as written, as this does.
func fixedSourceAfterAllFixIts(inClass member: String) -> String? {
    let source = "final class Note: NSManagedObject {\n    \(member)\n}"
    let file = Parser.parse(source: source)
    guard let type = file.statements.first?.item.as(ClassDeclSyntax.self),
        let declaration = type.memberBlock.members.first?.decl,
        let attributes = declaration.asProtocol((any WithAttributesSyntax).self)?.attributes,
        let attribute = attributes.first?.as(AttributeSyntax.self)
    else {
        return nil
    }
    let context = BasicMacroExpansionContext(lexicalContext: [Syntax(type)])
    guard (try? ManagedMacro.expansion(of: attribute, providingAccessorsOf: declaration, in: context)) != nil else {
        return nil
    }
    let edits = context.diagnostics.flatMap(\.fixIts).flatMap(\.edits)
        .sorted { $0.range.lowerBound > $1.range.lowerBound }
    var bytes = Array(source.utf8)
    for edit in edits {
        bytes.replaceSubrange(
            edit.range.lowerBound.utf8Offset..<edit.range.upperBound.utf8Offset,
            with: Array(edit.replacement.utf8)
        )
    }
    return String(decoding: bytes, as: UTF8.self)
}
