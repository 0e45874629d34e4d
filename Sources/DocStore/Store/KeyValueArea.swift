import GRDB

/// A plain key/value area beside the collections: typed `Codable` values under
/// string keys, stored as JSON like documents.
///
///     try store.values.set(settings, forKey: "settings")
///     let settings: Settings? = try store.values.get("settings")
public struct KeyValueArea: Sendable {
    let store: DocumentStore
    private static let area = "values"

    /// Stores `value` under `key`, replacing what was there.
    public func set<Value: Encodable>(_ value: Value, forKey key: String) throws {
        let bytes = try ModelCoding.encode(value, collection: Self.area, key: .string(key))
        try store.access(collection: Self.area) {
            try store.writeAccess { db in
                let statement = try RawStatement(db, sql: """
                    INSERT INTO \(Catalog.valuesTable) (key, body) VALUES (?, ?)
                    ON CONFLICT (key) DO UPDATE SET body = excluded.body
                    """)
                defer { statement.finish() }
                statement.bindTransient(key, at: 1)
                try bytes.withUnsafeBytes { statement.bindStatic($0, at: 2); try statement.step() }
            }
        }
    }

    /// The value stored under `key`, or `nil` when there is none.
    ///
    /// - Throws: ``DocStoreError/decodingFailed(collection:key:codingPath:reason:)``
    ///   when the stored value is not a `Value`.
    public func get<Value: Decodable>(_ key: String, as type: Value.Type = Value.self) throws -> Value? {
        try store.access(collection: Self.area) {
            try store.readAccess { db in
                let statement = try RawStatement(db, sql: "SELECT body FROM \(Catalog.valuesTable) WHERE key = ?")
                defer { statement.finish() }
                statement.bindTransient(key, at: 1)
                guard try statement.step() else { return nil }
                return try ModelCoding.decode(Value.self, from: statement.bytes(at: 0), collection: Self.area, key: .string(key))
            }
        }
    }

    /// Removes the value stored under `key`. Returns whether there was one.
    @discardableResult
    public func remove(_ key: String) throws -> Bool {
        try store.access(collection: Self.area) {
            try store.writeAccess { db in
                try db.execute(sql: "DELETE FROM \(Catalog.valuesTable) WHERE key = ?", arguments: [key])
                return db.changesCount > 0
            }
        }
    }

    /// All keys, sorted.
    public func keys() throws -> [String] {
        try store.access(collection: Self.area) {
            try store.readAccess { db in
                try String.fetchAll(db, sql: "SELECT key FROM \(Catalog.valuesTable) ORDER BY key")
            }
        }
    }
}
