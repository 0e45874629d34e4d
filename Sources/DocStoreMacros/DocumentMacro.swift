import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@Document`: adds `QueryableDocument` conformance and a `Fields` struct with one
/// typed `DocumentField` per stored property, keyed as the property is stored in
/// JSON (honouring `CodingKeys`), and the same properties as key paths for
/// `#Predicate` conversion (``DocumentKeyPathTable``). Both are `nonisolated`, whatever the module's
/// default isolation.
public struct DocumentMacro: ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard let model = Model(declaration, attribute: node, in: context) else { return [] }
        let properties = StoredProperty.all(in: declaration, in: context)
        guard !properties.hasErrors else { return [] }
        let keys = CodingKeysEnum(in: declaration)

        let access = model.accessModifier
        var members: [String] = [
            "\(access)let _path: DocStore.FieldPath",
            "\(access)init(_path: DocStore.FieldPath) {\nself._path = _path\n}",
        ]
        for property in properties.found {
            guard let key = keys.key(for: property.name) else { continue }
            let keyLiteral = StringLiteralExprSyntax(content: key)
            members.append("""
                \(property.accessModifier)var \(property.identifier): DocStore.DocumentField<\(property.type)> {
                DocStore.DocumentField(_path.appending(\(keyLiteral)))
                }
                """)
        }
        let conformance = Self.requests("QueryableDocument", in: protocols) ? ": DocStore.QueryableDocument" : ""
        // `nonisolated` on the extension and on `Fields`: in a module built with
        // `.defaultIsolation(MainActor.self)` (new Xcode app targets) both would
        // otherwise be main-actor isolated, making the conformance main-actor
        // isolated and typed queries unusable off the main actor. The fields only
        // build paths (and `Fields` is `Sendable` through `DocumentFieldSet`), so
        // nothing in them needs an actor. Elsewhere `nonisolated` changes nothing.
        let source: DeclSyntax = """
            nonisolated extension \(type.trimmed)\(raw: conformance) {
            \(raw: access)nonisolated struct Fields: DocStore.DocumentFieldSet {
            \(raw: members.joined(separator: "\n"))
            }
            }
            """
        guard let extensionDecl = source.as(ExtensionDeclSyntax.self) else { return [] }
        let keyPathTable = DocumentKeyPathTable.extensionDecl(
            for: type, properties: properties.found, keys: keys, access: access)
        return [extensionDecl.formatted().cast(ExtensionDeclSyntax.self)] + (keyPathTable.map { [$0] } ?? [])
            + DirectCoding.extensions(for: declaration, type: type, conformingTo: protocols,
                                      properties: properties.found, access: access)
    }

    /// Whether the compiler asks for a conformance to `name` (it leaves out those
    /// the type already has).
    static func requests(_ name: String, in protocols: [TypeSyntax]) -> Bool {
        var names: Set<String> = []
        for proto in protocols { Model.collectNames(proto, into: &names) }
        return names.contains(name)
    }
}

// MARK: The annotated type

/// The struct or final class `@Document` is attached to, once checked.
struct Model {
    var accessModifier: String

    init?(_ declaration: some DeclGroupSyntax, attribute: AttributeSyntax, in context: some MacroExpansionContext) {
        switch DeclSyntax(declaration).as(DeclSyntaxEnum.self) {
        case .structDecl(let decl):
            guard Self.checkCodable(decl.inheritanceClause, name: decl.name, generics: decl.genericParameterClause,
                                    attribute: attribute, in: context) else { return nil }
        case .classDecl(let decl):
            guard decl.modifiers.contains(where: { $0.name.tokenKind == .keyword(.final) }) else {
                context.diagnose(Diagnostic(
                    node: decl.classKeyword, message: DocumentDiagnostic.classNotFinal,
                    fixIt: FixIt(message: DocumentFixIt.addFinal, changes: [
                        .replace(oldNode: Syntax(decl.classKeyword),
                                 newNode: Syntax(decl.classKeyword.with(\.tokenKind, .identifier("final class")))),
                    ])))
                return nil
            }
            guard Self.checkCodable(decl.inheritanceClause, name: decl.name, generics: decl.genericParameterClause,
                                    attribute: attribute, in: context) else { return nil }
        case .enumDecl(let decl):
            context.diagnose(Diagnostic(node: decl.enumKeyword, message: DocumentDiagnostic.enumNotSupported))
            return nil
        case .actorDecl(let decl):
            context.diagnose(Diagnostic(node: decl.actorKeyword, message: DocumentDiagnostic.actorNotSupported))
            return nil
        default:
            context.diagnose(Diagnostic(node: attribute, message: DocumentDiagnostic.notAType))
            return nil
        }
        accessModifier = Self.typeAccess(declaration.modifiers)
    }

    /// `public ` / `package ` for public, open and package types; nothing otherwise
    /// (members of an internal, fileprivate or private type default to its access).
    static func typeAccess(_ modifiers: DeclModifierListSyntax) -> String {
        for modifier in modifiers where modifier.detail == nil {
            switch modifier.name.tokenKind {
            case .keyword(.public), .keyword(.open): return "public "
            case .keyword(.package): return "package "
            default: continue
            }
        }
        return ""
    }

