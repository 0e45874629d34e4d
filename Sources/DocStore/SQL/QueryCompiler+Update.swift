extension QueryCompiler {
    /// `UPDATE … SET body = json_set(json_remove(body, …), …)` for the selected
    /// documents: one statement, the changes applied in order.
    ///
    /// - `set` writes the value (creating missing parent objects; a parent that is
    ///   not an object leaves the document unchanged, as SQLite's `json_set` does,
    ///   which the caller refuses first: ``blockedSets(at:after:_:)``);
    /// - `remove` deletes the member or element;
    /// - `increment` adds a number to the field: missing and null count as 0;
    ///   integer + integer stays an integer, anything else is a real written as
    ///   Swift's shortest text that reads back as it (exact: ``RealText``). The caller refuses non-numbers before.
    ///
    /// Each change reads the document as it was before the update, so the paths of
    /// one update may not overlap.
    func update(_ updates: [FieldUpdate], _ query: DocumentQuery) throws -> SQLFragment {
        "UPDATE \(table) SET body = " + (try newBody(updates)) + (try restricted(query))
    }

    /// The same update for the one document stored under `key`.
    func update(_ updates: [FieldUpdate], key: DocumentKey) throws -> SQLFragment {
        "UPDATE \(table) SET body = " + (try newBody(updates)) + " WHERE key = " + .bound(key.binding)
    }

    /// The keys of selected documents whose `path` holds something other than a
    /// number, missing or null: documents an increment can't change.
    func nonNumbers(at path: FieldPath, _ query: DocumentQuery) throws -> SQLFragment {
        let field = try FieldSQL.checked(path, from: .document, collection: collection)
        return "SELECT key FROM \(table)" + (try restricted(query)) + " AND " + field.rank
            + " NOT IN (\(JSONRank.null.rawValue), \(JSONRank.number.rawValue)) ORDER BY key LIMIT 1"
    }

    /// The key of the first selected document whose `path` an increment by
    /// `amount` would push past what DocStore's numbers hold exactly: an integer
    /// past `Int64`'s range (SQLite would silently turn it into a real), a stored
    /// integer already beyond that range, or a real past `Double`'s (which JSON
    /// can't write).
    func overflows(at path: FieldPath, by amount: JSONValue, _ query: DocumentQuery) throws -> SQLFragment {
        guard let literal = quoteJSONPath(path.components) else {
            throw DocStoreError.invalidQuery(collection: collection, field: path.description,
                                             reason: "SQLite 3.40's JSON paths can't name this field, so an update can't change it")
        }
        let value = SQLFragment("json_extract(body, \(literal))")
        var overflow = SQLFragment("(json_type(body, \(literal)) = 'integer' AND typeof(") + value + ") = 'real')"
        switch amount {
        case .integer(let step) where step > 0:
            overflow = overflow + " OR (typeof(" + value + ") = 'integer' AND " + value + " > " + .bound(.integer(Int64.max - step)) + ")"
        case .integer(let step) where step < 0:
            overflow = overflow + " OR (typeof(" + value + ") = 'integer' AND " + value + " < " + .bound(.integer(Int64.min - step)) + ")"
        case .double(let step):
            overflow = overflow + " OR abs(coalesce(" + value + ", 0) + " + .bound(.double(step)) + ") > " + .bound(.double(.greatestFiniteMagnitude))
        default:
            break
        }
        return "SELECT key FROM \(table)" + (try restricted(query)) + " AND (" + overflow + ") ORDER BY key LIMIT 1"
    }

    /// The first selected document in which a `set` of `path` would change
    /// nothing: a part of the path holds a value that can't hold the next part (a
    /// member of something other than an object, null included; an element of
    /// something other than an array, or past its end; an element other than the
    /// first of a missing array, which a set can't make). `json_set` and `jsonb_set`
    /// leave such a document as it is, which an update would count as changed.
    /// Its row: the key, how many parts of the path lead to the blocking value,
    /// and that value's JSON type (as the dialect names it). Nil for a path of one
    /// part (the document is an object).
    ///
    /// The set is judged on the document as the `earlier` changes of the same
    /// update leave it, since each applies to what the one before made: `arr[2]`
    /// appends, and then `arr[3]` appends too; a removed `arr[0]` leaves `arr[2]`
    /// past the end of a two-element array.
    func blockedSets(at path: FieldPath, after earlier: [FieldUpdate] = [], _ query: DocumentQuery) throws -> SQLFragment? {
        let components = path.components
        guard components.count > 1 else { return nil }
        // Only a change under the same top-level member can change what lies along the path.
        let relevant = earlier.filter { $0.path.components.first == components.first }
        let root: FieldRoot = relevant.isEmpty ? .document : .json("changed.b")
        var tests: [SQLFragment] = []
        var types: [SQLFragment] = []
        for length in 1..<components.count {
            let part = try FieldSQL.checked(FieldPath(Array(components[..<length])), from: root, collection: collection, dialect: dialect)
            switch components[length] {
            case .key:
                tests.append("(" + part.type + " IS NOT NULL AND " + part.type + " <> 'object')")
            case .index(let index):
                // A missing part is made an array only for element 0.
                let missing: SQLFragment = index > 0 ? "(" + part.type + " IS NULL) OR " : ""
                tests.append("(" + missing + "(" + part.type + " IS NOT NULL AND (" + part.type + " <> 'array' OR "
                             + part.arrayLength + " < \(index))))")
            }
            types.append("coalesce(" + part.type + ", 'missing')")
        }
        let which = SQLFragment.joined(tests.indices.map { "WHEN " + tests[$0] + " THEN \($0 + 1)" }, separator: " ")
        let type = SQLFragment.joined(tests.indices.map { "WHEN " + tests[$0] + " THEN " + types[$0] }, separator: " ")
        let columns = "SELECT key, CASE " + which + " END, CASE " + type + " END FROM "
        let blocked = SQLFragment.joined(tests, separator: " OR ")
        guard !relevant.isEmpty else {
            return columns + "\(table)" + (try restricted(query)) + " AND (" + blocked + ") ORDER BY key LIMIT 1"
        }
        let changed = dialect == .postgres ? try postgresNewBody(relevant) : try newBody(relevant)
        return columns + "(SELECT key, " + changed + " AS b FROM \(table)" + (try restricted(query)) + ") AS changed WHERE ("
            + blocked + ") ORDER BY key LIMIT 1"
    }

    /// The first selected document whose body is not a JSON object (written by
    /// another tool): `json_set` and `jsonb_set` leave it as it is, which an
    /// update would count as changed.
    func firstNonObject(_ query: DocumentQuery) throws -> SQLFragment {
        let type: SQLFragment = dialect == .postgres ? "jsonb_typeof(body)" : "json_type(body)"
        return "SELECT key FROM \(table)" + (try restricted(query)) + " AND " + type + " <> 'object' ORDER BY key LIMIT 1"
    }

    /// Why a `set` of `path` changes nothing in a document: the first `length`
    /// parts of the path hold a value of JSON type `type` (SQLite's or
    /// PostgreSQL's name), which can't hold the next part.
    static func blockedSetReason(_ path: FieldPath, length: Int, type: String) -> String {
        let holder = FieldPath(Array(path.components.prefix(length)))
        let value = switch type {
        case "true", "false", "boolean": "a boolean"
        case "integer", "real", "number": "a number"
        case "text", "string": "a string"
        case "array": "an array"
        case "object": "an object"
        case "missing": "missing"
        default: "null"
        }
        let part: String
        if length < path.components.count, case .index(let index) = path.components[length] {
            part = switch type {
            case "array": ", which has no element [\(index)] to set (an array grows by one element at its end)"
            case "missing": ", and a set makes a new array only for its element [0], not [\(index)]"
            default: ", which has no elements"
            }
        } else {
            part = ", which has no members"
        }
        return "\(holder) is \(value) there\(part); set \(holder) itself, or choose another field"
    }

    /// Refuses updates whose paths overlap (one inside another, or the same).
    func checkUpdatePaths(_ updates: [FieldUpdate]) throws {
        let paths = updates.map(\.path)
        for (i, a) in paths.enumerated() {
            for b in paths[(i + 1)...] where a.components.starts(with: b.components) || b.components.starts(with: a.components) {
                throw DocStoreError.invalidQuery(collection: collection, field: a.description,
                                                 reason: "the fields of one update may not overlap (\(a) and \(b))")
            }
        }
    }

    private func newBody(_ updates: [FieldUpdate]) throws -> SQLFragment {
        try checkUpdatePaths(updates)
        var body: SQLFragment = "body"
        for update in updates {
            let path = update.path
            guard !path.components.isEmpty, let literal = quoteJSONPath(path.components) else {
                throw DocStoreError.invalidQuery(
                    collection: collection, field: path.description,
                    reason: path.components.isEmpty ? "an update changes fields, not the whole document"
                        : "SQLite 3.40's JSON paths can't name this field, so an update can't change it")
            }
            switch update {
            case .set(_, let value):
                if let number = value.numberValue, !number.isFinite { throw notFiniteNumber(path) }
                let json = String(decoding: DocumentCodec.serialize(value), as: UTF8.self)
                body = "json_set(" + body + ", \(literal), json(" + .bound(.text(json)) + "))"
            case .remove:
                body = "json_remove(" + body + ", \(literal))"
            case .increment(_, let amount):
                guard let number = amount.numberValue, number.isFinite else { throw notFiniteNumber(path) }
                let (_, binding) = ConditionCompiler.scalar(amount)
                let sum: SQLFragment = "(coalesce(json_extract(body, \(literal)), 0) + " + .bound(binding) + ")"
                body = "json_set(" + body + ", \(literal), CASE WHEN typeof" + sum + " = 'integer' THEN " + sum
                    + " ELSE json(\(RealText.functionName)(" + sum + ")) END)"
            }
        }
        return body
    }

    func notFiniteNumber(_ path: FieldPath) -> DocStoreError {
        .invalidQuery(collection: collection, field: path.description, reason: "an update needs a finite number (JSON has no NaN or infinity)")
    }
}

extension FieldUpdate {
    /// The field changed.
    var path: FieldPath {
        switch self {
        case .set(let path, _), .increment(let path, _), .remove(let path): path
        }
    }

    /// The field a `set` or an increment writes (with `json_set`, which makes
    /// missing parts and leaves the document as it was where a part can't hold
    /// the next); nil for a removal, which changes nothing where there is
    /// nothing to remove.
    package var writtenPath: FieldPath? {
        switch self {
        case .set(let path, _), .increment(let path, _): path
        case .remove: nil
        }
    }
}

extension DocumentKey {
    /// The key as the `key` column stores it.
    var binding: SQLBinding {
        switch self {
        case .integer(let i): .integer(i)
        case .string(let s): .text(s)
        case .uuid(let u): .text(u.uuidString)
        }
    }
}
