/// The statements of a migration's field changes: each is one `UPDATE` over the
/// documents it concerns, rewriting their JSON in SQLite without decoding them.
///
///     // players: rename nickName to nickname
///     UPDATE "players" SET body = json_remove(json_set(body, '$."nickname"', json(body -> '$."nickName"')), '$."nickName"')
///     WHERE (json_type(body, '$."nickName"') IS NOT NULL)
///
/// `body -> path` is the member's JSON text exactly as stored (numbers keep their
/// digits), and `json(…)` makes `json_set` insert it as JSON, not as a string.
extension QueryCompiler {
    /// Moves the value at `old` to `new` in every document that has `old`
    /// (null included).
    func renameField(_ old: FieldPath, to new: FieldPath) throws -> SQLFragment {
        let (from, to) = (try writablePath(old), try writablePath(new))
        return "UPDATE \(table) SET body = json_remove(json_set(body, \(to), json(body -> \(from))), \(from))"
            + (try whereClause(DocumentQuery(.exists(old))))
    }

    /// Copies the value at `source` to `target` in every document that has `source`.
    func copyField(_ source: FieldPath, to target: FieldPath) throws -> SQLFragment {
        let (from, to) = (try writablePath(source), try writablePath(target))
        return "UPDATE \(table) SET body = json_set(body, \(to), json(body -> \(from)))"
            + (try whereClause(DocumentQuery(.exists(source))))
    }

    /// Removes `path` from every document that has it.
    func removeField(_ path: FieldPath) throws -> SQLFragment {
        let literal = try writablePath(path)
        return "UPDATE \(table) SET body = json_remove(body, \(literal))" + (try whereClause(DocumentQuery(.exists(path))))
    }

    /// Sets `path` to `value` in every document where it is missing or null.
    /// A body that is not an object (a damaged document another tool wrote)
    /// has every field missing, yet `json_set` leaves it as it is: it is not
    /// counted as changed.
    func setDefault(_ path: FieldPath, _ value: JSONValue) throws -> SQLFragment {
        let json = String(decoding: DocumentCodec.serialize(value), as: UTF8.self)
        let literal = try writablePath(path)
        return "UPDATE \(table) SET body = json_set(body, \(literal), json(" + .bound(.text(json)) + "))"
            + (try whereClause(DocumentQuery(.isNull(path)))) + " AND " + Self.bodyIsObject(dialect)
    }

    /// Whether a row's body is a JSON object (a damaged one may not be).
    static func bodyIsObject(_ dialect: SQLDialect) -> SQLFragment {
        dialect == .postgres ? "jsonb_typeof(body) = 'object'" : "json_type(body) = 'object'"
    }

    /// The first key (in key order) of a document matching `condition`, if any.
    func firstKey(where condition: Condition) throws -> SQLFragment {
        "SELECT key FROM \(table)" + (try whereClause(DocumentQuery(condition))) + " ORDER BY key LIMIT 1"
    }

    /// The first key of a document matching `condition` in which a parent of
    /// `target` holds something other than an object (null included): `json_set`
    /// leaves such a document unchanged, so writing `target` there would silently
    /// do nothing. A missing parent is fine: `json_set` creates it.
    func firstBlockedKey(writing target: FieldPath, where condition: Condition) throws -> SQLFragment? {
        let parents = (1..<max(1, target.components.count)).map { FieldPath(Array(target.components.prefix($0))) }
        guard !parents.isEmpty else { return nil }
        let no: SQLFragment = dialect == .postgres ? "false" : "0"
        let blocked = try parents.map { parent -> SQLFragment in
            let field = try FieldSQL.checked(parent, from: .document, collection: collection, dialect: dialect)
            return "coalesce(" + field.type + " <> 'object', " + no + ")"
        }
        return "SELECT key FROM \(table)" + (try whereClause(DocumentQuery(condition)))
            + " AND (" + .joined(blocked, separator: " OR ") + ") ORDER BY key LIMIT 1"
    }

    /// The key and JSON text of each document whose array or object at `source`
    /// is at least `minimumLength` characters long, in key order: a value that
    /// nests `n` levels is at least `2n` long, so only these can nest deep
    /// enough for a move to a deeper path to push their document past the
    /// nesting limit (the caller measures them: ``FieldChangeRules/nestingDepth(ofJSON:)``).
    func longContainers(at source: FieldPath, minimumLength: Int) throws -> SQLFragment {
        let field = try FieldSQL.checked(source, from: .document, collection: collection, dialect: dialect)
        let text: SQLFragment = dialect == .postgres ? "CAST(" + field.value + " AS text)" : field.value
        return "SELECT key, " + text + " FROM \(table) WHERE " + field.type + " IN ('array', 'object') AND length(" + text + ") >= "
            + .bound(.integer(Int64(minimumLength))) + " ORDER BY key"
    }

    /// One batch of a conversion: the key and the JSON text at `path` of up to
    /// `limit` documents after `key` (all from the first when nil), in key order,
    /// skipping documents where the field is missing or null.
    func fieldValues(_ path: FieldPath, after key: DocumentKey?, limit: Int) throws -> SQLFragment {
        let literal = try writablePath(path)
        var condition = try whereClause(DocumentQuery(.not(.isNull(path))))
        if let key { condition += " AND key > " + .bound(key.binding) }
        return "SELECT key, body -> \(literal) FROM \(table)" + condition + " ORDER BY key LIMIT " + .bound(.integer(Int64(limit)))
    }

    /// Sets `path` to the bound JSON text in the document stored under the bound key.
    func setField(_ path: FieldPath) throws -> String {
        let literal = try writablePath(path)
        return "UPDATE \(table) SET body = json_set(body, \(literal), json(?)) WHERE key = ?"
    }

    /// The path as a JSON-path literal, or an error when a field change can't
    /// name it: the document itself, or a member SQLite 3.40's paths can't spell.
    private func writablePath(_ path: FieldPath) throws -> String {
        guard !path.components.isEmpty else {
            throw DocStoreError.invalidQuery(collection: collection, field: nil,
                                             reason: "a field change needs a field, not the whole document")
        }
        _ = try FieldSQL.checked(path, from: .document, collection: collection)
        guard let literal = quoteJSONPath(path.components) else {
            throw DocStoreError.invalidQuery(
                collection: collection, field: path.description,
                reason: "SQLite 3.40's JSON paths can't name this field (a member name with a double quote, backslash, slash or control character), so it can't be changed by a migration")
        }
        return literal
    }
}
