@_spi(Backends) import DocStore
import PostgresNIO

/// Where statements run: any pooled connection, or the one connection of a transaction.
enum PostgresSession: Sendable {
    case pool(PostgresClient)
    case transaction(PostgresConnection)

    /// postgres-nio's logger: quiet but for critical messages (DocStore reports
    /// failures as errors; a pool reconnecting at shutdown is not news).
    static let logger: Logger = {
        var logger = Logger(label: "DocStorePostgres")
        logger.logLevel = .critical
        return logger
    }()

    /// A statement sent on a closed connection never returned (postgres-nio
    /// 1.33 queues it), so a transaction whose connection died waited forever
    /// in its next statement; it fails at once instead.
    static func checkOpen(_ connection: PostgresConnection) throws {
        if connection.isClosed { throw PostgresStoreError.connectionClosed(collection: nil) }
    }

    /// Runs a statement and collects its rows.
    @discardableResult
    func rows(_ sql: String, _ bindings: [SQLBinding], collection: String?, key: DocumentKey? = nil) async throws -> [PostgresRow] {
        try await rows(sql, binds: try Self.binds(bindings), collection: collection, key: key)
    }

    /// Runs a statement with postgres-nio's bindings (arrays, for batches) and
    /// collects its rows.
    @discardableResult
    func rows(_ sql: String, binds: PostgresBindings, collection: String?, key: DocumentKey? = nil) async throws -> [PostgresRow] {
        let run = {
            var rows: [PostgresRow] = []
            do {
                try await forEach(PostgresQuery(unsafeSQL: sql, binds: binds)) { rows.append($0) }
            } catch {
                throw PostgresStoreError.from(error, collection: collection, key: key)
            }
            return rows
        }
        // A statement alone is its own transaction: undone whole by a deadlock,
        // run again; its outcome unknown when the connection closed first.
        if case .pool = self { return try await Self.unknownWhenClosed { try await DeadlockRetry.run(run) } }
        return try await run()
    }

    /// Runs `body`, a statement alone, whose connection closing before the
    /// answer leaves its outcome unknown (``PostgresStoreError/outcomeUnknown(_:committing:)``).
    private static func unknownWhenClosed<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as PostgresStoreError {
            throw PostgresStoreError.outcomeUnknown(error, committing: false)
        }
    }

    /// Runs a statement and hands each row to `body` as it arrives: nothing is
    /// collected, and postgres-nio reads on from the server only as `body`
    /// returns, so a query selecting a million documents holds a few at a time.
    func forEachRow(_ sql: String, _ bindings: [SQLBinding], collection: String?,
                    _ body: (PostgresRow) throws -> Void) async throws {
        let query = PostgresQuery(unsafeSQL: sql, binds: try Self.binds(bindings))
        do {
            try await forEach(query, body)
        } catch {
            throw PostgresStoreError.from(error, collection: collection)  // body's own errors pass unchanged
        }
    }

    /// The one loop over a statement's rows: on a pooled connection whose
    /// statement the server cancels with the task when that is wanted
    /// (``PostgresStatementCancel``), else as postgres-nio runs it.
    private func forEach(_ query: PostgresQuery, _ body: (PostgresRow) throws -> Void) async throws {
        if case .pool(let client) = self, PostgresStatementCancel.isWanted {
            return try await PostgresStatementCancel.run(on: client, logger: Self.logger) { connection in
                for try await row in try await connection.query(query, logger: Self.logger) { try body(row) }
            }
        }
        let sequence: PostgresRowSequence
        switch self {
        case .pool(let client): sequence = try await client.query(query, logger: Self.logger)
        case .transaction(let connection):
            try Self.checkOpen(connection)
            sequence = try await connection.query(query, logger: Self.logger)
        }
        for try await row in sequence { try body(row) }
    }

    /// Runs one of a collection's fixed statements (``PostgresStoreSQL``'s
    /// point reads and writes, batch inserts, pages) as a prepared statement
    /// that each connection prepares once, and collects its rows.
    @discardableResult
    func rows(reusing sql: String, _ bindings: [SQLBinding], collection: String, key: DocumentKey? = nil) async throws -> [PostgresRow] {
        let types = bindings.map(\.typeCode).joined()
        return try await rows(reusing: sql, binds: try Self.binds(bindings), types: types, collection: collection, key: key)
    }

    /// The same with postgres-nio's bindings, whose types `types` names (the
    /// statement is prepared for them).
    @discardableResult
    func rows(reusing sql: String, binds: PostgresBindings, types: String, collection: String,
              key: DocumentKey? = nil) async throws -> [PostgresRow] {
        let text = ReusedStatement.text(for: sql, types: types)
        let statement = ReusedStatement(bindings: binds)
        do {
            // postgres-nio reads the statement's name and SQL during `execute`.
            let sequence = try await ReusedStatement.$current.withValue(text) {
                switch self {
                case .pool(let client): return try await client.execute(statement, logger: Self.logger)
                case .transaction(let connection):
                    try Self.checkOpen(connection)
                    return try await connection.execute(statement, logger: Self.logger)
                }
            }
            var rows: [PostgresRow] = []
            for try await row in sequence { rows.append(row) }
            return rows
        } catch {
            ReusedStatement.failed(text, error)
            let mapped = PostgresStoreError.from(error, collection: collection, key: key)
            if case .pool = self, let closed = mapped as? PostgresStoreError { throw PostgresStoreError.outcomeUnknown(closed, committing: false) }
            throw mapped
        }
    }

    /// Runs a compiled statement and collects its rows.
    @discardableResult
    func rows(_ statement: CompiledStatement, collection: String) async throws -> [PostgresRow] {
        try await rows(statement.sql, statement.bindings, collection: collection)
    }

    /// DocStore's bindings as postgres-nio's. Integers bind as `bigint`,
    /// reals as `double precision`, text as `text`, bytes as `bytea`.
    static func binds(_ bindings: [SQLBinding]) throws -> PostgresBindings {
        var binds = PostgresBindings(capacity: bindings.count)
        for binding in bindings {
            switch binding {
            case .null: binds.appendNull()
            case .integer(let i): binds.append(i)
            case .double(let d): binds.append(d)
            case .text(let s): binds.append(s)
            case .blob(let bytes): binds.append(ByteBuffer(bytes: bytes))
            }
        }
        return binds
    }
}

extension SQLBinding {
    /// One letter per kind of binding: what a reused statement is prepared for.
    var typeCode: String {
        switch self {
        case .null: "n"
        case .integer: "i"
        case .double: "d"
        case .text: "t"
        case .blob: "b"
        }
    }
}

extension DocumentKey {
    /// The key as the `key` column binds it (UUIDs as their uppercase text, as on SQLite).
    var binding: SQLBinding {
        switch self {
        case .integer(let i): .integer(i)
        case .string(let s): .text(s)
        case .uuid(let u): .text(u.uuidString)
        }
    }
}
