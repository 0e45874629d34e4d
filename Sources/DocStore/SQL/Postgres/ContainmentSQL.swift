/// Containment terms for a GIN `jsonb_path_ops` index on a PostgreSQL
/// collection's documents (created by an index on the document itself).
///
/// Such an index answers `body @> '{"tags": ["rare"]}'`, not DocStore's own
/// conditions. So when a collection has one, each top-level (ANDed) equality
/// with a scalar, and each `contains` of a scalar, on a path of member names
/// adds a containment term that the condition implies — it never drops a
/// document the condition keeps (jsonb containment equates numbers as
/// `numeric`, `2` and `2.0`, and strings byte for byte, as DocStore does) —
/// and the index finds the candidates, which the condition then checks:
///
///     tags.contains("rare") && team == "Blue"
///     →  body @> CAST(? AS jsonb) AND body @> CAST(? AS jsonb) AND <the condition>   -- {"tags":["rare"]}, {"team":"Blue"}
///
/// Ranges, `!=`, `nil` and array positions add nothing: containment can't
/// express them (the btree path indexes serve ranges).
enum ContainmentSQL {
    /// The terms `condition` implies, on the JSON column `body`.
    static func terms(_ condition: Condition, body: String) -> [SQLFragment] {
        facts(condition).map { body + " @> " + ConditionCompiler.postgresJSON($0) }
    }

    /// The JSON documents a document matching `condition` contains.
    static func facts(_ condition: Condition) -> [JSONValue] {
        switch condition {
        case .and(let conditions):
            return conditions.flatMap(facts)
        case .compare(let path, .equal, let value):
            return fact(path, value).map { [$0] } ?? []
        case .arrayContains(let path, let value):
            return fact(path, value, inArray: true).map { [$0] } ?? []
        default:
            return []
        }
    }

    /// `{"a": {"b": value}}` for the path `a.b` (`[value]` in an array), nil
    /// unless the path is member names and the value a scalar a document can hold.
    private static func fact(_ path: FieldPath, _ value: JSONValue, inArray: Bool = false) -> JSONValue? {
        switch value {
        case .bool, .integer, .exactNumber, .string: break
        case .double(let d) where d.isFinite: break
        default: return nil
        }
        var fact: JSONValue = inArray ? .array([value]) : value
        guard !path.components.isEmpty else { return nil }
        for component in path.components.reversed() {
            guard case .key(let key) = component else { return nil }
            fact = .object([key: fact])
        }
        return fact
    }
}
