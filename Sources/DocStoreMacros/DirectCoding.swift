import SwiftSyntax

/// The generated-coding half of `@Document`: extensions conforming the model to
/// `DirectJSONEncodable` and `DirectJSONDecodable`, whose members write and read
/// each coded property directly (no `Codable` containers). Kept apart from the
/// `Fields` generation in `DocumentMacro.swift`.
///
/// The generated code must do exactly what the synthesized `Codable` conformance
/// does, so it is only generated when that conformance is synthesized and its
/// shape can be read from the declaration:
/// - members in `CodingKeys` case order (synthesis follows the enum), named by
///   its raw values; without `CodingKeys`, every stored property in order;
/// - a hand-written `encode(to:)` or `init(from:)` in the type's body keeps that
///   direction on the generic path (the macro can't see one written in an
///   extension elsewhere: declare it in the type);
/// - a `let` with an initial value is encoded but not decoded, as synthesis does;
/// - no generation at all when a stored property has an attribute (a property
///   wrapper encodes its wrapper), the type has a `lazy` property, or its
///   `CodingKeys` is not a plain enum of cases;
/// - classes get encoding only (an extension can't add a designated
///   initializer), and only when every inherited type is a protocol the macro
///   knows (a superclass has its own members and coding).
enum DirectCoding {
    static let encodableProtocol = "DirectJSONEncodable"
    static let decodableProtocol = "DirectJSONDecodable"

    /// The extensions to add, one per requested protocol the model qualifies for.
    static func extensions(
        for declaration: some DeclGroupSyntax, type: some TypeSyntaxProtocol, conformingTo protocols: [TypeSyntax],
        properties: [StoredProperty], access: String
    ) -> [ExtensionDeclSyntax] {
        var requested: Set<String> = []
        for proto in protocols { Model.collectNames(proto, into: &requested) }
        guard requested.contains(encodableProtocol) || requested.contains(decodableProtocol),
              let members = CodedMember.all(in: declaration, properties: properties) else { return [] }
        let shape = DeclaredCoding(declaration)
        var sources: [DeclSyntax] = []
        if requested.contains(encodableProtocol), !shape.hasEncode, shape.qualifiesForEncoding {
            let lines = members.map { member in
                "try object.encode(self.\(member.identifier), forKey: \(swiftLiteral(member.key)), json: \(swiftLiteral(jsonMemberPrefix(member.key))))"
            }
            sources.append("""
                nonisolated extension \(type.trimmed): DocStore.DirectJSONEncodable {
                \(raw: access)nonisolated func _encodeDirectJSON(to object: DocStore.DirectJSONObjectEncoder) throws {
                \(raw: lines.joined(separator: "\n"))
                }
                }
                """)
        }
        if requested.contains(decodableProtocol), !shape.hasInitFrom, !shape.isClass {
            let lines = members.filter(\.isDecoded).map { member in
                "self.\(member.identifier) = try object.decode(\(metatypeBase(member.type)).self, forKey: \(swiftLiteral(member.key)))"
            }
            sources.append("""
                nonisolated extension \(type.trimmed): DocStore.DirectJSONDecodable {
                \(raw: access)nonisolated init(_directJSON object: DocStore.DirectJSONObjectDecoder) throws {
                \(raw: lines.joined(separator: "\n"))
                }
                }
                """)
        }
        return sources.compactMap { $0.as(ExtensionDeclSyntax.self)?.formatted().as(ExtensionDeclSyntax.self) }
    }

    /// The JSON text of a member's name and colon, `"name":`, escaped exactly as
    /// DocStore's writer escapes strings.
    static func jsonMemberPrefix(_ name: String) -> String {
        var text = "\""
        for scalar in name.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case "\u{08}": text += "\\b"
            case "\u{0C}": text += "\\f"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    text += "\\u00" + (hex.count == 1 ? "0" + hex : hex)
                } else {
                    text.unicodeScalars.append(scalar)
                }
            }
        }
        return text + "\":"
    }

    /// A Swift string literal whose value is `text`.
    static func swiftLiteral(_ text: String) -> String {
        var literal = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": literal += "\\\""
            case "\\": literal += "\\\\"
            case "\n": literal += "\\n"
            case "\r": literal += "\\r"
            case "\t": literal += "\\t"
            case "\0": literal += "\\0"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    literal += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    literal.unicodeScalars.append(scalar)
                }
            }
        }
        return literal + "\""
    }

    /// The type as it can precede `.self`: plain for named, array, dictionary and
    /// optional types, parenthesized otherwise.
    static func metatypeBase(_ type: TypeSyntax) -> String {
        switch type.kind {
        case .identifierType, .memberType, .arrayType, .dictionaryType, .optionalType: type.trimmedDescription
        default: "(\(type.trimmedDescription))"
        }
    }
}

/// A coded property: its name in Swift and in JSON, its type, and whether the
/// synthesized `init(from:)` assigns it.
struct CodedMember {
    var identifier: String
    var key: String
    var type: TypeSyntax
    var isDecoded: Bool