    /// Whether the type declares `Codable` (or `Encodable` and `Decodable`, or
    /// `QueryableDocument`); diagnoses it otherwise, with a fix-it adding `Codable`.
    static func checkCodable(
        _ clause: InheritanceClauseSyntax?, name: TokenSyntax, generics: GenericParameterClauseSyntax?,
        attribute: AttributeSyntax, in context: some MacroExpansionContext
    ) -> Bool {
        var names: Set<String> = []
        for inherited in clause?.inheritedTypes ?? [] {
            Self.collectNames(inherited.type, into: &names)
        }
        if names.contains("Codable") || names.contains("QueryableDocument")
            || (names.contains("Encodable") && names.contains("Decodable")) {
            return true
        }
        var fixIts: [FixIt] = []
        if let clause {
            let types = clause.inheritedTypes
            var list = Array(types)
            if let last = list.popLast() {
                list.append(last.with(\.trailingComma, .commaToken(trailingTrivia: .space)).with(\.type, last.type.trimmed))
            }
            list.append(InheritedTypeSyntax(type: TypeSyntax(IdentifierTypeSyntax(name: .identifier("Codable"))),
                                            trailingTrivia: types.last?.trailingTrivia ?? []))
            let newClause = clause.with(\.inheritedTypes, InheritedTypeListSyntax(list))
            fixIts.append(FixIt(message: DocumentFixIt.addCodable,
                                changes: [.replace(oldNode: Syntax(clause), newNode: Syntax(newClause))]))
        } else if generics == nil {
            let newName = name.with(\.tokenKind, .identifier(name.text + ": Codable"))
            fixIts.append(FixIt(message: DocumentFixIt.addCodable,
                                changes: [.replace(oldNode: Syntax(name), newNode: Syntax(newName))]))
        }
        context.diagnose(Diagnostic(node: name, message: DocumentDiagnostic.notCodable, fixIts: fixIts))
        return false
    }

    /// The last component of each protocol named by an inherited type (`Swift.Codable`
    /// is `Codable`; a composition `Encodable & Decodable` names both).
    static func collectNames(_ type: TypeSyntax, into names: inout Set<String>) {
        if let composition = type.as(CompositionTypeSyntax.self) {
            for element in composition.elements { collectNames(element.type, into: &names) }
        } else if let member = type.as(MemberTypeSyntax.self) {
            names.insert(member.name.text)
        } else if let identifier = type.as(IdentifierTypeSyntax.self) {
            names.insert(identifier.name.text)
        }
    }
}

// MARK: CodingKeys

/// The type's `CodingKeys` enum, when it declares one: which properties are
/// stored, and under which names.
struct CodingKeysEnum {
    /// Property name → JSON member name; `nil` when there is no `CodingKeys`.
    var keys: [String: String]?

    init(in declaration: some DeclGroupSyntax) {
        for member in declaration.memberBlock.members {
            guard let decl = member.decl.as(EnumDeclSyntax.self), decl.name.text == "CodingKeys" else { continue }
            var names: Set<String> = []
            for inherited in decl.inheritanceClause?.inheritedTypes ?? [] {
                Model.collectNames(inherited.type, into: &names)
            }
            let usesRawValues = names.contains("String")
            var keys: [String: String] = [:]
            for caseMember in decl.memberBlock.members {
                guard let caseDecl = caseMember.decl.as(EnumCaseDeclSyntax.self) else { continue }
                for element in caseDecl.elements {
                    let name = element.name.text.trimmingBackticks
                    keys[name] = usesRawValues ? (element.rawValue.flatMap { Self.literal($0.value) } ?? name) : name
                }
            }
            self.keys = keys
            return
        }
        keys = nil
    }

    /// The JSON member name of a property, or `nil` when it isn't coded.
    func key(for property: String) -> String? {
        guard let keys else { return property }
        return keys[property]
    }

    /// The text of a simple string literal (`"first_name"`).
    static func literal(_ expression: ExprSyntax) -> String? {
        guard let literal = expression.as(StringLiteralExprSyntax.self) else { return nil }
        var text = ""
        for segment in literal.segments {
            guard let plain = segment.as(StringSegmentSyntax.self) else { return nil }
            text += plain.content.text
        }
        return literal.openingPounds == nil ? Self.unescaped(text) : text
    }

    /// Resolves the common escapes of a non-raw string literal.
    static func unescaped(_ text: String) -> String {
        guard text.contains("\\") else { return text }
        var result = ""
        var iterator = text.makeIterator()
        while let character = iterator.next() {
            guard character == "\\", let next = iterator.next() else { result.append(character); continue }
            switch next {
            case "n": result.append("\n")
            case "t": result.append("\t")
            case "r": result.append("\r")
            case "0": result.append("\0")
            default: result.append(next)
            }
        }
        return result
    }
}

extension String {
    var trimmingBackticks: String {
        hasPrefix("`") && hasSuffix("`") && count >= 2 ? String(dropFirst().dropLast()) : self
    }
}
