@_spi(Backends) import DocStore
import Foundation
import PostgresNIO

/// What a PostgreSQL store's check found: the catalog against the tables, and
/// each collection's documents against what DocStore reads.
public struct PostgresStoreCheck: Sendable, Hashable, CustomStringConvertible {
    /// Catalog rows without a table or with a key kind the table wasn't made
    /// for, and tables of documents the catalog doesn't record.
    public var catalogProblems: [CatalogProblem]
    /// Each collection whose catalog row and table agree.
    public var collections: [CollectionCheck]

    /// Whether the catalog and every document are sound.
    public var isHealthy: Bool { catalogProblems.isEmpty && collections.allSatisfy(\.isHealthy) }

    public var description: String {
        var lines = [catalogProblems.isEmpty ? "catalog: consistent with the tables" : "catalog: \(catalogProblems.count) problem\(catalogProblems.count == 1 ? "" : "s")"]
        lines += catalogProblems.map { "  • \($0)" }
        lines += collections.map(\.description)
        let toRepair = collections.filter(\.needsRepair).map { ".repair \(DocumentKey.commandArgument($0.collection))" }
        lines.append(toRepair.isEmpty ? "nothing for .repair to do" : "to repair: " + toRepair.joined(separator: ", "))
        return lines.joined(separator: "\n")
    }
}

extension PostgresDocumentStore {
    /// The damaged documents a check lists for a collection, at most.
    static let damagedShown = 100

    /// Checks what another tool may have changed behind DocStore's back. The
    /// server validates jsonb and its own files (`pg_amcheck`), but not
    /// DocStore's rules: a catalog row whose table is gone or was made for
    /// another key kind (keys would be misread), a table of documents the
    /// catalog lost (hidden from every listing and copy), a body that is not a
    /// JSON object, or whose `"id"` is not its key (a read by key gives a
    /// document naming another, and saving it writes over that one).
    ///
    /// - Parameter only: One collection to check; nil for all of them, and for
    ///   tables the catalog doesn't record.
    public func check(collection only: String? = nil) async throws -> PostgresStoreCheck {
        let session = PostgresSession.pool(client)
        var result = PostgresStoreCheck(catalogProblems: [], collections: [])
        var recordedKinds: [String: String] = [:]
        for row in try await session.rows(PostgresStoreSQL.catalogWithTables, [], collection: only) {
            let (name, recorded, keyType) = try row.decode((String, String, String?).self)
            recordedKinds[name] = recorded
            if let only, name != only { continue }
            // A table another program made in the collection's place (no key, no jsonb body).
            let documentTable = try await session.rows(PostgresStoreSQL.isDocumentTable, [.text(name)], collection: only).first?.decode(Bool.self) ?? true
            if let problem = Self.catalogProblem(name: name, recorded: recorded, keyType: keyType, documentTable: documentTable) {
                if try await isRecorded(name, in: session) { result.catalogProblems.append(problem) }
                continue
            }
            guard let kind = KeyKind(rawValue: recorded) else { continue }
            do {
                result.collections.append(try await checkDocuments(of: name, kind: kind, in: session))
            } catch DocStoreError.missingTable(let missing) where missing == name {
                if try await isRecorded(name, in: session) { throw DocStoreError.missingTable(collection: name) }
            }
        }
        // Repair would refuse a quarantine collection of other keys: say so now.
        for index in result.collections.indices where !result.collections[index].damaged.isEmpty {
            if let kind = recordedKinds[result.collections[index].quarantineCollection], kind != KeyKind.integer.rawValue {
                result.collections[index].quarantineProblem = "that collection exists with \(kind) keys"
            }
        }
        result.catalogProblems += try await indexProblems(only: only, in: session)
        if only == nil {
            for row in try await session.rows(PostgresStoreSQL.unrecordedTables, [], collection: nil) {
                result.catalogProblems.append(CatalogProblem(
                    table: "pg_class", name: try row.decode(String.self),
                    problem: "a table of documents (key, body) that the catalog does not record: its documents are hidden from DocStore; restore its \(PostgresStoreSQL.catalogTable) row (name, key_kind) with psql"))
            }
        }
        return result
    }

