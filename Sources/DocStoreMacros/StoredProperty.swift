import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// A stored instance property of the annotated type: what Codable synthesis encodes.
struct StoredProperty {
    /// The name as written, backticks included (`` `default` ``), for the field's name.
    var identifier: String
    /// The name without backticks: the JSON member name when no `CodingKeys` renames it.
    var name: String
    /// The declared type, implicitly unwrapped optionals made plain optionals.
    var type: TypeSyntax
    /// `public ` / `package ` / `fileprivate ` / nothing, from the property's own access.
    var accessModifier: String

    struct Collection {
        var found: [StoredProperty] = []
        var hasErrors = false
    }

    /// The stored properties of `declaration`, in order. Computed, static, class and
    /// `lazy` properties are skipped; a stored property without a type annotation is
    /// diagnosed (with a fix-it when its initial value is a literal).
    static func all(in declaration: some DeclGroupSyntax, in context: some MacroExpansionContext) -> Collection {
        var result = Collection()
        for member in declaration.memberBlock.members {
            guard let variable = member.decl.as(VariableDeclSyntax.self) else { continue }
            if variable.modifiers.contains(where: { modifier in
                [.keyword(.static), .keyword(.class), .keyword(.lazy)].contains(modifier.name.tokenKind)
            }) { continue }
            let access = Self.access(variable.modifiers)
            let bindings = Array(variable.bindings)
            for (index, binding) in bindings.enumerated() {
                if let accessors = binding.accessorBlock, isComputed(accessors) { continue }
                guard let pattern = binding.pattern.as(IdentifierPatternSyntax.self) else {
                    context.diagnose(Diagnostic(node: binding.pattern, message: DocumentDiagnostic.unsupportedPattern))
                    result.hasErrors = true
                    continue
                }
                // `var a, b: Int`: `a` takes the type of the next annotated binding.
                let annotation = binding.typeAnnotation ?? (binding.initializer == nil
                    ? bindings[(index + 1)...].first(where: { $0.typeAnnotation != nil })?.typeAnnotation : nil)
                guard let type = annotation?.type else {
                    diagnoseMissingType(binding, pattern: pattern, in: context)
                    result.hasErrors = true
                    continue
                }
                result.found.append(StoredProperty(
                    identifier: pattern.identifier.text,
                    name: pattern.identifier.text.trimmingBackticks,
                    type: plainOptional(type.trimmed),
                    accessModifier: access))
            }
        }
        return result
    }

    /// Whether an accessor block makes a property computed: a getter, or any
    /// accessor but the `willSet`/`didSet` observers of a stored property.
    static func isComputed(_ block: AccessorBlockSyntax) -> Bool {
        switch block.accessors {
        case .getter:
            return true
        case .accessors(let accessors):
            return accessors.contains { accessor in
                accessor.accessorSpecifier.tokenKind != .keyword(.willSet)
                    && accessor.accessorSpecifier.tokenKind != .keyword(.didSet)
            }
        }
    }

    /// `Int!` → `Int?`, recursively at the top level only (a field's value type).
    static func plainOptional(_ type: TypeSyntax) -> TypeSyntax {
        if let iuo = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
            return TypeSyntax(OptionalTypeSyntax(wrappedType: iuo.wrappedType.trimmed))
        }
        if let attributed = type.as(AttributedTypeSyntax.self) {
            return plainOptional(attributed.baseType.trimmed)
        }
        return type
    }

    /// The field's access modifier, from the property's: public and package stay,
    /// private and fileprivate become fileprivate (the `Fields` struct is another
    /// type), internal or none give none.
    static func access(_ modifiers: DeclModifierListSyntax) -> String {
        for modifier in modifiers where modifier.detail == nil {
            switch modifier.name.tokenKind {
            case .keyword(.public), .keyword(.open): return "public "
            case .keyword(.package): return "package "
            case .keyword(.private), .keyword(.fileprivate): return "fileprivate "
            default: continue
            }
        }
        return ""
    }

    static func diagnoseMissingType(
        _ binding: PatternBindingSyntax, pattern: IdentifierPatternSyntax, in context: some MacroExpansionContext
    ) {
        var fixIts: [FixIt] = []
        if let literalType = binding.initializer.flatMap({ literalType(of: $0.value) }) {
            let newBinding = binding
                .with(\.pattern, PatternSyntax(pattern.with(\.identifier, pattern.identifier.trimmed)))
                .with(\.typeAnnotation, TypeAnnotationSyntax(
                    colon: .colonToken(trailingTrivia: .space),
                    type: TypeSyntax(IdentifierTypeSyntax(name: .identifier(literalType, trailingTrivia: .space)))))
            fixIts.append(FixIt(message: DocumentFixIt.addType(literalType),
                                changes: [.replace(oldNode: Syntax(binding), newNode: Syntax(newBinding))]))
        }
        context.diagnose(Diagnostic(
            node: pattern, message: DocumentDiagnostic.missingType(pattern.identifier.text), fixIts: fixIts))
    }

    /// The type Swift infers for a literal initial value.
    static func literalType(of expression: ExprSyntax) -> String? {
        switch expression.kind {
        case .integerLiteralExpr: "Int"
        case .floatLiteralExpr: "Double"
        case .stringLiteralExpr: "String"
        case .booleanLiteralExpr: "Bool"
        default:
            if let prefix = expression.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-" {
                literalType(of: prefix.expression)
            } else {
                nil
            }
        }
    }
}
