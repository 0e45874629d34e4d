/// A field that a query names but that no sampled document has and no index is
/// on: most likely a typo (`nickName` for `nickname`), which would otherwise be a
/// query that silently matches nothing. Only a warning: sampling can't prove a
/// field absent, and `nickname == nil` on a missing field is a valid question.
public struct FieldWarning: Sendable, Hashable, CustomStringConvertible {
    /// The collection queried.
    public var collection: String
    /// The field named, up to its first array position (`tags` for `tags[0]`).
    public var field: FieldPath
    /// The closest field that documents or indexes do have, if one is close.
    public var suggestion: String?
    /// Whether every document was read (the collection is small), not a sample.
    public var sampledEveryDocument: Bool

    /// `no document in 'players' has a field nickName; did you mean nickname?`
    public var description: String {
        var text = "no \(sampledEveryDocument ? "" : "sampled ")document in \(DocumentKey.quoted(collection)) has a field \(field)"
        if let suggestion { text += "; did you mean \(suggestion)?" }
        return text
    }

    /// The warning for `path`, or nil when the field is known: some sampled
    /// document has it (or a field inside it), or an index is on it. No warning
    /// either when nothing was sampled (an empty or new collection). Linear in
    /// the number of known fields (see ``NameSuggestion``).
    package static func check(_ path: FieldPath, collection: String, knownFields: some Collection<FieldPath>,
                              indexedFields: [FieldPath], sampledEveryDocument: Bool) -> FieldWarning? {
        guard !knownFields.isEmpty else { return nil }
        // The named part of the path, before any array position.
        let named = FieldPath(Array(path.components.prefix { if case .key = $0 { true } else { false } }))
        if named.components.isEmpty { return nil }
        let candidates = Array(knownFields) + indexedFields
        if candidates.contains(where: { $0.components.starts(with: named.components) }) { return nil }
        let suggestion = NameSuggestion.closest(to: named.description, in: Set(candidates.map(\.description)).sorted())
        return FieldWarning(collection: collection, field: named, suggestion: suggestion, sampledEveryDocument: sampledEveryDocument)
    }
}

extension Condition {
    /// The paths the condition names on its collection's documents, in order
    /// (inside `any`/`all`, only the array's own path: the rest is relative to
    /// its elements; a subquery's condition is on another collection).
    var namedPaths: [FieldPath] {
        switch self {
        case .always:
            return []
        case .compare(let path, _, _), .isNull(let path), .exists(let path), .string(let path, _, _, _),
             .isIn(let path, _), .isInSubquery(let path, _), .arrayContains(let path, _), .arrayCount(let path, _, _),
             .any(let path, _), .all(let path, _), .matches(let path, _):
            return [path]
        case .and(let conditions), .or(let conditions):
            return conditions.flatMap(\.namedPaths)
        case .not(let condition):
            return condition.namedPaths
        }
    }
}

extension DocumentQuery {
    /// The paths the query names: its condition's, then its sort's.
    var namedPaths: [FieldPath] {
        condition.namedPaths + sort.map(\.path)
    }
}