    /// Whether the catalog still records the collection. One another session
    /// dropped after the check read the catalog is no longer a collection, so
    /// nothing is wrong with it: its table, gone or half gone to the check's
    /// later reads, was reported lost or not a collection's, pointing at
    /// `.drop` (helper-50).
    private func isRecorded(_ name: String, in session: PostgresSession) async throws -> Bool {
        try await !session.rows("SELECT 1 FROM \(PostgresStoreSQL.catalogTable) WHERE name = $1", [.text(name)], collection: name).isEmpty
    }

    /// Whether the index catalog still records the index `name`.
    private func isIndexRecorded(_ name: String, in session: PostgresSession) async throws -> Bool {
        try await !session.rows("SELECT 1 FROM \(PostgresStoreSQL.indexTable) WHERE name = $1", [.text(name)], collection: nil).isEmpty
    }

    /// The tables of documents (a `key` and a jsonb `body`) in the store's
    /// schema that the catalog does not record: their documents are hidden from
    /// every listing and copy.
    public func unrecordedTables() async throws -> [String] {
        try await PostgresSession.pool(client).rows(PostgresStoreSQL.unrecordedTables, [], collection: nil).map { try $0.decode(String.self) }
    }

    /// The collections whose table another program replaced with one of its
    /// own (not an ordinary table of a key and a jsonb body): its rows are not
    /// documents, so listings don't count them.
    public func foreignTables() async throws -> [String] {
        guard try await PostgresSession.pool(client).rows(PostgresStoreSQL.tableExists, [.text(PostgresStoreSQL.catalogTable)], collection: nil)
            .first?.decode(Bool.self) == true else { return [] }
        return try await PostgresSession.pool(client).rows(PostgresStoreSQL.foreignTables, [], collection: nil).map { try $0.decode(String.self) }
    }

    /// Moves a collection's damaged documents (see ``check(collection:)``) into
    /// `<name>_damaged`, their key and text unchanged, and deletes them, in one
    /// transaction, as a file store's `repair` does. Other writers of the
    /// collection wait while it runs (readers go on).
    ///
    /// - Throws: ``DocStore/DocStoreError/invalidQuery(collection:field:reason:)``
    ///   when the catalog is wrong about the collection (its documents only look
    ///   damaged then), or when the quarantine collection has other than integer keys.
    @discardableResult
    public func repair(collection name: String) async throws -> RepairResult {
        let checked = try await check(collection: name)
        // Only the collection's own row: wrong about its keys, its documents only look damaged.
        if let problem = checked.catalogProblems.first(where: { $0.table == PostgresStoreSQL.catalogTable }) {
            throw DocStoreError.invalidQuery(collection: name, field: nil, reason: "the catalog is inconsistent (\(problem.problem)); .repair moves documents only when the catalog is right")
        }
        try await reloadCatalog()
        guard let kind = catalog.withLock({ $0[ExactText(name)] }) else { return RepairResult(collection: name, movedKeys: [], maximumNameBytes: PostgresCollectionName.maximumBytes) }
        let quarantine = RepairResult(collection: name, movedKeys: [], maximumNameBytes: PostgresCollectionName.maximumBytes).quarantineCollection
        return try await ownTransaction { transaction in
            // Writers of the collection finish first and wait until the move is
            // done: a document saved whole between the read and the delete would
            // be deleted with the damaged text it replaced, and an update by
            // query holding rows the deletes meet deadlocked with them (helper-50).
            try await transaction.session.rows(PostgresStoreSQL.lockForRewrite(name), [], collection: name)
            let rows = try await transaction.session.rows(
                PostgresStoreSQL.damagedDocuments(name, keyKind: kind, withBodies: true, limit: nil), [], collection: name)
            guard !rows.isEmpty else { return RepairResult(collection: name, movedKeys: [], maximumNameBytes: PostgresCollectionName.maximumBytes) }
            if let existing = try await transaction.collection(named: quarantine).existingKeyKind(), existing != .integer {
                throw DocStoreError.invalidQuery(
                    collection: quarantine, field: nil,
                    reason: "the quarantine collection for \(DocumentKey.quotedForMessages(name)) exists with \(existing) keys; rename or drop it, then repair again (nothing was changed)")
            }
            let movedAt = Date().formatted(.iso8601)
            var entries: [JSONValue] = [], storedKeys: [String] = [], moved: [DocumentKey] = []
            for row in rows {
                let (stored, type, id, wrongKey, body) = try row.decode((String, String, String?, Bool, String).self)
                let key = Self.documentKey(stored, kind: kind)
                let storedKey: JSONValue = if case .integer(let number) = key { .integer(number) } else { .string(stored) }
                entries.append([
                    "collection": .string(name), "key": storedKey, "text": .string(body),
                    "reason": .string(Self.damage(type: type, id: id, wrongKey: wrongKey, key: key)), "movedAt": .string(movedAt),
                ] as JSONValue)
                storedKeys.append(stored)
                moved.append(key)
            }
            // In batches, one COPY each, and one delete: moved one by one, a
            // document took about 5 ms, and 25 000 kept writers waiting two
            // minutes (helper-54).
            try await transaction.collection(named: quarantine).insert(contentsOf: entries)
            // By the keys as stored: one not in DocStore's form reads as another.
            let keyList = String(decoding: try JSONEncoder().encode(storedKeys), as: UTF8.self)
            let deleted = try await transaction.session.rows(PostgresStoreSQL.deleteStoredKeys(name, keyKind: kind), [.text(keyList)], collection: name)
                .first?.decode(Int.self) ?? 0
            // The lock keeps other writers out, so each row read is there to
            // delete; if one were not, the rollback keeps the collection as it was.
            guard deleted == rows.count else {
                throw DocStoreError.database(message: "\(rows.count) damaged documents were read but \(deleted) deleted; nothing was changed", collection: name)
            }
            return RepairResult(collection: name, movedKeys: moved, maximumNameBytes: PostgresCollectionName.maximumBytes)
        }
    }

