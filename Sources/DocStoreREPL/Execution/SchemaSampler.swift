import DocStore

/// The fields of a collection, learnt from a sample of its documents: every path
/// to a member (objects are walked into; arrays are not), the JSON types seen at
/// each, and in how many sampled documents.
struct FieldSample: Sendable {
    var sampled = 0
    /// Damaged documents (not valid JSON) left out of the sample: `.check` lists them.
    var damagedSkipped = 0
    var fields: [FieldPath: (types: Set<String>, documents: Int)] = [:]
    /// Paths in the order they were first seen, so `.schema` follows the documents.
    var order: [FieldPath] = []

    mutating func add(_ document: JSONValue) {
        sampled += 1
        var seen: Set<FieldPath> = []
        walk(document, at: .root, seen: &seen)
    }

    private mutating func walk(_ value: JSONValue, at path: FieldPath, seen: inout Set<FieldPath>) {
        guard case .object(let members) = value else { return }
        for (key, member) in members {
            let memberPath = path.appending(key)
            let type = Self.typeName(member)
            if fields[memberPath] == nil { order.append(memberPath) }
            var entry = fields[memberPath] ?? ([], 0)
            entry.types.insert(type)
            if seen.insert(memberPath).inserted { entry.documents += 1 }
            fields[memberPath] = entry
            walk(member, at: memberPath, seen: &seen)
        }
    }

    /// `JSONValue.typeName`, with both booleans as `boolean`.
    static func typeName(_ value: JSONValue) -> String {
        if case .bool = value { return "boolean" }
        return value.typeName
    }
}

/// The store's schema as the parser and the completer see it, sampled lazily per
/// collection and cached until the next write, this session's or another
/// process's.
final class StoreSchema: SchemaProvider {
    let backend: any REPLBackend
    /// How many documents to read per collection: enough to see the usual
    /// fields, few enough that a million-document collection answers at once.
    let sampleSize: Int
    private var names: [String]?
    private var samples: [String: FieldSample] = [:]
    /// The store's count of other processes' commits when the cache was filled.
    private var changesByOthers: Int64?

    init(backend: any REPLBackend, sampleSize: Int = 200) {
        self.backend = backend
        self.sampleSize = sampleSize
    }

    /// A schema of a DocStore file or in-memory store.
    convenience init(store: DocumentStore, sampleSize: Int = 200) {
        self.init(backend: SQLiteBackend(store: store), sampleSize: sampleSize)
    }

    /// Forgets what was sampled (after a write).
    func invalidate() {
        names = nil
        samples = [:]
    }

    /// Forgets what was sampled when another process has committed since.
    private func forgetChangesByOthers() {
        let current = backend.changesByOthers()
        if current != changesByOthers {
            invalidate()
            changesByOthers = current
        }
    }

    func collectionNames() -> [String] {
        forgetChangesByOthers()
        if let names { return names }
        // A store that can't list its collections offers no suggestions; the
        // command itself will then report the store's error.
        let listed = (try? backend.collections().map(\.name)) ?? []
        names = listed
        return listed
    }

    func fieldTypes(in collection: String) -> [FieldPath: Set<String>] {
        (try? sample(collection))?.fields.mapValues(\.types) ?? [:]
    }

    /// The sample of `collection`, reading it when not cached (see
    /// ``REPLBackend/sample(_:size:)``).
    func sample(_ collection: String) throws -> FieldSample {
        forgetChangesByOthers()
        if let cached = samples[collection] { return cached }
        let sample = try backend.sample(collection, size: sampleSize)
        samples[collection] = sample
        return sample
    }
}
