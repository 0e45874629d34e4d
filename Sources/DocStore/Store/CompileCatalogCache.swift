import GRDB
import Synchronization

/// What compiling a query reads from the catalog (a collection's indexes, field
/// columns and search indexes), remembered per read-only connection for as long
/// as that connection sees the same database.
///
/// A read-only connection changes nothing itself, so what it reads can only
/// change when another connection commits, and then its `PRAGMA data_version`
/// changes; every index, field-column table and search index is also a schema
/// object, so `PRAGMA schema_version` changes with each of them. The entries of a
/// connection are kept while both numbers stay what they were when they were
/// read. Connections that write are never served from here: their own open
/// transaction may have made or dropped what a query reads.
///
/// In a REPL session this spares each query three catalog reads (one of them
/// `sqlite_master`): about 0.1 ms a query.
final class CompileCatalogCache: Sendable {
    /// One connection's entries, and the database state they were read in.
    private struct Entries {
        var dataVersion: Int64
        var schemaVersion: Int64
        var indexes: [String: [IndexInfo]] = [:]
        var fieldColumns: [String: FieldColumnsInfo?] = [:]
        var searchIndexes: [String: [SearchIndexInfo]] = [:]
    }

    private let connections = Mutex<[ObjectIdentifier: Entries]>([:])

    /// A view of the cache for compiling on `db`: served from memory when `db` is
    /// read-only, read from the catalog every time otherwise.
    func lookups(in db: Database) throws -> Lookups {
        guard db.configuration.readonly else { return Lookups(cache: nil, db: db) }
        let versions = try RawStatement(db, sql: "SELECT data_version, schema_version FROM pragma_data_version, pragma_schema_version")
        defer { versions.finish() }
        try versions.step()
        let (data, schema) = (versions.int64(at: 0), versions.int64(at: 1))
        let connection = ObjectIdentifier(db)
        connections.withLock { connections in
            if let entries = connections[connection], entries.dataVersion == data, entries.schemaVersion == schema { return }
            connections[connection] = Entries(dataVersion: data, schemaVersion: schema)
        }
        return Lookups(cache: self, db: db)
    }

    /// The catalog as one compilation reads it.
    struct Lookups {
        fileprivate let cache: CompileCatalogCache?
        fileprivate let db: Database

        func indexes(of collection: String) throws -> [IndexInfo] {
            try cached(\.indexes, collection) { try Catalog.indexes(of: collection, in: db) }
        }

        func fieldColumns(of collection: String) throws -> FieldColumnsInfo? {
            try cached(\.fieldColumns, collection) { try Catalog.readableFieldColumns(of: collection, in: db) }
        }

        func searchIndexes(of collection: String) throws -> [SearchIndexInfo] {
            try cached(\.searchIndexes, collection) { try Catalog.searchIndexes(of: collection, in: db) }
        }

        private func cached<Value: Sendable>(_ table: WritableKeyPath<Entries, [String: Value]>, _ collection: String,
                                   read: () throws -> Value) throws -> Value {
            guard let cache else { return try read() }
            let connection = ObjectIdentifier(db)
            if let value = cache.connections.withLock({ $0[connection]?[keyPath: table][collection] }) { return value }
            let value = try read()
            cache.connections.withLock { $0[connection]?[keyPath: table][collection] = value }
            return value
        }
    }
}
