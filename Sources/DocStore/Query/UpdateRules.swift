/// What an update by query may do, the same on every backend.
@_spi(Backends)
public enum UpdateRules {
    /// Refuses a value nested deeper than a document may be, and any change of
    /// the key `id` of a keyed collection (the key column and the document
    /// would disagree: PostgreSQL once rewrote `id` inside every document while
    /// the keys stayed, so `get(1)` returned a document saying `"id": 9`).
    public static func check(_ updates: [FieldUpdate], collection: String, keyed: Bool) throws {
        for update in updates { try checkDepth(update.path, collection: collection) }
        // A value set at `a.b` sits inside the document and `a`: its own nesting
        // gets what the path leaves of the limit.
        for case .set(let path, let value) in updates
        where DocumentCodec.nests(value, deeperThan: DocumentStore.maximumNestingDepth - path.components.count) {
            throw DocStoreError.nestingTooDeep(collection: collection, key: nil, limit: DocumentStore.maximumNestingDepth)
        }
        if keyed, let id = updates.first(where: { $0.path.components.first == .key("id") }) {
            throw DocStoreError.invalidQuery(collection: collection, field: id.path.description,
                                             reason: "the id is the document's key, which an update never changes")
        }
    }

    /// Why an increment by `amount` is refused when it overflows: past the
    /// largest number going up, past the smallest going down (Int64's range).
    public static func overflowReason(adding amount: JSONValue) -> String {
        let down = switch amount {
        case .integer(let n): n < 0
        case .double(let d): d < 0
        case .exactNumber(let literal): literal.text.hasPrefix("-")
        default: false
        }
        let text = String(decoding: DocumentCodec.serialize(amount), as: UTF8.self)
        return "adding \(text) would go \(down ? "below the smallest" : "past the largest") number DocStore stores exactly (integers are 64-bit, as Int64)"
    }

    /// A field written at `path` sits inside as many objects as the path has
    /// parts (the document's included): past the nesting limit, the document
    /// would be stored but never read back.
    static func checkDepth(_ path: FieldPath, collection: String) throws {
        guard path.components.count <= DocumentStore.maximumNestingDepth else {
            throw DocStoreError.invalidQuery(collection: collection, field: String(path.description.prefix(40)) + "… (\(path.components.count) parts)",
                                             reason: "the path nests deeper than \(DocumentStore.maximumNestingDepth) levels, DocStore's limit (DocumentStore.maximumNestingDepth)")
        }
    }
}
