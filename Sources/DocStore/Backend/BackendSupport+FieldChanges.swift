// Field changes (migrations) for another backend: the rules and errors SQLite's
// collections use, so that a change means the same on every backend.
@_spi(Backends)
extension BackendSupport {
    /// Refuses a rename or copy between paths that overlap, from or to the key
    /// `id` of a keyed collection, or to an array position.
    public static func checkFieldMove(from source: FieldPath, to target: FieldPath, collection: String, keyed: Bool) throws {
        try FieldChangeRules.checkMove(from: source, to: target, collection: collection, keyed: keyed)
    }

    /// Refuses a change of the document itself, or of the key `id` of a keyed collection.
    public static func checkFieldNotKey(_ path: FieldPath, collection: String, keyed: Bool) throws {
        try FieldChangeRules.checkNotKey(path, collection: collection, keyed: keyed)
    }

    /// Refuses a default for a path a change can't write, or a value documents can't hold.
    public static func checkFieldDefault(_ value: JSONValue, at path: FieldPath, collection: String, keyed: Bool) throws {
        try FieldChangeRules.checkTarget(path, collection: collection, keyed: keyed)
        try FieldChangeRules.checkDefault(value, at: path, collection: collection)
    }

    /// `set <path> where missing to <value>`, as a summary words the change.
    public static func setDefaultChange(_ path: FieldPath, _ value: JSONValue) -> String {
        FieldChangeRules.setDefaultChange(path, value)
    }

    /// The summary of a change that has changed nothing yet.
    /// A Swift value as the JSON a field change writes at `path`, or the error
    /// naming the field when it can't be encoded.
    public static func fieldValue<Value: Encodable>(_ value: Value, at path: FieldPath, collection: String) throws -> JSONValue {
        switch QueryValue.encode(value, for: path) {
        case .success(let json): return json
        case .failure(let problem): throw problem.error(collection: collection)
        }
    }

    /// A search index's fields after a rename (nil when it isn't on the field).
    public static func searchFields(_ fields: [FieldPath], renaming old: FieldPath, to new: FieldPath) -> [FieldPath]? {
        FieldChangeRules.searchFields(fields, renaming: old, to: new)
    }

    /// A search index's fields after a removal (nil when it isn't on the field).
    public static func searchFields(_ fields: [FieldPath], removing path: FieldPath) -> [FieldPath]? {
        FieldChangeRules.searchFields(fields, removing: path)
    }

    public static func fieldChangeSummary(collection: String, change: String) -> FieldChangeSummary {
        FieldChangeSummary(collection: collection, change: change, documentsChanged: 0)
    }

    /// The error of a rename or copy onto a field the document already has.
    public static func fieldOverwriteError(moving source: FieldPath, to target: FieldPath, key: DocumentKey, collection: String) -> DocStoreError {
        FieldChangeRules.overwriteError(moving: source, to: target, key: key, collection: collection)
    }

    /// How many levels a value moved from `source` to `target` may nest; nil
    /// when the move can't deepen a document.
    public static func movedValueRoom(from source: FieldPath, to target: FieldPath) -> Int? {
        FieldChangeRules.movedValueRoom(from: source, to: target)
    }

    /// How many levels of arrays and objects JSON text nests.
    public static func nestingDepth(ofJSON text: some Sequence<UInt8>) -> Int {
        FieldChangeRules.nestingDepth(ofJSON: text)
    }

    /// The error of a rename or copy that would nest a document past the limit.
    public static func fieldTooDeepError(moving source: FieldPath, to target: FieldPath, key: DocumentKey, collection: String) -> DocStoreError {
        FieldChangeRules.tooDeepError(moving: source, to: target, key: key, collection: collection)
    }

    /// The error of a change whose target lies behind a value that is not an object.
    public static func blockedParentError(writing target: FieldPath, key: DocumentKey, collection: String) -> DocStoreError {
        FieldChangeRules.blockedParentError(writing: target, key: key, collection: collection)
    }

    /// Whether an index is on `path` or on a field inside it.
    public static func index(_ index: IndexInfo, covers path: FieldPath) -> Bool {
        FieldChangeRules.covers(index, path)
    }

    /// An index's fields after a rename of `old` to `new`.
    public static func index(_ index: IndexInfo, movedFrom old: FieldPath, to new: FieldPath) -> IndexInfo {
        FieldChangeRules.moved(index, from: old, to: new)
    }
}
