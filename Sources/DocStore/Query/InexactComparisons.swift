import GRDB

/// Values SQLite compares other than as they are, checked before a delete or
/// update by query could take documents its condition doesn't mean.
///
/// - A number that a `Double` can't hold exactly (`1e-400`,
///   `9223372036854775807.0`, `18446744073709551615`): SQLite compares it as
///   that `Double`, so `v.in([0])` changed the document holding `1e-400`
///   (helper-42), and `== 18446744073709551615` matches `18446744073709551614`.
/// - A string holding NUL: SQLite's JSON functions read it only up to the
///   NUL, so `s == "a"` deleted the documents holding `"a\u0000b"` and
///   `"a\u0000c"` too (helper-49).
///
/// A condition comparing with such a number is refused outright. Otherwise the
/// compared fields of the documents the write selects are read exactly (a
/// selected field keeps every digit and character), in the write's own
/// transaction, and such a value stops the write, named. A subquery's values
/// are compared too: the documents it selects are checked the same way (with
/// `in(…, selecting:)`, a rounded number on either side took documents of
/// other values; helper-49). PostgreSQL compares numbers exactly and refuses
/// NUL in strings, so only a file store checks.
enum InexactComparisons {
    /// What a comparison reads inexactly on a file store; an increment's
    /// field, read as a Double and written back as the sum.
    enum Kind { case numbers, strings, incremented }

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

