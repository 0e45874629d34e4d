import GRDB
import GRDBSQLite
import Synchronization

/// The field samples that field warnings compare queries with, per collection,
/// each kept until the store changes (a write through this store, or another
/// process's commit), and the handler warnings go to.
final class FieldSampleCache: Sendable {
    /// How many documents a sample reads: enough to see the usual fields, few
    /// enough that a million-document collection answers at once.
    static let sampleSize = 200

    /// A state of the store: another connection's commit changes `data_version`;
    /// a write through this store's connection changes its total change count.
    struct Version: Hashable {
        var dataVersion: Int64
        var totalChanges: Int64
    }

    private struct State {
        var handler: (@Sendable (FieldWarning) -> Void)?
        var samples: [String: (version: Version, sample: FieldSample)] = [:]
    }

    private let state = Mutex(State())

    var handler: (@Sendable (FieldWarning) -> Void)? {
        get { state.withLock { $0.handler } }
        set { state.withLock { $0.handler = newValue } }
    }

    func sample(_ collection: String, at version: Version, read: () throws -> FieldSample) throws -> FieldSample {
        if let cached = state.withLock({ $0.samples[collection] }), cached.version == version { return cached.sample }
        let sample = try read()
        state.withLock { $0.samples[collection] = (version, sample) }
        return sample
    }
}

extension DocumentStore {
    /// Where warnings about unknown fields go: when set, every query on an
    /// untyped collection (``collection(named:)``) that names a field no sampled
    /// document has and no index is on calls it with a ``FieldWarning``, then
    /// runs as asked. Nil (the default) checks nothing, at no cost.
    ///
    ///     store.fieldWarningHandler = { warning in print("warning:", warning) }
    ///     try store.collection(named: "players").filter { $0.nickName == "Papi" }.count()
    ///     // warning: no document in 'players' has a field nickName; did you mean nickname?
    ///
    /// Samples are read once per collection and kept until the store changes.
    public var fieldWarningHandler: (@Sendable (FieldWarning) -> Void)? {
        get { fieldSamples.handler }
        set { fieldSamples.handler = newValue }
    }

    /// The store's current version, for the sample cache.
    func sampleVersion() throws -> FieldSampleCache.Version {
        try writer.unsafeReentrantRead { db in
            FieldSampleCache.Version(dataVersion: try Int64.fetchOne(db, sql: "PRAGMA data_version") ?? 0,
                                     totalChanges: Int64(sqlite3_total_changes64(db.sqliteConnection)))
        }
    }
}

extension DocumentCollection {
    /// The fields `query` names that no sampled document of the collection has
    /// and no index is on, each with the closest field that exists: the check
    /// behind ``DocumentStore/fieldWarningHandler``, for any collection.
    ///
    ///     try players.unknownFields(in: DocumentQuery(.compare(FieldPath("nickName"), .equal, "Papi")))
    ///     // [no document in 'players' has a field nickName; did you mean nickname?]
    public func unknownFields(in query: DocumentQuery) throws -> [FieldWarning] {
        try unknownFields(query.namedPaths)
    }

    /// The fields among `paths` that no sampled document has and no index is on.
    public func unknownFields(_ paths: [FieldPath]) throws -> [FieldWarning] {
        if paths.isEmpty { return [] }
        let sample = try access {
            try store.fieldSamples.sample(name, at: try store.sampleVersion()) {
                try store.collection(named: name).sampleFields(size: FieldSampleCache.sampleSize)
            }
        }
        let indexed = try indexes().flatMap(\.fields)
        var seen: Set<FieldPath> = []
        return paths.compactMap { path in
            guard let warning = FieldWarning.check(path, collection: name, knownFields: sample.fields.keys, indexedFields: indexed,
                                                   sampledEveryDocument: sample.sampledEveryDocument),
                  seen.insert(warning.field).inserted else { return nil }
            return warning
        }
    }

    /// Sends the warnings of a query on an untyped collection to the store's
    /// handler, when it has one. A store error here is left for the query itself
    /// to report.
    func warnAboutUnknownFields(_ query: @autoclosure () -> [FieldPath]) {
        guard Model.self == JSONValue.self, let handler = store.fieldWarningHandler else { return }
        for warning in (try? unknownFields(query())) ?? [] { handler(warning) }
    }
}
