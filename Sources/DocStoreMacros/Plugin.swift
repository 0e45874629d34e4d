import SwiftCompilerPlugin
import SwiftSyntaxMacros

@main
struct DocStoreMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [DocumentMacro.self]
}