    /// The fields a write's query compares inexactly: its condition's, and
    /// with a limit or offset its sort's (the sort then picks the documents).
    static func comparedFields(_ query: DocumentQuery) -> ComparedFields {
        var fields = comparedFields(query.condition)
        if query.limit != nil || query.offset != nil {
            for key in query.sort { fields.add(key.path, .numbers); fields.add(key.path, .strings) }
            // The search index reads a text up to its NUL: a relevance order
            // ranked "run\u{0}home home home" below a document with one "home" (helper-52).
            if let relevance = query.relevance { fields.add(relevance.field, .strings) }
        }
        return fields
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

    /// The first value the condition compares with that a file store reads
    /// otherwise (a number a Double rounds, a string holding NUL), its field,
    /// and what it is read as.
    /// - Parameter numbers: Whether numbers a Double rounds count (a file
    ///   store's); strings holding NUL always do: both backends' compilers cut
    ///   a bound string at NUL (jsonb can't hold one either).
    static func inexactLiteral(in condition: Condition, numbers: Bool = true) -> (field: FieldPath, problem: String)? {
        func inexact(_ values: [JSONValue]) -> String? {
            for value in values {
                if numbers, case .exactNumber(let number) = value, number.isReadRounded {
                    return "\(number.text) is past what a Double holds exactly, and a file store compares it as its nearest Double, \(number.doubleValue): documents holding other numbers that round to it match too"
                }
                if let string = stringWithNUL(in: value) { return nulProblem(string) }
            }
            return nil
        }
        switch condition {
        case .compare(let path, _, let value), .arrayContains(let path, let value):
            return inexact([value]).map { (path, $0) }
        case .isIn(let path, let values):
            return inexact(values).map { (path, $0) }
        case .string(let path, _, let needle, _), .matches(let path, let needle):
            return inexact([.string(needle)]).map { (path, $0) }
        case .any(let path, let inner), .all(let path, let inner):
            return inexactLiteral(in: inner, numbers: numbers).map { (path.appending($0.field), $0.problem) }
        case .and(let conditions), .or(let conditions):
            return conditions.lazy.compactMap { inexactLiteral(in: $0, numbers: numbers) }.first
        case .not(let inner):
            return inexactLiteral(in: inner, numbers: numbers)
        case .isInSubquery(_, let subquery):
            return inexactLiteral(in: subquery.condition, numbers: numbers)
        case .always, .isNull, .exists, .arrayCount:
            return nil
        }
    }

    private static func nulProblem(_ string: String) -> String {
        let cut = String(decoding: string.utf8.prefix { $0 != 0 }, as: UTF8.self)
        return "\(jsonText(string)) holds NUL (\\u0000), and queries compare a string only up to it, as \(jsonText(cut)): documents holding other strings that start so match too"
    }

    /// The subqueries in a condition (not those inside them: each is checked
    /// with its own condition).
    static func subqueries(_ condition: Condition) -> [Subquery] {
        switch condition {
        case .isInSubquery(_, let subquery): [subquery]
        case .any(_, let inner), .all(_, let inner), .not(let inner): subqueries(inner)
        case .and(let conditions), .or(let conditions): conditions.flatMap(subqueries)
        default: []
        }
    }

    /// A number in `value` (or in its elements and members) that neither an
    /// Int64 nor a Double holds.
    static func roundedNumber(in value: JSONValue) -> JSONNumberLiteral? {
        switch value {
        case .exactNumber(let number): number.isReadRounded ? number : nil
        case .array(let elements): elements.lazy.compactMap(roundedNumber).first
        case .object(let members): members.values.lazy.compactMap(roundedNumber).first
        default: nil
        }
    }

    /// A string as JSON text: its NUL shows as `\u0000`.
    static func jsonText(_ string: String) -> String {
        String(decoding: DocumentCodec.serialize(.string(string)), as: UTF8.self)
    }

    /// A string holding NUL in `value` (or in its elements and members).
    static func stringWithNUL(in value: JSONValue) -> String? {
        switch value {
        case .string(let string): string.utf8.contains(0) ? string : nil
        case .array(let elements): elements.lazy.compactMap(stringWithNUL).first
        case .object(let members): members.values.lazy.compactMap(stringWithNUL).first
        default: nil
        }
    }
}

extension BackendSupport {
    /// Refuses a delete or update by `query` (`verb`) on PostgreSQL whose
    /// condition compares with a string holding NUL: the compiler cuts it at
    /// the NUL (jsonb can't hold one), so `s == "a\u{0}b"` would take the
    /// documents holding "a".
    public static func refuseCutStrings(_ query: DocumentQuery, collection: String, verb: String) throws {
        guard let (field, problem) = InexactComparisons.inexactLiteral(in: query.condition, numbers: false) else { return }
        throw DocStoreError.invalidQuery(collection: collection, field: field.description,
                                         reason: problem + ", so this \(verb) is refused (PostgreSQL's jsonb holds no string with NUL)")
    }
}

extension DocumentCollection {
    /// Refuses a delete or update by `query` (`verb`) that SQLite would run on
    /// other documents than it means (see ``InexactComparisons``). Runs in the
    /// write's transaction, before it changes anything; `incremented` are the
    /// fields an update adds to.
    func refuseInexactComparisons(_ query: DocumentQuery, verb: String, incrementing incremented: [FieldPath] = [],
                                  in db: Database) throws {
        if let (field, problem) = InexactComparisons.inexactLiteral(in: query.condition) {
            throw DocStoreError.invalidQuery(
                collection: name, field: field.description,
                reason: problem + ", so this \(verb) is refused (name the documents by key, or compare with values a file store reads exactly)")
        }
        // With a limit or offset, the sort picks among the documents the
        // condition matches: one read inexactly, selected or not (matched or
        // not), can change which are picked (a tie broken by key took the
        // other document; helper-51). Every document is checked then.
        let limited = query.limit != nil || query.offset != nil
        let scope = limited ? DocumentQuery() : query
        var fields = InexactComparisons.comparedFields(query)
        for path in incremented { fields.add(path, .incremented) }
        try refuseInexactValues(of: fields, in: scope, subqueriesOf: query.condition, verb: verb, via: nil, in: db)
    }

