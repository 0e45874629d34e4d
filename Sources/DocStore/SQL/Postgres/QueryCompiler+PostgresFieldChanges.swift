/// A migration's field changes on PostgreSQL: each is one `UPDATE` over the
/// documents it concerns, rewriting their jsonb in the server without decoding
/// them, with SQLite's semantics (``QueryCompiler/renameField(_:to:)`` and the
/// others): a value moves exactly as stored, a missing parent is created, and
/// the caller refuses beforehand what would overwrite a value or write through
/// one that is not an object.
///
///     -- players: rename nickName to nickname
///     UPDATE "players" SET body = (SELECT coalesce(<remove nickName>, c1.b) FROM (SELECT
///         (SELECT coalesce(<set nickname to body -> 'nickName'>, c0.b) FROM (SELECT body AS b) AS c0) AS b) AS c1)
///     WHERE (body -> E'nickName') IS NOT NULL RETURNING key
extension QueryCompiler {
    /// Moves the value at `old` to `new` in every document that has `old`
    /// (null included), returning their keys.
    func postgresRenameField(_ old: FieldPath, to new: FieldPath) throws -> SQLFragment {
        let source = try postgresChangedField(old)
        _ = try postgresChangedField(new)
        let moved = Self.postgresChange("body", "c0") { Self.postgresSet($0, new.components, source.value) }
        let body = Self.postgresChange(moved, "c1") { Self.postgresRemove($0, old.components) }
        return "UPDATE \(table) SET body = " + body + (try whereClause(DocumentQuery(.exists(old)))) + " RETURNING key"
    }

    /// Copies the value at `source` to `target` in every document that has
    /// `source`, returning their keys.
    func postgresCopyField(_ source: FieldPath, to target: FieldPath) throws -> SQLFragment {
        let value = try postgresChangedField(source).value
        _ = try postgresChangedField(target)
        let body = Self.postgresChange("body", "c0") { Self.postgresSet($0, target.components, value) }
        return "UPDATE \(table) SET body = " + body + (try whereClause(DocumentQuery(.exists(source)))) + " RETURNING key"
    }

    /// Removes `path` from every document that has it, returning their keys.
    func postgresRemoveField(_ path: FieldPath) throws -> SQLFragment {
        _ = try postgresChangedField(path)
        let body = Self.postgresChange("body", "c0") { Self.postgresRemove($0, path.components) }
        return "UPDATE \(table) SET body = " + body + (try whereClause(DocumentQuery(.exists(path)))) + " RETURNING key"
    }

    /// Sets `path` to `value` in every document where it is missing or null,
    /// returning their keys.
    func postgresSetDefault(_ path: FieldPath, _ value: JSONValue) throws -> SQLFragment {
        _ = try postgresChangedField(path)
        if value.cutAtNUL != value {
            throw DocStoreError.invalidQuery(collection: collection, field: path.description,
                                             reason: "PostgreSQL's jsonb can't store a string containing NUL (\\u0000)")
        }
        let json = "CAST(" + SQLFragment.bound(.text(String(decoding: JSONBNumberSpelling.storable(DocumentCodec.serialize(value)), as: UTF8.self))) + " AS jsonb)"
        let body = Self.postgresChange("body", "c0") { Self.postgresSet($0, path.components, json) }
        return "UPDATE \(table) SET body = " + body + (try whereClause(DocumentQuery(.isNull(path)))) + " AND " + Self.bodyIsObject(.postgres)
            + " RETURNING key"
    }

    /// One batch of a conversion: the key and the JSON text at `path` of up to
    /// `limit` documents after `key` (all from the first when nil), in key order,
    /// skipping documents where the field is missing or null.
    func postgresFieldValues(_ path: FieldPath, after key: DocumentKey?, limit: Int) throws -> SQLFragment {
        let field = try postgresChangedField(path)
        var condition = try whereClause(DocumentQuery(.not(.isNull(path))))
        if let key { condition += " AND key > " + .bound(key.binding) }
        return "SELECT key, (" + field.value + ")::text FROM \(table)" + condition + " ORDER BY key LIMIT " + .bound(.integer(Int64(limit)))
    }

    /// Sets `path` to `value` (JSON text) in the document stored under `key`,
    /// returning the key; the path's parents are objects (the field was read there).
    func postgresSetField(_ path: FieldPath, to value: [UInt8], key: DocumentKey) throws -> SQLFragment {
        _ = try postgresChangedField(path)
        let json = "CAST(" + SQLFragment.bound(.text(String(decoding: JSONBNumberSpelling.storable(value), as: UTF8.self))) + " AS jsonb)"
        let body = Self.postgresChange("body", "c0") { Self.postgresSet($0, path.components, json) }
        return "UPDATE \(table) SET body = " + body + " WHERE key = " + .bound(key.binding) + " RETURNING key"
    }

    /// `body` changed by `change` (which reads it as `alias.b`, once), or left
    /// as it was where `change` gives NULL: the one-row subquery keeps the
    /// statement linear in the changes.
    private static func postgresChange(_ body: SQLFragment, _ alias: String, _ change: (SQLFragment) -> SQLFragment) -> SQLFragment {
        let current = SQLFragment(alias + ".b")
        return "(SELECT coalesce(" + change(current) + ", \(alias).b) FROM (SELECT " + body + " AS b) AS \(alias))"
    }

    /// The field a change reads or writes: a path into the document, never the
    /// document itself nor a negative position.
    private func postgresChangedField(_ path: FieldPath) throws -> FieldSQL {
        guard !path.components.isEmpty else {
            throw DocStoreError.invalidQuery(collection: collection, field: nil, reason: "a field change needs a field, not the whole document")
        }
        for case .index(let index) in path.components where index < 0 {
            throw DocStoreError.invalidQuery(collection: collection, field: path.description,
                                             reason: "a field change can't name a negative array position")
        }
        return try FieldSQL.checked(path, from: .document, collection: collection, dialect: .postgres)
    }
}
