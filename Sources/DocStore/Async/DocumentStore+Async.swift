// The async forms of the store's transactions and maintenance.

extension DocumentStore {
    /// Runs `body` in one transaction on the store's writer thread: all of it is
    /// committed, or none (see ``write(_:)-(StoreTransaction)``).
    ///
    ///     try await store.write { tx in
    ///         try tx.collection(Team.self).insert(expansionTeam)
    ///         try tx.collection(Player.self).delete(7)
    ///     }
    ///
    /// Cancelling the awaiting task interrupts the transaction, which then rolls
    /// back whole, and throws `CancellationError`.
    public func write<Result>(_ body: @escaping @Sendable (StoreTransaction) throws -> sending Result) async throws -> sending Result {
        try await executor.run(.write) { try self.write(body) }
    }

    /// Runs `body` on one consistent snapshot of the store, on a reader thread.
    public func read<Result>(_ body: @escaping @Sendable (StoreTransaction) throws -> sending Result) async throws -> sending Result {
        try await executor.run(.read) { try self.read(body) }
    }

    /// The collections in the store, by name.
    public func collections() async throws -> [CollectionInfo] {
        try await executor.run(.read) { try self.collections() }
    }

    /// Deletes a collection, its documents and its indexes. Returns whether it existed.
    @discardableResult
    public func dropCollection(named name: String) async throws -> Bool {
        try await executor.run(.write) { try self.dropCollection(named: name) }
    }

    /// SQLite's integrity check and every document of every collection, checked.
    public func check() async throws -> StoreCheck {
        try await executor.run(.read) { try self.check() }
    }

    /// Moves a collection's damaged documents into its quarantine collection.
    @discardableResult
    public func repair(collection name: String) async throws -> RepairResult {
        try await executor.run(.write) { try self.repair(collection: name) }
    }
}

extension KeyValueArea {
    /// Stores `value` under `key`, replacing what was there.
    public func set<Value: Encodable & Sendable>(_ value: Value, forKey key: String) async throws {
        try await store.executor.run(.write) { try self.set(value, forKey: key) }
    }

    /// The value stored under `key`, or `nil`.
    public func get<Value: Decodable & SendableMetatype>(_ key: String, as type: Value.Type = Value.self) async throws -> Value? {
        try await store.executor.run(.read) { try self.get(key, as: type) }
    }

    /// Removes the value under `key`. Returns whether there was one.
    @discardableResult
    public func remove(_ key: String) async throws -> Bool {
        try await store.executor.run(.write) { try self.remove(key) }
    }

    /// The keys in use, sorted.
    public func keys() async throws -> [String] {
        try await store.executor.run(.read) { try self.keys() }
    }
}