    /// Refuses the write when a document of `scope` (a query on this
    /// collection) holds a value SQLite reads inexactly in one
    /// of `fields`; then checks the documents of each subquery of `condition`.
    private func refuseInexactValues(of fields: InexactComparisons.ComparedFields, in scope: DocumentQuery, subqueriesOf condition: Condition,
                                     verb: String, via subquery: Subquery?, in db: Database) throws {
        if !fields.isEmpty, let info = try store.knownCollection(named: name, in: db) {
            let compiler = try queryCompiler(in: db)
            // SQLite alone looks first: most writes find nothing to read exactly.
            var mayHoldOne = false
            try run(try compiler.anyInexactCandidate(fields.paths, scope), in: db) { _ in mayHoldOne = true }
            if mayHoldOne {
                try run(try compiler.fields(fields.paths, scope), in: db) { row in
                    try refuseInexactValues(in: row, fields: fields, key: row.key(at: 0, kind: info.keyKind), verb: verb, via: subquery)
                }
            }
        }
        try refuseInexactValues(ofSubqueriesIn: condition, verb: verb, in: db)
    }

    private func refuseInexactValues(ofSubqueriesIn condition: Condition, verb: String, in db: Database) throws {
        // A subquery's values are compared with the outer field, and which
        // documents it selects decides which outer ones match: one it leaves
        // out only because it reads a value inexactly is as wrong as one it
        // takes (`!x.in(…)` deleted the documents the subquery missed;
        // helper-51). All of its collection's documents are checked for its
        // condition's fields; the values it selects, in the documents it selects.
        for inner in InexactComparisons.subqueries(condition) {
            let collection = store.collection(named: inner.collection)
            try collection.refuseInexactValues(of: InexactComparisons.comparedFields(inner.condition), in: DocumentQuery(),
                                               subqueriesOf: inner.condition, verb: verb, via: inner, in: db)
            guard let field = inner.field else { continue }  // keys compare exactly
            var selected = InexactComparisons.ComparedFields()
            selected.add(field, .numbers)
            selected.add(field, .strings)
            try collection.refuseInexactValues(of: selected, in: DocumentQuery(inner.condition), subqueriesOf: .always,
                                               verb: verb, via: inner, in: db)
        }
    }

    /// Throws when a row holding `fields` as ``QueryCompiler/fields(_:_:)``
    /// selects them (after the key) has a value SQLite reads inexactly, naming
    /// document `key` of this collection; `subquery` is the one that read the
    /// row, if any.
    func refuseInexactValues(in row: RawStatement, fields: InexactComparisons.ComparedFields, key: DocumentKey, verb: String,
                             via subquery: Subquery? = nil) throws {
        // Most rows hold neither (no exact text, no array or object): skipped unread.
        for (index, field) in fields.paths.enumerated() where row.mayReadInexactly(index) {
            let value = try row.selectedField(index, collection: name, key: key)
            let kinds = fields.kinds[field] ?? []
            let document = "document \(key) of \(DocumentKey.quoted(name))" + (subquery == nil ? "" : " (read by the subquery)")
            // An increment reads the number as a Double: `+= 0` rounded
            // 0.30000000000000000001 to 0.3 (helper-51).
            if kinds.contains(.incremented), case .exactNumber(let number) = value, number.isReadRounded {
                throw DocStoreError.invalidUpdate(
                    collection: name, field: field.description, key: key,
                    reason: "it holds \(number.text), a number a Double can't hold: an increment adds to it as \(number.doubleValue) and would store the rounded sum (set the field instead)")
            }
            if kinds.contains(.numbers), let number = InexactComparisons.roundedNumber(in: value) {
                throw DocStoreError.invalidQuery(
                    collection: name, field: field.description,
                    reason: "\(document) holds \(number.text) in \(field), a number a Double can't hold: a file store compares it as \(number.doubleValue), so this \(verb) could take other documents than the ones its condition and sort mean; nothing was changed (PostgreSQL compares it exactly; or change that document first)")
            }
            if kinds.contains(.strings), let string = InexactComparisons.stringWithNUL(in: value) {
                let cut = String(decoding: string.utf8.prefix { $0 != 0 }, as: UTF8.self)
                throw DocStoreError.invalidQuery(
                    collection: name, field: field.description,
                    reason: "\(document) holds \(InexactComparisons.jsonText(string)) in \(field), a string with NUL (\\u0000) in it: a file store compares it only up to the NUL, as \(InexactComparisons.jsonText(cut)), so this \(verb) could take other documents than the ones its condition and sort mean; nothing was changed (change that document first)")
            }
        }
    }
}
