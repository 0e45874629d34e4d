/// The one function that puts an identifier (table, index name) into SQL text.
///
/// SQLite identifiers are double-quoted with inner quotes doubled; that handles
/// every character but NUL, which collection names may not contain (checked by
/// ``CollectionName/validate(_:)``). Values never go through here: they are bound
/// parameters.
func quoteIdentifier(_ name: String) -> String {
    "\"" + name.replacingBytes(of: "\"", with: "\"\"") + "\""
}

/// The one function that puts a JSON path into SQL text, as a SQL string literal
/// such as `'$."stats"."battingAverage"'` or `'$."tags"[2]'`; `nil` when SQLite's
/// JSON path syntax can't name one of the components.
///
/// Paths live in the SQL text, not in bindings, because an index expression can't
/// hold a bound parameter, and a query uses an index only when it repeats the
/// index's expression exactly. Every member is written in the quoted form `."…"`,
/// so dots, brackets, `$`, spaces, single quotes and emoji need nothing special.
///
/// What SQLite 3.40's path parser cannot express (``isExpressibleInJSONPath(_:)``):
/// - a member name containing `"`: the quoted form ends at the first `"` and has no escape;
/// - names the stored JSON may write with escapes (`\`, `/`, control characters,
///   U+2028/U+2029): SQLite compares the path's bytes with the member's *raw* JSON
///   text, so `"a\\b"` in a document is not found by `$."a\b"`;
/// - negative array positions.
/// The compiler reaches such members through `json_each` with the name bound as a
/// parameter instead (correct, but no index can serve it).
func quoteJSONPath<Components: Collection<FieldPath.Component>>(_ components: Components) -> String? {
    var path = "$"
    for component in components {
        switch component {
        case .key(let key):
            guard isExpressibleInJSONPath(key) else { return nil }
            path += ".\"" + key + "\""
        case .index(let index):
            guard index >= 0 else { return nil }
            path += "[\(index)]"
        }
    }
    return "'" + path.replacingBytes(of: "'", with: "''") + "'"
}

/// Whether a member name can be written in a SQLite 3.40 JSON path (see
/// ``quoteJSONPath(_:)``): no `"`, no character a JSON encoder may escape.
func isExpressibleInJSONPath(_ key: String) -> Bool {
    key.unicodeScalars.allSatisfy { scalar in
        scalar.value >= 0x20 && scalar.value != 0x7F && scalar != "\"" && scalar != "\\" && scalar != "/"
            && scalar != "\u{2028}" && scalar != "\u{2029}"
    }
}

/// Whether SQL text names `alias`'s columns (`alias.` outside quoted identifiers
/// and string literals, not the end of a longer name): what tells the compiler
/// a subquery's table is still read.
func sqlMentions(_ sql: String, alias: String) -> Bool {
    sqlContains(sql, token: alias + ".", wholeName: false)
}

/// Whether SQL text uses the bare name `name` (a column: `body`, `key`) outside
/// quoted identifiers and string literals, as a whole name (not `s0.body`).
func sqlMentions(_ sql: String, name: String) -> Bool {
    sqlContains(sql, token: name, wholeName: true)
}

/// Whether `token` occurs in `sql` outside quotes, not preceded by a name's
/// character or a dot, and (for a `wholeName`) not followed by one.
private func sqlContains(_ sql: String, token: String, wholeName: Bool) -> Bool {
    let token = Array(token.utf8)
    let bytes = Array(sql.utf8)
    func isNamePart(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "_") || byte >= 0x80 || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }
    var quote: UInt8?
    var index = 0
    while index < bytes.count {
        let byte = bytes[index]
        if let open = quote {
            // A doubled quote inside a quoted run is the quote itself.
            if byte == open { quote = nil }
        } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
            quote = byte
        } else if bytes[index...].starts(with: token) {
            let before = index == 0 ? UInt8(ascii: " ") : bytes[index - 1]
            let after = index + token.count < bytes.count ? bytes[index + token.count] : UInt8(ascii: " ")
            if !isNamePart(before) && before != UInt8(ascii: ".") && !(wholeName && isNamePart(after)) { return true }
        }
        index += 1
    }
    return false
}

extension String {
    /// The string with every occurrence of `target` replaced by `replacement`,
    /// matched byte for byte in UTF-8, as SQL text is compared.
    ///
    /// Foundation's `replacingOccurrences(of:with:)` goes through `NSString` on
    /// Linux: on a group's 3 000-character statement it took a tenth of a
    /// REPL query's time (`perf`), where this takes a few microseconds.
    func replacingBytes(of target: String, with replacement: String) -> String {
        let target = Array(target.utf8)
        // Most names hold no quote: no copy then.
        guard let first = target.first, utf8.contains(first) else { return self }
        let bytes = Array(utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        var replaced = false
        while index < bytes.count {
            if bytes[index] == first, bytes[index...].starts(with: target) {
                output.append(contentsOf: replacement.utf8)
                index += target.count
                replaced = true
            } else {
                output.append(bytes[index])
                index += 1
            }
        }
        return replaced ? String(decoding: output, as: UTF8.self) : self
    }
}
