import DocStore

/// A field change on every document of a collection, as a migration step makes it
/// in Swift (`DocumentCollection.renameField(_:to:)` and the others).
public enum FieldChangeCommand: Hashable, Sendable {
    /// `coll.renameField("old", to: "new")`: indexes on the field follow it.
    case rename(FieldPath, to: FieldPath)
    /// `coll.copyField("a", to: "b")`
    case copy(FieldPath, to: FieldPath)
    /// `coll.removeField("a")`: indexes on the field are dropped.
    case remove(FieldPath)
    /// `coll.setDefault("a", value)`: where the field is missing or null.
    case setDefault(FieldPath, JSONValue)
}

/// `coll.renameField("nickName", to: "nickname")`, `copyField`, `removeField`,
/// `setDefault`: fields named by a string (a top-level member) or a key path
/// (`\.stats.hr`).
extension CommandParser {
    static let fieldChangeMethods: Set<String> = ["renameField", "copyField", "removeField", "setDefault"]

    mutating func fieldChange(_ method: String) throws(REPLSyntaxError) -> FieldChangeCommand {
        try expect(.leftParen)
        let source = try changedField(isSource: method != "setDefault")
        let change: FieldChangeCommand
        switch method {
        case "renameField", "copyField":
            try expect(.comma, "and the new field, as in \(method)(\"old\", to: \"new\")")
            guard try acceptLabel("to") else {
                throw REPLSyntaxError("expected 'to:' as in \(method)(\"old\", to: \"new\"), found \(current.shown)", at: current.location)
            }
            let target = try changedField(isSource: false)
            change = method == "renameField" ? .rename(source, to: target) : .copy(source, to: target)
        case "removeField":
            change = .remove(source)
        default:
            try expect(.comma, "and the value, as in setDefault(\"field\", value)")
            _ = try acceptLabel("to")
            change = .setDefault(source, try valueArgument())
        }
        try expect(.rightParen)
        return change
    }

    /// `"name"` (a top-level member, any characters) or `\.a.b`. A field that is
    /// read (`isSource`) is checked against the sampled documents, so a typo gets
    /// a warning; a field being written is new, and isn't.
    private mutating func changedField(isSource: Bool) throws(REPLSyntaxError) -> FieldPath {
        let token = current
        let path: FieldPath
        switch token.kind {
        case .string(let name):
            try advance()
            path = FieldPath(name)
        case .symbol(.backslash):
            try advance()
            guard current.isSymbol(.dot) || current.isSymbol(.leftBracket) else {
                throw REPLSyntaxError("expected '.' after '\\' in a key path, found \(current.shown)", at: current.location)
            }
            path = try pathComponents(stopAt: [])
        default:
            throw REPLSyntaxError("expected a field name in quotes (\"nickname\") or a key path (\\.stats.hr), found \(token.shown)", at: token.location)
        }
        guard !path.components.isEmpty else {
            throw REPLSyntaxError("expected a field, not the whole document", at: token.location)
        }
        if isSource { checkField(path, at: token.location) }
        return path
    }
}
