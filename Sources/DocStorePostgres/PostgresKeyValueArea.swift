@_spi(Backends) import DocStore
import PostgresNIO

/// The key/value area of a ``PostgresDocumentStore``: typed `Codable` values
/// under string keys, beside the collections, as ``DocStore/KeyValueArea`` is
/// in a DocStore file. Its table is created by the first ``set(_:forKey:)``.
///
///     try await store.values.set(settings, forKey: "settings")
///     let settings: Settings? = try await store.values.get("settings")
public struct PostgresKeyValueArea: Sendable {
    let store: PostgresDocumentStore
    let transaction: PostgresTransaction?
    private static let area = "values"

    var session: PostgresSession { transaction?.session ?? .pool(store.client) }

    /// Stores `value` under `key`, replacing what was there.
    ///
    /// - Throws: ``DocStore/DocStoreError/encodingFailed(collection:key:codingPath:reason:)``
    ///   naming the path when a string holds NUL (jsonb can't store it).
    public func set<Value: Encodable>(_ value: Value, forKey key: String) async throws {
        let json = try BackendSupport.encode(value, collection: Self.area, key: .string(key))
        if let path = try BackendSupport.pathOfNUL(in: json) {
            throw DocStoreError.encodingFailed(collection: Self.area, key: .string(key), codingPath: path.description,
                                               reason: "PostgreSQL's jsonb can't store a string or member name containing NUL (\\u0000)")
        }
        try await session.rows(PostgresStoreSQL.createValues, [], collection: Self.area)
        try await session.rows(PostgresStoreSQL.setValue, [.text(key), .text(String(decoding: JSONBNumberSpelling.storable(json), as: UTF8.self))],
                               collection: Self.area, key: .string(key))
    }

    /// The value stored under `key`, or nil when there is none.
    public func get<Value: Decodable>(_ key: String, as type: Value.Type = Value.self) async throws -> Value? {
        guard let row = try await rowsIfCreated(PostgresStoreSQL.getValue, [.text(key)]).first else { return nil }
        return try BackendSupport.decode(Value.self, from: Array(try row.decode(String.self).utf8), collection: Self.area, key: .string(key))
    }

    /// Removes the value stored under `key`; returns whether there was one.
    @discardableResult
    public func remove(_ key: String) async throws -> Bool {
        try await !rowsIfCreated(PostgresStoreSQL.removeValue, [.text(key)]).isEmpty
    }

    /// All keys, sorted by their UTF-8 bytes.
    public func keys() async throws -> [String] {
        try await rowsIfCreated(PostgresStoreSQL.valueKeys, []).map { try $0.decode(String.self) }
    }

    /// The statement's rows; none when the area's table was never created.
    private func rowsIfCreated(_ sql: String, _ bindings: [SQLBinding]) async throws -> [PostgresRow] {
        let session = session
        let run = { () async throws -> [PostgresRow] in
            do {
                return try await session.rows(sql, bindings, collection: Self.area)
            } catch PostgresStoreError.server(sqlState: "42P01", _, _, _, _) {
                return []  // undefined_table: nothing was ever set
            }
        }
        // In a transaction the failed statement would spoil it: a savepoint keeps it to itself.
        guard let transaction else { return try await run() }
        return try await transaction.savepoint { try await run() }
    }
}

extension PostgresDocumentStore {
    /// The store's key/value area.
    public var values: PostgresKeyValueArea { PostgresKeyValueArea(store: self, transaction: nil) }
}

extension PostgresTransaction {
    /// The store's key/value area, in this transaction.
    public var values: PostgresKeyValueArea { PostgresKeyValueArea(store: store, transaction: self) }
}
