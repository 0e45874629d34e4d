import DocStore

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
    private var indexed: [String: [FieldPath]] = [:]
    /// The store's count of other processes' commits when the cache was filled.
    private var changesByOthers: Int64?

    func comparesNumbersAsDoubles() -> Bool { !(backend is PostgresBackend) }

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
        indexed = [:]
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
        // A store that can't list its collections offers no suggestions, and
        // calls no name unknown (``listsCollections()``): the command itself
        // then reports the store's error. Asked again next time.
        guard let listed = try? backend.collections().map(\.name) else {
            failedListing = true
            return []
        }
        failedListing = false
        names = listed
        return listed
    }

    /// Whether the last listing of collections worked.
    private var failedListing = false

    func listsCollections() -> Bool {
        _ = collectionNames()
        return !failedListing
    }

    func fieldTypes(in collection: String) -> [FieldPath: Set<String>] {
        (try? sample(collection))?.fields.mapValues(\.types) ?? [:]
    }

    func indexedFields(in collection: String) -> [FieldPath] {
        forgetChangesByOthers()
        if let cached = indexed[collection] { return cached }
        // A store that can't list indexes offers none; the command reports its error.
        let fields = ((try? backend.indexes(collection)) ?? []).flatMap(\.fields)
        indexed[collection] = fields
        return fields
    }

    func sampledEveryDocument(in collection: String) -> Bool {
        (try? sample(collection))?.sampledEveryDocument ?? false
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
