import DocStore

/// On a file store SQLite compares a stored number that a `Double` can't hold
/// exactly (`1e-400`, `9223372036854775807.0`, `18446744073709551615`) as that
/// `Double`, so a delete or update by query comparing its field with a number
/// could take a document the condition doesn't mean: `v.in([0])` changed the
/// document holding `1e-400` (helper-42). The parser refuses a condition whose
/// literal rounds; this looks at the stored side. Before such a write, the
/// compared fields of the documents it selects are read exactly (a selected
/// number keeps every digit), and a rounded one stops the write, named.
enum RoundedStoredNumbers {
    /// Refuses the write when a document it selects holds, in a field its
    /// condition compares with a number, a number SQLite rounds.
    static func check(_ backend: any REPLBackend, collection: String, _ query: DocumentQuery, verb: String) throws {
        guard !(backend is PostgresBackend) else { return }
        var fields = comparedFields(query.condition)
        // With a limit, the sort picks the documents: it compares too.
        if query.limit != nil || query.offset != nil {
            for key in query.sort where !fields.contains(key.path) { fields.append(key.path) }
        }
        guard !fields.isEmpty else { return }
        for row in try backend.select(collection, query, fields: [FieldPath("id")] + fields) {
            for (field, value) in zip(fields, row.dropFirst()) {
                guard let number = roundedNumber(in: value) else { continue }
                let key = row.first.map { JSONText().string($0) } ?? "?"
                throw CommandError("document \(key) of \(DocumentKeyQuoting.quoted(collection)) holds \(number.text) in \(field), a number a Double can't hold: a file store compares it as \(number.doubleValue), so this \(verb) could take other documents than the ones its condition and sort mean; nothing was changed (PostgreSQL compares it exactly; or change that document first)")
            }
        }
    }

    /// The fields the condition compares with a number (for arrays, the array).
    static func comparedFields(_ condition: Condition) -> [FieldPath] {
        var fields: [FieldPath] = []
        func add(_ path: FieldPath) { if !fields.contains(path) { fields.append(path) } }
        func visit(_ condition: Condition) {
            switch condition {
            case .compare(let path, _, let value) where value.numberValue != nil: add(path)
            case .isIn(let path, let values) where values.contains(where: { $0.numberValue != nil }): add(path)
            case .arrayContains(let path, let value) where value.numberValue != nil: add(path)
            case .any(let path, let inner), .all(let path, let inner):
                if !comparedFields(inner).isEmpty { add(path) }
            case .and(let conditions), .or(let conditions): conditions.forEach(visit)
            case .not(let inner): visit(inner)
            default: break
            }
        }
        visit(condition)
        return fields
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
}