    /// Recorded indexes PostgreSQL lacks (a unique one without its unique
    /// index refuses no duplicate), and DocStore-named indexes the catalog
    /// doesn't record (they still slow writes, and a unique one refuses them).
    private func indexProblems(only: String?, in session: PostgresSession) async throws -> [CatalogProblem] {
        guard try await session.rows(PostgresStoreSQL.hasIndexCatalog, [], collection: nil).first?.decode(Bool.self) == true else { return [] }
        var problems: [CatalogProblem] = []
        let table = PostgresStoreSQL.indexTable
        for row in try await session.rows(PostgresStoreSQL.indexesWithBuilt, [], collection: nil) {
            let (name, collection, isUnique, built, uniqueBuilt) = try row.decode((String, String, Bool, Bool, Bool).self)
            if let only, collection != only { continue }
            let on = DocumentKey.quotedForMessages(collection)
            // An index another session dropped (with its collection) after
            // this statement's snapshot: to_regclass reads the catalog as it
            // is now, so the index looked missing while its row still showed.
            if !built || (isUnique && !uniqueBuilt), try await !isIndexRecorded(name, in: session) { continue }
            if !built {
                problems.append(CatalogProblem(table: table, name: name, problem: "recorded on collection \(on), but PostgreSQL has no such index on its table; drop the index and create it again"))
            } else if isUnique, !uniqueBuilt {
                problems.append(CatalogProblem(table: table, name: name, problem: "recorded on collection \(on) as unique, but its unique index \(name)_unique is missing, so duplicates are not refused; drop the index and create it again"))
            }
        }
        for row in try await session.rows(PostgresStoreSQL.unrecordedIndexes, [], collection: nil) {
            let (name, collection, isUnique) = try row.decode((String, String, Bool).self)
            if let only, collection != only { continue }
            problems.append(CatalogProblem(table: "pg_class", name: name, problem: "an index on \(DocumentKey.quotedForMessages(collection)) that the catalog does not record (an orphan); it still slows writes\(isUnique ? ", and refuses a value it already holds" : ""): drop it with psql (DROP INDEX)"))
        }
        guard try await session.rows(PostgresStoreSQL.hasSearchCatalog, [], collection: nil).first?.decode(Bool.self) == true else { return problems }
        for row in try await session.rows(PostgresStoreSQL.unrecordedSearchIndexes, [], collection: nil) {
            let (name, collection) = try row.decode((String, String).self)
            if let only, collection != only { continue }
            problems.append(CatalogProblem(table: "pg_class", name: name, problem: "a search index on \(DocumentKey.quotedForMessages(collection)) that the search catalog does not record (an orphan); it still slows every write: drop it with psql (DROP INDEX)"))
        }
        return problems
    }

