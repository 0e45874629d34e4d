/// What a field change may name, and the errors of the changes it refuses: the
/// same rules on every backend.
enum FieldChangeRules {
    /// A rename or copy needs two distinct paths, neither inside the other.
    static func checkMove(from source: FieldPath, to target: FieldPath, collection: String, keyed: Bool) throws {
        try checkNotKey(source, collection: collection, keyed: keyed)
        try checkTarget(target, collection: collection, keyed: keyed)
        if source.components.starts(with: target.components) || target.components.starts(with: source.components) {
            throw DocStoreError.invalidQuery(collection: collection, field: target.description,
                                             reason: "\(source) and \(target) overlap (one is the other, or inside it)")
        }
    }

    /// A field written by a change: member names only (a position past an
    /// array's end would be silently ignored), and never the key.
    static func checkTarget(_ path: FieldPath, collection: String, keyed: Bool) throws {
        try checkNotKey(path, collection: collection, keyed: keyed)
        try UpdateRules.checkDepth(path, collection: collection)
        if path.components.contains(where: { if case .index = $0 { true } else { false } }) {
            throw DocStoreError.invalidQuery(collection: collection, field: path.description,
                                             reason: "a field change writes members by name, not array positions")
        }
    }

    /// The `id` of a keyed collection is the document's key, which never changes.
    static func checkNotKey(_ path: FieldPath, collection: String, keyed: Bool) throws {
        guard !path.components.isEmpty else {
            throw DocStoreError.invalidQuery(collection: collection, field: nil, reason: "a field change needs a field, not the whole document")
        }
        if keyed, path.components.first == .key("id") {
            throw DocStoreError.invalidQuery(collection: collection, field: path.description,
                                             reason: "the id is the document's key, which a field change never changes")
        }
    }

    /// How many levels a value moved from `source` to `target` may nest, when
    /// the move can push a document past the nesting limit: nil when `target`
    /// is no deeper than `source` (the document nests no deeper than before).
    static func movedValueRoom(from source: FieldPath, to target: FieldPath) -> Int? {
        guard target.components.count > source.components.count else { return nil }
        return DocumentStore.maximumNestingDepth - target.components.count
    }

    /// How many levels of arrays and objects JSON text nests (0 for a scalar),
    /// from its brackets outside strings.
    static func nestingDepth(ofJSON text: some Sequence<UInt8>) -> Int {
        var depth = 0, deepest = 0
        var inString = false, escaped = false
        for byte in text {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                deepest = Swift.max(deepest, depth)
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return deepest
    }

    /// A rename or copy refused because the value would nest the document past the limit.
    static func tooDeepError(moving source: FieldPath, to target: FieldPath, key: DocumentKey, collection: String) -> DocStoreError {
        .invalidUpdate(collection: collection, field: target.description, key: key,
                       reason: "its \(source) nests so deep that at \(target) the document would nest deeper than \(DocumentStore.maximumNestingDepth) levels, DocStore's limit, and could not be read back; choose a shallower path")
    }

    /// A default must be JSON that nests no deeper than documents may, with
    /// finite numbers only.
    static func checkDefault(_ value: JSONValue, at path: FieldPath, collection: String) throws {
        if DocumentCodec.nests(value, deeperThan: DocumentStore.maximumNestingDepth - path.components.count) {
            throw DocStoreError.nestingTooDeep(collection: collection, key: nil, limit: DocumentStore.maximumNestingDepth)
        }
        if let number = value.numberValue, !number.isFinite {
            throw DocStoreError.invalidQuery(collection: collection, field: path.description, reason: "a default needs a finite number (JSON has no NaN or infinity)")
        }
    }

    /// The words of a change, as its ``FieldChangeSummary`` gives them.
    static func setDefaultChange(_ path: FieldPath, _ value: JSONValue) -> String {
        "set \(path) where missing to \(String(decoding: DocumentCodec.serialize(value), as: UTF8.self))"
    }

    /// A rename or copy refused because the document has both fields.
    static func overwriteError(moving source: FieldPath, to target: FieldPath, key: DocumentKey, collection: String) -> DocStoreError {
        .invalidUpdate(collection: collection, field: target.description, key: key,
                       reason: "the document has both \(source) and \(target), and moving one onto the other would lose a value; remove or merge one of them first")
    }

    /// A change refused because a parent of its target is not an object.
    static func blockedParentError(writing target: FieldPath, key: DocumentKey, collection: String) -> DocStoreError {
        .invalidUpdate(collection: collection, field: target.description, key: key,
                       reason: "a field on the way to \(target) holds a value that is not an object, so \(target) can't be written there")
    }

    /// An index's fields after `old` moved to `new` (those inside it follow it).
    static func moved(_ index: IndexInfo, from old: FieldPath, to new: FieldPath) -> IndexInfo {
        var moved = index
        moved.fields = index.fields.map { field in
            guard field.components.starts(with: old.components) else { return field }
            return FieldPath(new.components + field.components.dropFirst(old.components.count))
        }
        return moved
    }

    /// Whether an index is on `path` or on a field inside it.
    static func covers(_ index: IndexInfo, _ path: FieldPath) -> Bool {
        index.fields.contains { $0.components.starts(with: path.components) }
    }

    /// A search index's fields after `old` moved to `new`; nil when none is on
    /// `old` or inside it.
    static func searchFields(_ fields: [FieldPath], renaming old: FieldPath, to new: FieldPath) -> [FieldPath]? {
        guard fields.contains(where: { $0.components.starts(with: old.components) }) else { return nil }
        return fields.map { field in
            guard field.components.starts(with: old.components) else { return field }
            return FieldPath(new.components + field.components.dropFirst(old.components.count))
        }
    }

    /// A search index's fields once `path` is removed (possibly none); nil when
    /// none is on `path` or inside it.
    static func searchFields(_ fields: [FieldPath], removing path: FieldPath) -> [FieldPath]? {
        guard fields.contains(where: { $0.components.starts(with: path.components) }) else { return nil }
        return fields.filter { !$0.components.starts(with: path.components) }
    }
}
