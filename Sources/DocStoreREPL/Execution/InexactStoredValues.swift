import DocStore

/// Stored values a file store compares other than as they are, checked before
/// a delete or update by query could take documents its condition doesn't mean.
///
/// - A number that a `Double` can't hold exactly (`1e-400`,
///   `9223372036854775807.0`, `18446744073709551615`): SQLite compares it as
///   that `Double`, so `v.in([0])` changed the document holding `1e-400`
///   (helper-42). The parser refuses a condition whose literal rounds; this
///   looks at the stored side.
/// - A string holding NUL: SQLite's JSON functions read it only up to the
///   NUL, so `s == "a"` deleted the documents holding `"a\u0000b"` and
///   `"a\u0000c"` too (helper-49).
///
/// Before such a write, the compared fields of the documents it selects are
/// read exactly (a selected field keeps every digit and character), and such a
/// value stops the write, named. A subquery's values are compared too: the
/// documents it selects are checked the same way (with `in(…, selecting:)`,
/// a rounded number on either side took documents of other values; helper-49).
enum InexactStoredValues {
    /// Refuses the write when a document it selects, or one a subquery of its
    /// condition selects, holds such a value in a field the condition compares.
    static func check(_ backend: any REPLBackend, collection: String, _ query: DocumentQuery, verb: String) throws {
        guard !(backend is PostgresBackend) else { return }
        var fields = comparedFields(query.condition)
        // With a limit, the sort picks the documents: it compares too.
        if query.limit != nil || query.offset != nil {
            for key in query.sort { fields.add(key.path, .numbers); fields.add(key.path, .strings) }
        }
        try check(backend, collection: collection, query, fields: fields, verb: verb, via: nil)
    }

    /// What a comparison reads inexactly on a file store.
    enum Kind { case numbers, strings }

    /// Fields, each with the kinds of value it is compared with.
    struct ComparedFields {
        private(set) var paths: [FieldPath] = []
        private(set) var kinds: [FieldPath: Set<Kind>] = [:]

        mutating func add(_ path: FieldPath, _ kind: Kind) {
            if kinds[path] == nil { paths.append(path) }
            kinds[path, default: []].insert(kind)
        }

        var isEmpty: Bool { paths.isEmpty }
    }

    private static func check(_ backend: any REPLBackend, collection: String, _ query: DocumentQuery, fields: ComparedFields,
                              verb: String, via subquery: Subquery?) throws {
        if !fields.isEmpty {
            for row in try backend.select(collection, query, fields: [FieldPath("id")] + fields.paths) {
                for (field, value) in zip(fields.paths, row.dropFirst()) {
                    let key = row.first.map { JSONText().string($0) } ?? "?"
                    let where_ = "document \(key) of \(DocumentKeyQuoting.quoted(collection))"
                        + (subquery == nil ? "" : " (selected by the subquery)")
                    let kinds = fields.kinds[field] ?? []
                    if kinds.contains(.numbers), let number = roundedNumber(in: value) {
                        throw CommandError("\(where_) holds \(number.text) in \(field), a number a Double can't hold: a file store compares it as \(number.doubleValue), so this \(verb) could take other documents than the ones its condition and sort mean; nothing was changed (PostgreSQL compares it exactly; or change that document first)")
                    }
                    if kinds.contains(.strings), let string = stringWithNUL(in: value) {
                        let cut = String(decoding: string.utf8.prefix { $0 != 0 }, as: UTF8.self)
                        throw CommandError("\(where_) holds \(JSONText().string(.string(string))) in \(field), a string with NUL (\\u0000) in it: a file store compares it only up to the NUL, as \(JSONText().string(.string(cut))), so this \(verb) could take other documents than the ones its condition and sort mean; nothing was changed (change that document first)")
                    }
                }
            }
        }
        // The values a subquery selects are compared with the outer field.
        for inner in subqueries(query.condition) {
            var innerFields = comparedFields(inner.condition)
            if let field = inner.field { innerFields.add(field, .numbers); innerFields.add(field, .strings) }
            try check(backend, collection: inner.collection, DocumentQuery(inner.condition), fields: innerFields, verb: verb, via: inner)
        }
    }

    /// The fields the condition compares with a number or a string (for
    /// arrays, the array); a field compared with a subquery's values, both.
    static func comparedFields(_ condition: Condition) -> ComparedFields {
        var fields = ComparedFields()
        func add(_ path: FieldPath, comparedWith values: [JSONValue]) {
            if values.contains(where: { $0.numberValue != nil }) { fields.add(path, .numbers) }
            if values.contains(where: { $0.stringValue != nil }) { fields.add(path, .strings) }
        }
        func visit(_ condition: Condition) {
            switch condition {
            case .compare(let path, _, let value), .arrayContains(let path, let value): add(path, comparedWith: [value])
            case .isIn(let path, let values): add(path, comparedWith: values)
            case .string(let path, _, _, _), .matches(let path, _): fields.add(path, .strings)
            case .isInSubquery(let path, _): fields.add(path, .numbers); fields.add(path, .strings)
            case .any(let path, let inner), .all(let path, let inner):
                let within = comparedFields(inner)
                for kind in Set(within.kinds.values.flatMap { $0 }) { fields.add(path, kind) }
            case .and(let conditions), .or(let conditions): conditions.forEach(visit)
            case .not(let inner): visit(inner)
            case .always, .isNull, .exists, .arrayCount: break
            }
        }
        visit(condition)
        return fields
    }

    /// The subqueries in a condition (not those inside them: each is checked
    /// with its own condition).
    private static func subqueries(_ condition: Condition) -> [Subquery] {
        switch condition {
        case .isInSubquery(_, let subquery): [subquery]
        case .any(_, let inner), .all(_, let inner), .not(let inner): subqueries(inner)
        case .and(let conditions), .or(let conditions): conditions.flatMap(subqueries)
        default: []
        }
    }

    /// A number in `value` (or in its elements and members) that neither an
    /// Int64 nor a Double holds.
    private static func roundedNumber(in value: JSONValue) -> JSONNumberLiteral? {
        switch value {
        case .exactNumber(let number): number
        case .array(let elements): elements.lazy.compactMap(roundedNumber).first
        case .object(let members): members.values.lazy.compactMap(roundedNumber).first
        default: nil
        }
    }

    /// A string holding NUL in `value` (or in its elements and members).
    private static func stringWithNUL(in value: JSONValue) -> String? {
        switch value {
        case .string(let string): string.utf8.contains(0) ? string : nil
        case .array(let elements): elements.lazy.compactMap(stringWithNUL).first
        case .object(let members): members.values.lazy.compactMap(stringWithNUL).first
        default: nil
        }
    }
}
