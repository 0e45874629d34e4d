import Foundation

/// Every error DocStore throws.
///
/// Each case names what was wrong and where: the collection, the key and, for
/// coding problems, the coding path inside the document. `description` is written
/// for a terminal:
///
///     duplicate key 1 in collection "teams": use save(_:) to replace a document
public enum DocStoreError: Error, Sendable {
    /// `insert` found a document with the same key already stored.
    case duplicateKey(collection: String, key: DocumentKey)
    /// An operation that needs an existing document (such as `update`) found none.
    case documentNotFound(collection: String, key: DocumentKey)
    /// The key's kind differs from the collection's (an integer key for a
    /// collection of string keys, say).
    case keyKindMismatch(collection: String, expected: KeyKind, found: KeyKind)
    /// An `update` closure changed the document's key; keys never change.
    case keyChanged(collection: String, from: DocumentKey, to: DocumentKey)
    /// A document has no usable key: its `id` is missing or of the wrong type, in a
    /// collection whose keys can't be generated.
    case missingKey(collection: String, reason: String)
    /// A model could not be encoded (a NaN, a date out of range…).
    case encodingFailed(collection: String, key: DocumentKey?, codingPath: String, reason: String)
    /// A stored document does not decode into the requested model (a renamed
    /// field, a changed type…).
    case decodingFailed(collection: String, key: DocumentKey?, codingPath: String, reason: String)
    /// A stored document is not valid JSON: it was damaged outside DocStore.
    case corruptDocument(collection: String, key: DocumentKey, reason: String)
    /// A collection name that can't be used (empty, or containing NUL).
    case invalidCollectionName(String, reason: String)
    /// Two different model types would share a default collection name in one
    /// store (`V1.Person` and `V2.Person` are both `"persons"`). `type` asked for
    /// its collection after `otherType` did; both are fully qualified. Thrown by
    /// every operation of `type`'s collection: name one of them with
    /// `collection(_:named:)`.
    case collectionNameCollision(name: String, type: String, otherType: String)
    /// A model type has no default collection name: a generic type such as
    /// `Box<Int>`. Thrown by every operation of its collection: name it with
    /// `collection(_:named:)`.
    case noDefaultCollectionName(type: String, reason: String)
    /// JSON text given to the store (a document, an import line) is invalid.
    case invalidJSON(line: Int, column: Int, reason: String)
    /// The file exists but is not a DocStore store (not SQLite, or SQLite with
    /// other tables). Nothing in it was changed.
    case notAStore(path: String, reason: String)
    /// The store file can't be opened or created there (a missing folder, no
    /// permission…).
    case cannotOpen(path: String, reason: String)
    /// The store was written by a newer DocStore whose format this one can't read.
    /// Nothing in it was changed.
    case unsupportedFormatVersion(path: String, found: Int, supported: Int)
    /// A write was attempted on a store opened read-only.
    case readOnly(path: String)
    /// A unique index already holds a document with the same field values;
    /// `key` is the document being written (which was not).
    case uniqueConstraint(collection: String, fields: [String], key: DocumentKey?)
    /// Creating a unique index failed: documents already share the same values.
    /// Nothing was changed.
    case duplicateIndexValues(collection: String, fields: [String], keys: [DocumentKey])
    /// A query, update or index that can't work as asked: a field path SQLite can't
    /// index, a value of the wrong kind, a subquery without a collection…
    case invalidQuery(collection: String, field: String?, reason: String)
    /// An update-by-query could not apply to one document (an increment of a field
    /// that is not a number). Nothing was changed.
    case invalidUpdate(collection: String, field: String, key: DocumentKey, reason: String)
    /// Queries on a collection failed because some of its documents are not valid
    /// JSON (written by another tool). `keys` lists them (the first few hundred);
    /// `DocumentStore.repair(collection:)` (the REPL's `.repair`) moves them into a
    /// quarantine collection so the rest can be queried again.
    case damagedDocuments(collection: String, keys: [DocumentKey])
    /// A JSON value nests arrays and objects deeper than DocStore's limit
    /// (``DocumentStore/maximumNestingDepth``), which every entry point enforces
    /// so that a stored document can always be read back and queried.
    case nestingTooDeep(collection: String?, key: DocumentKey?, limit: Int)
    /// A row of DocStore's own catalog tables (`docstore_*`) holds a value DocStore
    /// never writes: the file was changed outside DocStore.
    case damagedCatalog(path: String, table: String, row: String, value: String, reason: String)
    /// The disk (or the file-size limit) is full: the operation was rolled back
    /// whole and nothing it wrote was kept.
    case diskFull(collection: String?, reason: String)
    /// Another connection or process holds the lock the operation needs, and it
    /// was not released within the busy timeout.
    case locked(path: String, reason: String)
    /// The store file, or the folder it lives in, can't be written: it was opened
    /// read-only by the file system's permissions. Open it with `readOnly: true`.
    case fileNotWritable(path: String, reason: String)
    /// Reading or writing the file failed at the operating-system level (an I/O
    /// error from the disk or the file system). The file was not changed by
    /// DocStore.
    case ioError(path: String, reason: String)
    /// The file is a SQLite database, but damaged: `findings` holds `PRAGMA
    /// integrity_check`'s first findings (when opening) or SQLite's message. The
    /// file was not changed.
    case corruptStore(path: String, findings: [String])
    /// The store's write-ahead log (the `-wal` file beside it) is damaged at
    /// `offset`, in the frame numbered `frame` (nil: in its header), and
    /// `droppedCommits` intact commits follow: SQLite would drop them without a
    /// word and overwrite them at the next write. Nothing was changed; open
    /// with ``DamagedLogHandling/setAsideAndOpen`` to keep a copy of the log and
    /// open the store as of its last good commit.
    case damagedLog(path: String, offset: Int, frame: Int?, droppedCommits: Int)
    /// A number grew past what a JSON integer can hold in DocStore (Int64), in an
    /// `increment` or a generated key. Nothing was changed.
    case numericOverflow(collection: String, field: String?, key: DocumentKey?, reason: String)
    /// The store was closed with ``DocumentStore/close()``; open it again to use it.
    case storeClosed(path: String)
    /// The store has run migrations that the ``DocumentMigrator`` given does not
    /// register: a newer version of the app migrated it. Nothing was changed.
    case unknownMigrations(path: String, names: [String])
    /// A ``DocumentMigrator`` that can't run as registered: two steps with one
    /// name, an empty name, or a target step that isn't registered.
    case invalidMigration(name: String, reason: String)
    /// The collection's table is gone: another program dropped it while the
    /// catalog still records the collection (``DocumentStore/check()`` names
    /// it; dropping the collection forgets it), or another session dropped the
    /// collection during a transaction of this one. Nothing was changed.
    case missingTable(collection: String)
    /// Another program deleted, renamed or replaced the store's file after the
    /// store opened it: a write would go into a file no longer at `path` (or
    /// on none) and be lost, so nothing was written; a read that would open a
    /// new connection is refused too (it would read the file at `path` now).
    /// Close the store and open `path` again. See ``DocumentStore/fileWasMoved()``.
    case storeFileMoved(path: String)
    /// Any other failure reported by SQLite, with its message.
    case database(message: String, collection: String?)
}