    /// The coded members in synthesis order, or nil when the macro can't tell
    /// what synthesis does (see ``DirectCoding``).
    static func all(in declaration: some DeclGroupSyntax, properties: [StoredProperty]) -> [CodedMember]? {
        var constants: Set<String> = []
        for member in declaration.memberBlock.members {
            guard let variable = member.decl.as(VariableDeclSyntax.self),
                  !variable.modifiers.contains(where: { $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class) })
            else { continue }
            if variable.modifiers.contains(where: { $0.name.tokenKind == .keyword(.lazy) }) || !variable.attributes.isEmpty {
                return nil
            }
            guard variable.bindingSpecifier.tokenKind == .keyword(.let) else { continue }
            for binding in variable.bindings where binding.initializer != nil {
                if let pattern = binding.pattern.as(IdentifierPatternSyntax.self) {
                    constants.insert(pattern.identifier.text.trimmingBackticks)
                }
            }
        }
        let byName = Dictionary(properties.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        guard let keys = OrderedCodingKeys(in: declaration, properties: properties) else { return nil }
        var members: [CodedMember] = []
        for (name, key) in keys.keys {
            guard let property = byName[name] else { return nil }
            members.append(CodedMember(identifier: property.identifier, key: key, type: property.type,
                                       isDecoded: !constants.contains(name)))
        }
        return members
    }
}

/// The coding keys in the order synthesis uses them: `CodingKeys`' cases, or the
/// stored properties when there is no `CodingKeys`.
struct OrderedCodingKeys {
    /// Property name and JSON member name.
    var keys: [(name: String, key: String)] = []

    init?(in declaration: some DeclGroupSyntax, properties: [StoredProperty]) {
        var declared: EnumDeclSyntax?
        for member in declaration.memberBlock.members {
            if let decl = member.decl.as(EnumDeclSyntax.self), decl.name.text == "CodingKeys" {
                declared = decl
            } else if Self.declaresName(member.decl, "CodingKeys") {
                return nil  // a struct or typealias: not something the macro reads
            }
        }
        guard let declared else {
            keys = properties.map { ($0.name, $0.name) }
            return
        }
        var names: Set<String> = []
        for inherited in declared.inheritanceClause?.inheritedTypes ?? [] {
            Model.collectNames(inherited.type, into: &names)
        }
        let usesRawValues = names.contains("String")
        for caseMember in declared.memberBlock.members {
            // Anything but plain cases (a custom `stringValue`…) may change the names.
            guard let caseDecl = caseMember.decl.as(EnumCaseDeclSyntax.self) else { return nil }
            for element in caseDecl.elements {
                guard element.parameterClause == nil else { return nil }
                let name = element.name.text.trimmingBackticks
                var key = name
                if usesRawValues, let rawValue = element.rawValue {
                    guard let literal = CodingKeysEnum.literal(rawValue.value) else { return nil }
                    key = literal
                }
                keys.append((name, key))
            }
        }
    }

    private static func declaresName(_ decl: DeclSyntax, _ name: String) -> Bool {
        if let decl = decl.as(StructDeclSyntax.self) { return decl.name.text == name }
        if let decl = decl.as(ClassDeclSyntax.self) { return decl.name.text == name }
        if let decl = decl.as(TypeAliasDeclSyntax.self) { return decl.name.text == name }
        return false
    }
}

/// What the declaration itself says about its coding.
struct DeclaredCoding {
    var hasEncode = false
    var hasInitFrom = false
    var isClass = false
    /// For a class: every inherited type is a protocol the macro knows.
    var qualifiesForEncoding = true

    /// Protocols a final class may list and still have its `encode(to:)` synthesized
    /// from its own stored properties alone.
    static let knownProtocols: Set<String> = [
        "Codable", "Encodable", "Decodable", "QueryableDocument", "Sendable", "Identifiable", "Equatable",
        "Hashable", "AnyObject", "CustomStringConvertible", "CustomDebugStringConvertible", "Comparable",
    ]

    init(_ declaration: some DeclGroupSyntax) {
        for member in declaration.memberBlock.members {
            if let function = member.decl.as(FunctionDeclSyntax.self), function.name.text == "encode",
               function.signature.parameterClause.parameters.first?.firstName.text == "to",
               function.signature.parameterClause.parameters.count == 1 {
                hasEncode = true
            }
            if let initializer = member.decl.as(InitializerDeclSyntax.self),
               initializer.signature.parameterClause.parameters.first?.firstName.text == "from",
               initializer.signature.parameterClause.parameters.count == 1 {
                hasInitFrom = true
            }
        }
        if let decl = declaration.as(ClassDeclSyntax.self) {
            isClass = true
            var names: Set<String> = []
            for inherited in decl.inheritanceClause?.inheritedTypes ?? [] {
                Model.collectNames(inherited.type, into: &names)
            }
            qualifiesForEncoding = names.isSubset(of: Self.knownProtocols)
        }
    }
}
