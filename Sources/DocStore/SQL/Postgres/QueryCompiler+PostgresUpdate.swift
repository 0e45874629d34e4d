/// Update-by-query on PostgreSQL, with SQLite's `json_set`/`json_remove`
/// semantics (see ``QueryCompiler/update(_:_:)``):
///
/// - `set` creates missing parents (an object for a member, an array for
///   position 0), replaces an element or appends one at the array's end, and
///   leaves the document unchanged when a parent is of another type (or null,
///   or a position past the end) — where `jsonb_set` would create nothing (the
///   caller refuses such documents first: ``QueryCompiler/blockedSets(at:after:_:)``);
/// - `remove` deletes a member of an object or an element of an array only;
/// - `increment` adds to a number (missing and null as 0): integers stay
///   integers, anything else is a real.
///
/// Each change is applied to the body the previous one produced, read once
/// from a one-row subquery, so the statement grows linearly with the changes;
/// every value read (an increment's current number) comes from the document
/// as it was before the update.
extension QueryCompiler {
    /// `UPDATE … SET body = … WHERE … RETURNING key`.
    func postgresUpdate(_ updates: [FieldUpdate], _ query: DocumentQuery) throws -> SQLFragment {
        "UPDATE \(table) SET body = " + (try postgresNewBody(updates)) + (try restricted(query)) + " RETURNING key"
    }

    /// The body after `updates`, each applied to the body the previous one made.
    func postgresNewBody(_ updates: [FieldUpdate]) throws -> SQLFragment {
        try checkUpdatePaths(updates)
        var body: SQLFragment = "body"
        for (index, update) in updates.enumerated() {
            let alias = "u\(index)"
            let current = SQLFragment(alias + ".b")
            let changed: SQLFragment
            switch update {
            case .set(let path, let value):
                try checkUpdatable(path)
                if let number = value.numberValue, !number.isFinite { throw notFiniteNumber(path) }
                if value.cutAtNUL != value {
                    throw DocStoreError.invalidQuery(collection: collection, field: path.description,
                                                     reason: "PostgreSQL's jsonb can't store a string containing NUL (\\u0000)")
                }
                changed = Self.postgresSet(current, path.components, ConditionCompiler.postgresJSON(value))
            case .remove(let path):
                try checkUpdatable(path)
                changed = Self.postgresRemove(current, path.components)
            case .increment(let path, let amount):
                try checkUpdatable(path)
                guard let number = amount.numberValue, number.isFinite else { throw notFiniteNumber(path) }
                changed = Self.postgresSet(current, path.components, try postgresIncremented(path, by: amount))
            }
            body = "(SELECT coalesce(" + changed + ", \(alias).b) FROM (SELECT " + body + " AS b) AS \(alias))"
        }
        return body
    }

    /// The keys of selected documents whose `path` holds something other than a
    /// number, missing or null.
    func postgresNonNumbers(at path: FieldPath, _ query: DocumentQuery) throws -> SQLFragment {
        let field = try FieldSQL.checked(path, from: .document, collection: collection, dialect: .postgres)
        return "SELECT key FROM \(table)" + (try restricted(query)) + " AND " + field.rank
            + " NOT IN (\(JSONRank.null.rawValue), \(JSONRank.number.rawValue)) ORDER BY key LIMIT 1"
    }

    /// See ``PostgresCompiler/longNumbers(at:_:)``: jsonb prints a number
    /// without an exponent, so a short text is one a Double holds.
    func postgresLongNumbers(at path: FieldPath, _ query: DocumentQuery) throws -> SQLFragment {
        let field = try FieldSQL.checked(path, from: .document, collection: collection, dialect: .postgres)
        return "SELECT key, CAST(" + field.value + " AS text) FROM \(table)" + (try restricted(query)) + " AND " + field.type
            + " = 'number' AND length(CAST(" + field.value + " AS text)) > 15 ORDER BY key"
    }

    /// The key of the first selected document whose `path` an increment by
    /// `amount` would push past what DocStore's numbers hold exactly (see
    /// ``overflows(at:by:_:)``).
    func postgresOverflows(at path: FieldPath, by amount: JSONValue, _ query: DocumentQuery) throws -> SQLFragment {
        let field = try FieldSQL.checked(path, from: .document, collection: collection, dialect: .postgres)
        let number = "CAST(" + field.value + " AS numeric)"
        let integral = "scale(" + number + ") = 0"
        var overflow: SQLFragment = "CASE WHEN " + field.type + " = 'number' THEN (" + integral + " AND " + number
            + " NOT BETWEEN -9223372036854775808 AND 9223372036854775807)"
        switch amount {
        case .integer(let step) where step > 0:
            overflow += " OR (" + integral + " AND " + number + " > " + .bound(.integer(Int64.max - step)) + ")"
        case .integer(let step) where step < 0:
            overflow += " OR (" + integral + " AND " + number + " < " + .bound(.integer(Int64.min - step)) + ")"
        case .double(let step):
            overflow += " OR abs(" + RowScope.postgresDouble(field.value) + " + " + .bound(.double(step)) + ") > "
                + .bound(.double(.greatestFiniteMagnitude))
        default:
            break
        }
        return "SELECT key FROM \(table)" + (try restricted(query)) + " AND " + overflow + " ELSE FALSE END ORDER BY key LIMIT 1"
    }

