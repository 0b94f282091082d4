import SwiftCompilerPlugin
import SwiftSyntaxMacros

/// The compiler plug-in that provides OpenCoreData's macros.
@main
struct OpenCoreDataMacrosPlugin: CompilerPlugin {
    /// The macros this plug-in expands.
    let providingMacros: [any Macro.Type] = [
        ManagedMacro.self
    ]
}
