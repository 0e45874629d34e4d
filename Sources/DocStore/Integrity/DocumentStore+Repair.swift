import Foundation
import GRDB
import OrderedCollections

extension DocumentStore {
    /// Moves every damaged document of a collection (see ``check(collection:)``)
    /// into its quarantine collection, `<collection>_damaged`, so that queries on
    /// the rest work again and nothing is lost. All in one transaction: on any
    /// failure nothing moves.
    ///
    /// Each moved document becomes one quarantine document with a generated
    /// integer key, so repairing again never overwrites what an earlier repair
    /// moved:
    ///
    ///     {"id": 1, "collection": "teams", "key": 2, "text": "{\"id\": 2, \"city\": \"Balti",
    ///      "reason": "not valid JSON: …", "movedAt": "2026-11-23T11:30:00Z"}
    ///
    /// `text` is the stored body unchanged (`base64` instead when its bytes are not
    /// UTF-8) and `key` the original key, as stored.
    ///
    /// Field columns that don't hold what the documents say (see `check`) are
    /// made again from the documents, in the same transaction; a search index's
    /// or field columns' objects on the collection that the catalog no longer
    /// records (their triggers still ran on every write) are dropped.
    ///
    /// - Parameter name: The collection to repair.
    /// - Returns: The keys moved (none when nothing was damaged).
    /// - Throws: ``DocStoreError/invalidQuery(collection:field:reason:)`` when the
    ///   quarantine collection exists with other than integer keys;
    ///   ``DocStoreError/readOnly(path:)`` on a read-only store.
    @discardableResult
    public func repair(collection name: String) throws -> RepairResult {
        let quarantine = Self.quarantineName(for: name)
        return try access(collection: name) {
            try writeAccess { db in
                try withinTransaction(db) {
                    var result = RepairResult(collection: name, quarantineCollection: quarantine, movedKeys: [])
                    guard let info = try knownCollection(named: name, in: db) else { return result }
                    // With the catalog wrong about the collection (its key kind), its
                    // documents only look damaged: moving them would be the damage.
                    if let problem = try Catalog.validationProblems(in: db).first(where: { $0.table == Catalog.collectionsTable && $0.name == name }) {
                        throw DocStoreError.invalidQuery(collection: name, field: nil, reason: "the catalog is inconsistent (\(problem.problem)); .repair moves documents only when the catalog is right")
                    }
                    // A search index's or field columns' objects another tool left
                    // without their catalog row: their triggers still run on writes.
                    for orphan in try Catalog.orphanObjects(in: db, collection: name) {
                        try Catalog.dropOrphanObjects(orphan, in: db)
                        result.droppedOrphans.append(orphan.name)
                    }
                    var moved: [(storedKey: SQLBinding, document: JSONValue)] = []
                    let movedAt = Date().formatted(.iso8601)
                    try inspectRows(of: info, in: db) { row in
                        guard let problem = row.problem else { return }
                        moved.append((row.storedKey, Self.quarantineDocument(row, collection: name, reason: problem, movedAt: movedAt)))
                        result.movedKeys.append(row.key)
                    }
                    if moved.isEmpty {
                        result.rebuiltFieldColumns = try FieldColumnsCheck.rebuild(collection(named: name), info, in: db)
                        result.rebuiltSearchIndexes = try SearchIndexCheck.rebuild(name, keyKind: info.keyKind, in: db)
                        return result
                    }
                    if let existing = try knownCollection(named: quarantine, in: db), existing.keyKind != .integer {
                        throw DocStoreError.invalidQuery(
                            collection: quarantine, field: nil,
                            reason: "the quarantine collection for \(DocumentKey.quoted(name)) exists with \(existing.keyKind) keys; rename or drop it, then repair again (nothing was changed)")
                    }
                    let target = collection(named: quarantine)
                    let delete = try RawStatement(db, sql: IntegritySQL.deleteRow(collection: name), cached: false)
                    defer { delete.finish() }
                    let isObserved = changeTracker.isObserved(name)
                    for ((storedKey, document), key) in zip(moved, result.movedKeys) {
                        try target.insert(document)
                        delete.bind(storedKey, at: 1)
                        try delete.step()
                        delete.finish()
                        // A damaged body can't be read back: observers learn only its key.
                        if isObserved { changeTracker.record(.deleted(key, .unknown, in: name), in: db) }
                    }
                    result.rebuiltFieldColumns = try FieldColumnsCheck.rebuild(collection(named: name), info, in: db)
                    result.rebuiltSearchIndexes = try SearchIndexCheck.rebuild(name, keyKind: info.keyKind, in: db)
                    return result
                }
            }
        }
    }

    /// The quarantine document for a damaged row: its key and text exactly as
    /// stored, and why it was moved. No `id`: the quarantine collection generates one.
    private static func quarantineDocument(_ row: InspectedRow, collection: String, reason: String, movedAt: String) -> JSONValue {
        var members: OrderedDictionary<String, JSONValue> = ["collection": .string(collection)]
        members["key"] = switch row.storedKey {
        case .integer(let i): .integer(i)
        case .double(let d): .double(d)
        case .text(let text): .string(text)
        case .blob(let bytes): .string(Data(bytes).base64EncodedString())
        case .null: .null
        }
        if let text = String(validating: row.body, as: UTF8.self) {
            members["text"] = .string(text)
        } else {
            members["base64"] = .string(Data(row.body).base64EncodedString())
        }
        members["reason"] = .string(reason)
        members["movedAt"] = .string(movedAt)
        return .object(members)
    }
}