    /// The field plus `amount`, from the document before the update.
    private func postgresIncremented(_ path: FieldPath, by amount: JSONValue) throws -> SQLFragment {
        let field = try FieldSQL.checked(path, from: .document, collection: collection, dialect: .postgres)
        let missing = "(" + field.type + " IS NULL OR " + field.type + " = 'null')"
        let (_, binding) = ConditionCompiler.scalar(amount)
        let real = RowScope.postgresReal(RowScope.postgresDouble(field.value) + " + " + .bound(binding))
        guard case .integer = amount else {
            return "(CASE WHEN " + missing + " THEN " + RowScope.postgresReal("CAST(" + .bound(binding) + " AS double precision)")
                + " ELSE " + real + " END)"
        }
        let number = "CAST(" + field.value + " AS numeric)"
        return "(CASE WHEN " + missing + " THEN " + RowScope.postgresNumber("CAST(" + .bound(binding) + " AS bigint)") + " WHEN scale("
            + number + ") = 0 AND " + number + " BETWEEN -9223372036854775808 AND 9223372036854775807 THEN "
            + RowScope.postgresNumber("CAST(" + field.value + " AS bigint) + " + .bound(binding)) + " ELSE " + real + " END)"
    }

    /// `body` with `value` at `components` as `json_set` writes it; NULL when
    /// it can't be written there (the caller keeps the body then).
    static func postgresSet(_ body: SQLFragment, _ components: [FieldPath.Component], _ value: SQLFragment) -> SQLFragment {
        var result = value
        for level in stride(from: components.count - 1, through: 0, by: -1) {
            result = postgresStep(into: postgresContainer(body, components[..<level]), components[level], result, level: level)
        }
        return result
    }

    /// `body` without the member or element at `components`; NULL when there
    /// is nothing of that kind to remove.
    static func postgresRemove(_ body: SQLFragment, _ components: [FieldPath.Component]) -> SQLFragment {
        guard let last = components.last else { return "NULL::jsonb" }
        let parent = postgresContainer(body, components.dropLast())
        var result: SQLFragment = switch last {
        case .key(let key): "(CASE WHEN jsonb_typeof(" + parent + ") = 'object' THEN " + parent + " - " + quotePostgresString(key) + " END)"
        case .index(let index): "(CASE WHEN jsonb_typeof(" + parent + ") = 'array' THEN " + parent + " - \(index) END)"
        }
        for level in stride(from: components.count - 2, through: 0, by: -1) {
            result = postgresStep(into: postgresContainer(body, components[..<level]), components[level], result, level: level)
        }
        return result
    }

    /// The container at a path prefix (`body` itself for none), by DocStore's
    /// reading (positions only into arrays).
    private static func postgresContainer(_ body: SQLFragment, _ components: ArraySlice<FieldPath.Component>) -> SQLFragment {
        FieldSQL.postgresValue(body, Array(components)) ?? "NULL::jsonb"
    }

    /// `container` with `child` (NULL: nothing to write) at one step.
    ///
    /// New objects and arrays are built with `jsonb_set` and `jsonb_insert` on
    /// an empty one, not `jsonb_build_object`/`jsonb_build_array`: those are
    /// STABLE, which Citus refuses on a column in an UPDATE (docs/citus.md).
    ///
    /// The child is read once, as a column of a one-row subquery (`s<level>.c`,
    /// fenced with `OFFSET 0`):
    /// written out at each of its uses, a path of n parts made 3^n copies of
    /// the value (a 9-part rename ran for minutes, and one of 10 parts took the
    /// server down for memory).
    private static func postgresStep(into container: SQLFragment, _ step: FieldPath.Component, _ written: SQLFragment,
                                     level: Int) -> SQLFragment {
        let alias = "s\(level)"
        let child = SQLFragment(alias + ".c")
        // OFFSET 0 keeps the planner from pulling the subquery up, which would
        // write the child out at each use again.
        return "(SELECT " + postgresStep(into: container, step, child) + " FROM (SELECT " + written + " AS c OFFSET 0) AS \(alias))"
    }

    private static func postgresStep(into container: SQLFragment, _ step: FieldPath.Component, _ child: SQLFragment) -> SQLFragment {
        switch step {
        case .key(let key):
            let name = quotePostgresString(key)
            return "(CASE WHEN " + child + " IS NULL THEN NULL WHEN jsonb_typeof(" + container + ") = 'object' THEN jsonb_set("
                + container + ", ARRAY[" + name + "], " + child + ") WHEN " + container + " IS NULL THEN jsonb_set('{}'::jsonb, ARRAY["
                + name + "], " + child + ") END)"
        case .index(let index):
            let length = "jsonb_array_length(" + container + ")"
            let alone: SQLFragment = "jsonb_insert('[]'::jsonb, '{0}', " + child + ")"
            return "(CASE WHEN " + child + " IS NULL THEN NULL WHEN jsonb_typeof(" + container + ") = 'array' THEN CASE WHEN \(index) < "
                + length + " THEN jsonb_set(" + container + ", ARRAY['\(index)'], " + child + ") WHEN \(index) = " + length + " THEN "
                + container + " || " + alone + " END WHEN " + container + " IS NULL AND \(index) = 0 THEN " + alone + " END)"
        }
    }

    private func checkUpdatable(_ path: FieldPath) throws {
        if path.components.isEmpty {
            throw DocStoreError.invalidQuery(collection: collection, field: path.description,
                                             reason: "an update changes fields, not the whole document")
        }
        for case .index(let index) in path.components where index < 0 {
            throw DocStoreError.invalidQuery(collection: collection, field: path.description,
                                             reason: "an update can't change a negative array position")
        }
        _ = try FieldSQL.checked(path, from: .document, collection: collection, dialect: .postgres)
    }
}
