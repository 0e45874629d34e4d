import SwiftSyntax
import SwiftSyntaxBuilder

/// The second extension `@Document` writes: the model's stored properties as key
/// paths with their JSON member names (`_documentKeyPaths`), which lets DocStore
/// turn a Foundation `#Predicate` on the model into a query. Kept apart from the
/// `Fields` extension: it follows the same properties and `CodingKeys`, but only
/// the predicate converter reads it.
enum DocumentKeyPathTable {
    /// `nonisolated extension Model { static var _documentKeyPaths: [DocumentKeyPath] }`,
    /// listing each stored property that is coded, under its JSON member name.
    static func extensionDecl(
        for type: some TypeSyntaxProtocol, properties: [StoredProperty], keys: CodingKeysEnum, access: String
    ) -> ExtensionDeclSyntax? {
        let entries = properties.compactMap { property -> String? in
            guard let key = keys.key(for: property.name) else { return nil }
            let keyLiteral = StringLiteralExprSyntax(content: key)
            return "DocStore.DocumentKeyPath(\\Self.\(property.identifier), \(keyLiteral)),"
        }
        let list = entries.isEmpty ? "[]" : "[\n" + entries.joined(separator: "\n") + "\n]"
        // `nonisolated` for the same reason as the `Fields` extension: the table
        // only names key paths, and must be usable off the main actor.
        let source: DeclSyntax = """
            nonisolated extension \(type.trimmed) {
            \(raw: access)nonisolated static var _documentKeyPaths: [DocStore.DocumentKeyPath] {
            \(raw: list)
            }
            }
            """
        return source.as(ExtensionDeclSyntax.self)?.formatted().cast(ExtensionDeclSyntax.self)
    }
}
