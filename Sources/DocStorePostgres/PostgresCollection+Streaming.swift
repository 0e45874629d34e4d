@_spi(Backends) import DocStore
import PostgresNIO

extension PostgresCollection {
    /// Calls `body` with each document a query selects, in its order, as the
    /// server sends them: each row is decoded and handed over, then dropped,
    /// so reading a million documents takes the memory of a few (``fetch(_:)``
    /// collects them). Throwing from `body` stops the query.
    ///
    ///     try await players.forEach(DocumentQuery()) { player in total += player.number }
    public func forEach(_ query: DocumentQuery, _ body: (Model) throws -> Void) async throws {
        try await followingDropsUntilDelivering(reading: PostgresCompiler.subqueryCollections(of: query.condition)) { delivering in
            try await forEachOnce(query) { model in
                delivering()
                try body(model)
            }
        }
    }

    /// Runs `read` as ``followingDrops(reading:_:)`` does (again after another
    /// session's drop or key kind change), but only while it has handed
    /// nothing over (it calls `delivering` before each row it hands over):
    /// running it again would hand rows over twice. A key read as the wrong
    /// kind fails at the first row.
    func followingDropsUntilDelivering(reading others: Set<String>,
                                       _ read: (_ delivering: () -> Void) async throws -> Void) async throws {
        var delivered = false
        do {
            try await followingDrops(reading: others) {
                do {
                    try await read { delivered = true }
                } catch where delivered {
                    throw DeliveredRows(error: error)
                }
            }
        } catch let stopped as DeliveredRows {
            throw stopped.error
        }
    }

    private func forEachOnce(_ query: DocumentQuery, _ body: (Model) throws -> Void) async throws {
        guard let compiler = try await compiler(for: query.condition, relevance: query.relevance != nil) else { return }
        let statement = try compiler.documents(query)
        let kind = keyKind()
        try await session.forEachRow(statement.sql, statement.bindings, collection: name) { row in
            var cells = row.makeIterator()
            guard let keyCell = cells.next() else {
                throw DocStoreError.corruptDocument(collection: name, key: .string(""), reason: "the server sent no key")
            }
            let key = try decodeKey(keyCell, kind: kind)
            try body(try decodeDocument(cells.next(), key: key))
        }
    }

    /// Calls `body` with every document, in key order, as the server sends them.
    public func forEach(_ body: (Model) throws -> Void) async throws {
        try await forEach(DocumentQuery(), body)
    }
}

extension PostgresCollectionQuery {
    /// Calls `body` with each selected document, in order, as the server sends
    /// them (nothing collected):
    ///
    ///     try await players.filter { $0.teamId == 1 }.forEach { print($0.lastName) }
    public func forEach(_ body: (Model) throws -> Void) async throws {
        guard stages.isEmpty else {
            for model in try await fetch() { try body(model) }  // joins: rows come through the pipeline
            return
        }
        try await collection.forEach(documentQuery(), body)
    }
}

/// An error after `forEach` handed rows over: it passes ``PostgresCollection/followingDrops(reading:_:)``
/// unchanged, as running the query again would hand them over twice.
private struct DeliveredRows: Error {
    var error: any Error
}