extension DocStoreError: LocalizedError {
    /// The same text as ``description``, so that apps showing
    /// `error.localizedDescription` say what went wrong.
    public var errorDescription: String? { description }
}

extension DocStoreError: CustomStringConvertible {
    public var description: String {
        switch self {
        case let .duplicateKey(collection, key):
            return "duplicate key \(key) in collection \(Self.name(collection)): use save(_:) to replace a document"
        case let .documentNotFound(collection, key):
            return "no document with key \(key) in collection \(Self.name(collection))"
        case let .keyKindMismatch(collection, expected, found):
            return "collection \(Self.name(collection)) has \(expected) keys, but a key of kind \(found) was given"
        case let .keyChanged(collection, from, to):
            return "update of document \(from) in collection \(Self.name(collection)) changed its key to \(to); keys never change (insert a new document and delete the old one)"
        case let .missingKey(collection, reason):
            return "document for collection \(Self.name(collection)) has no usable key: \(reason)"
        case let .encodingFailed(collection, key, path, reason):
            return "cannot encode document\(Self.keyPart(key)) for collection \(Self.name(collection))\(Self.pathPart(path)): \(reason)"
        case let .decodingFailed(collection, key, path, reason):
            return "cannot decode document\(Self.keyPart(key)) in collection \(Self.name(collection))\(Self.pathPart(path)): \(reason)"
        case let .corruptDocument(collection, key, reason):
            // A reason about the document itself ("its body is an array") is
            // said as it is; the others are JSON errors.
            let what = reason.hasPrefix("its ") ? reason : "not valid JSON: " + reason
            return "document \(key) in collection \(Self.name(collection)) is damaged (\(what)); other documents are unaffected; .repair \(DocumentKey.commandArgument(collection)) in the REPL (or store.repair(collection:)) moves damaged documents into a quarantine collection"
        case let .invalidCollectionName(name, reason):
            return "invalid collection name \(Self.name(name)): \(reason)"
        case let .collectionNameCollision(name, type, otherType):
            return "\(type) and \(otherType) would share the default collection name \(Self.name(name)), mixing their documents: give one of them its own name with collection(\(type).self, named: …)"
        case let .noDefaultCollectionName(type, reason):
            return "\(type) has no default collection name: \(reason); give it one with collection(\(type).self, named: …)"
        case let .invalidJSON(line, column, reason):
            return "invalid JSON at line \(line), column \(column): \(reason)"
        case let .notAStore(path, reason):
            return "\(path) is not a DocStore store: \(reason); the file was not changed"
        case let .cannotOpen(path, reason):
            return "cannot open the store \(path): \(reason)"
        case let .unsupportedFormatVersion(path, found, supported):
            return "\(path) uses store format \(found), but this DocStore reads format \(supported) at most; upgrade DocStore (the file was not changed)"
        case let .readOnly(path):
            return "the store \(path) is open read-only"
        case let .uniqueConstraint(collection, fields, key):
            let list = fields.joined(separator: ", ")
            // The key is the document being written, not the one holding the
            // values: said so, since "(key 2956)" read as the holder's.
            return "unique index on \(list) in collection \(Self.name(collection)) already holds a document with the same value\(fields.count > 1 ? "s" : "")\(key.map { "; the document with key \($0) was not written" } ?? "")"
        case let .duplicateIndexValues(collection, fields, keys):
            let shown = keys.prefix(5).map { "\($0)" }.joined(separator: ", ") + (keys.count > 5 ? ", …" : "")
            return "cannot create unique index on \(fields.joined(separator: ", ")) in collection \(Self.name(collection)): documents \(shown) share the same value\(fields.count > 1 ? "s" : ""); nothing was changed"
        case let .invalidQuery(collection, field, reason):
            return "invalid query on collection \(Self.name(collection))\(field.map { " (field \($0))" } ?? ""): \(reason)"
        case let .invalidUpdate(collection, field, key, reason):
            return "cannot update field \(field) of document \(key) in collection \(Self.name(collection)): \(reason); nothing was changed"
        case let .damagedDocuments(collection, keys):
            let shown = keys.prefix(10).map { "\($0)" }.joined(separator: ", ") + (keys.count > 10 ? ", … (\(keys.count) in all)" : "")
            let (noun, verb, them) = keys.count == 1 ? ("document", "stops", "it") : ("documents", "stop", "them")
            return "collection \(Self.name(collection)) holds damaged \(noun) (not valid JSON, or not a JSON object) that \(verb) this query: \(noun) \(shown); run .repair \(DocumentKey.commandArgument(collection)) in the REPL (or store.repair(collection:)) to move \(them) into a quarantine collection and query the rest"
        case let .nestingTooDeep(collection, key, limit):
            let place = collection.map { " for collection \(Self.name($0))" } ?? ""
            return "document\(Self.keyPart(key))\(place) nests arrays and objects deeper than \(limit) levels, DocStore's limit; flatten it"
        case let .damagedCatalog(path, table, row, value, reason):
            return "the store \(path) has a damaged catalog row: table \(table), row \(row), value \(value): \(reason); the file was changed outside DocStore"
        case let .diskFull(collection, reason):
            return "\(collection.map { "in collection \(Self.name($0)): " } ?? "")the disk is full (\(reason)); the operation was rolled back whole: free some space and try again"
        case let .locked(path, reason):
            return "the store \(path) is locked by another connection or process: \(reason); try again when it is done (or raise the busy timeout)"
        case let .fileNotWritable(path, reason):
            return "the store \(path) can't be written: \(reason); open it read-only (readOnly: true, or docstore --read-only)"
        case let .ioError(path, reason):
            return "I/O error on the store \(path): \(reason); check the disk and the file system"
        case let .corruptStore(path, findings):
            let shown = findings.prefix(5).joined(separator: "; ")
            return "\(path) is a damaged SQLite database: \(shown); DocStore changed nothing in it: restore it from a backup, or copy what can still be read into a new store (docstore copy --salvage \(path) NEW; sqlite3's .recover for a file DocStore can't open)"
        case let .damagedLog(path, offset, frame, droppedCommits):
            let place = frame.map { "frame \($0), at byte \(offset)" } ?? "its header"
            let commits = droppedCommits == 1 ? "1 intact commit" : "\(droppedCommits) intact commits"
            return "the write-ahead log \(path)-wal is damaged (\(place)), and \(commits) after the damage would be dropped without a word, then overwritten by the next write; DocStore opened nothing and changed nothing: copy \(path) and \(path)-wal somewhere safe, then restore from a backup, or open the store as of its last good commit with docstore --set-aside-damaged-log (DamagedLogHandling.setAsideAndOpen in Swift), which keeps the whole log as \(path)-wal.damaged first"
        case let .numericOverflow(collection, field, key, reason):
            return "number overflow\(field.map { " in field \($0)" } ?? "")\(key.map { " of document \($0)" } ?? "") in collection \(Self.name(collection)): \(reason); nothing was changed"
        case let .storeClosed(path):
            return "the store \(path) was closed (close()); open it again to use it"
        case let .unknownMigrations(path, names):
            let list = names.map { Self.name($0) }.joined(separator: ", ")
            return "the store \(path) has run migration\(names.count == 1 ? "" : "s") \(list) that this code does not register: a newer version of the app migrated it; open it with that version, or register the migration\(names.count == 1 ? "" : "s") again (nothing was changed)"
        case let .invalidMigration(name, reason):
            return "migration \(Self.name(name)): \(reason)"
        case let .missingTable(collection):
            return "collection \(Self.name(collection)) has no table (another session dropped the collection, or another program its table): nothing was changed; if .collections still lists it, its table was lost: restore it from a backup, or forget the collection with .drop \(DocumentKey.commandArgument(collection)) (dropCollection in Swift)"
        case let .storeFileMoved(path):
            return "the store file \(path) was deleted, renamed or replaced by another program after this store opened it: a write now would go into a file no longer at that path and be lost, and a new reading connection would read another file, so nothing was written or read; open \(path) again (quit and restart docstore; in Swift, a new DocumentStore) to work on what is there now"
        case let .database(message, collection):
            return collection.map { "in collection \(Self.name($0)): \(message)" } ?? message
        }
    }

    private static func name(_ s: String) -> String { DocumentKey.quoted(s) }
    private static func keyPart(_ key: DocumentKey?) -> String { key.map { " \($0)" } ?? "" }
    private static func pathPart(_ path: String) -> String { path.isEmpty ? "" : " at \(path)" }
}
