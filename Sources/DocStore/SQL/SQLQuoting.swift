/// The one function that puts an identifier (table, index name) into SQL text.
///
/// SQLite identifiers are double-quoted with inner quotes doubled; that handles
/// every character but NUL, which collection names may not contain (checked by
/// ``CollectionName/validate(_:)``). Values never go through here: they are bound
/// parameters.
func quoteIdentifier(_ name: String) -> String {
    "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}