    /// A catalog row that doesn't match its table, as a problem; nil when it does.
    private static func catalogProblem(name: String, recorded: String, keyType: String?, documentTable: Bool) -> CatalogProblem? {
        let table = PostgresStoreSQL.catalogTable
        if !documentTable {
            return CatalogProblem(table: table, name: name, problem: BackendSupport.foreignTableProblem(name, tool: "psql"))
        }
        guard let kind = KeyKind(rawValue: recorded) else {
            return CatalogProblem(table: table, name: name, problem: "unknown key kind \(DocumentKey.quotedForMessages(recorded)) (integer, string or uuid expected)")
        }
        guard let keyType else {
            return CatalogProblem(table: table, name: name, problem: "the collection's table is missing; drop the collection (.drop) to forget it")
        }
        guard keyType == PostgresStoreSQL.keyColumnType(kind) else {
            let made = keyType == "bigint" ? "integer" : keyType == "text" ? "string or uuid" : keyType
            return CatalogProblem(table: table, name: name, problem: "key_kind says \(kind.rawValue), but the table was made for \(made) keys (its key column is \(keyType)); the documents are intact: set key_kind back with psql, and don't .repair meanwhile")
        }
        return nil
    }

    private func checkDocuments(of name: String, kind: KeyKind, in session: PostgresSession) async throws -> CollectionCheck {
        let count = try await session.rows(PostgresStoreSQL.countAll(name), [], collection: name).first?.decode(Int.self) ?? 0
        let rows = try await session.rows(PostgresStoreSQL.damagedDocuments(name, keyKind: kind, withBodies: false, limit: Self.damagedShown),
                                          [], collection: name)
        let damaged = try rows.map { row in
            let (stored, type, id, wrongKey) = try row.decode((String, String, String?, Bool).self)
            let key = Self.documentKey(stored, kind: kind)
            return DamagedDocument.found(key: key, reason: Self.damage(type: type, id: id, wrongKey: wrongKey, key: key))
        }
        // Listed up to a limit, but counted in full: the report and the repair
        // plan said 100 of 25 000.
        let notListed = damaged.count < Self.damagedShown ? 0
            : try await session.rows(PostgresStoreSQL.countDamaged(name, keyKind: kind), [], collection: name).first?.decode(Int.self) ?? 0
        return CollectionCheck(collection: name, documentCount: count, damaged: damaged, damagedNotListed: max(0, notListed - damaged.count),
                               maximumNameBytes: PostgresCollectionName.maximumBytes)
    }

    /// A key read as text (`key::text`) as the collection's kind.
    private static func documentKey(_ text: String, kind: KeyKind) -> DocumentKey {
        switch kind {
        case .integer: Int64(text).map(DocumentKey.integer) ?? .string(text)
        case .uuid: UUID(uuidString: text).flatMap { $0.uuidString == text ? DocumentKey.uuid($0) : nil } ?? .string(text)
        case .string: .string(text)
        }
    }

    /// Why a document can't be read as DocStore's, in the file store's words.
    private static func damage(type: String, id: String?, wrongKey: Bool, key: DocumentKey) -> String {
        if wrongKey { return "the key is not a UUID in DocStore's form (uppercase): no read by key finds it" }
        guard type == "object" else { return "the document is a JSON \(type), not an object" }
        let shown = id.map { $0.hasPrefix("[") ? "an array" : $0.hasPrefix("{") ? "an object" : $0 } ?? "missing"
        return "its \"id\" is \(shown), but it is stored under the key \(key): a read by key gives a document that names another, and saving it would write over that one"
    }
}
