import Foundation
import GRDB
import GRDBSQLite

extension DocumentStore {
    /// Checks the whole store: SQLite's integrity check of the file, the catalog
    /// against the tables and indexes, and every document of every collection.
    /// Reads everything in one snapshot and changes nothing.
    ///
    ///     let report = try store.check()
    ///     if !report.isHealthy { print(report) }   // what is wrong, and what .repair would do
    ///
    /// - Returns: The findings; ``StoreCheck/isHealthy`` when there are none.
    /// - Throws: ``DocStoreError`` when the store can't be read at all.
    public func check() throws -> StoreCheck {
        try checkStore()
    }

    /// The tables of documents (a `key` and a `body`) the catalog does not
    /// record, by name: their documents are hidden from every listing and copy
    /// (``check()`` names them as catalog problems, with what to do).
    public func unrecordedTables() throws -> [String] {
        try readAccess { db in try Catalog.unrecordedTables(in: db) }
    }

    /// The collections whose table another program replaced with one of its
    /// own (not a key and a body): its rows are not documents, so listings
    /// don't count them (``check(collection:)`` says what to do).
    public func foreignTables() throws -> [String] {
        try readAccess { db in
            try Catalog.readableCollections(in: db).map(\.name).filter { name in
                try Catalog.isReplacedByForeignObject(name, in: db)
            }
        }
    }

    private func checkStore() throws -> StoreCheck {
        var report = try read { _ in
            try access(collection: nil) {
                try readAccess { db in
                    let catalogProblems = try Catalog.validationProblems(in: db)
                    let missing = Set(catalogProblems.filter { $0.table == Catalog.collectionsTable }.map(\.name))
                    let collections = try Catalog.readableCollections(in: db).filter { !missing.contains($0.name) }
                    let integrity = try Catalog.integrityCheck(in: db)
                    // Only a damaged file is checked table by table, to say which
                    // collections its findings (page numbers) belong to.
                    let fileDamaged = integrity != ["ok"]
                    var report = StoreCheck(integrityCheck: integrity, catalogProblems: catalogProblems,
                                            collections: try collections.map { try checkDocuments(of: $0, in: db, checkPages: fileDamaged) })
                    do {
                        report.damagedValues = try damagedValues(in: db)
                    } catch let error where Self.isPageDamage(error) {
                        report.valuesReadFailure = Self.pageDamageMessage(error)
                    }
                    return report
                }
            }
        }
        for index in report.collections.indices where report.collections[index].searchIndexProblem == nil {
            report.collections[index].searchIndexProblem = try searchIndexProblem(of: report.collections[index])
        }
        return report
    }

    /// Checks every document of one collection: valid JSON as DocStore's own
    /// parser reads it, nesting within ``maximumNestingDepth``, a key of the
    /// collection's kind, and no repeated member names; and the pages of its
    /// table and indexes (SQLite's integrity check of that table). Changes nothing.
    ///
    /// - Parameter name: The collection; one that doesn't exist has no documents.
    /// - Returns: The damaged documents, which ``repair(collection:)`` would move
    ///   into ``CollectionCheck/quarantineCollection``, and those with duplicate
    ///   member names.
    /// - Throws: ``DocStoreError`` when the collection can't be read.
    public func check(collection name: String) throws -> CollectionCheck {
        var report = try read { _ in
            try access(collection: name) {
                try readAccess { db in
                    // Before knownCollection, which refuses such a table.
                    if try Catalog.collection(named: name, in: db) != nil, try Catalog.isReplacedByForeignObject(name, in: db) {
                        var report = CollectionCheck(collection: name, documentCount: 0, damaged: [], duplicateMembers: [],
                                                     quarantineCollection: Self.quarantineName(for: name))
                        report.tableProblem = BackendSupport.foreignTableProblem(name, tool: "sqlite3")
                        return report
                    }
                    guard let info = try knownCollection(named: name, in: db) else {
                        return CollectionCheck(collection: name, documentCount: 0, damaged: [], duplicateMembers: [],
                                               quarantineCollection: Self.quarantineName(for: name))
                    }
                    var checked = try checkDocuments(of: info, in: db, checkPages: true)
                    let orphans = try Catalog.orphanObjects(in: db, collection: name)
                    if !orphans.isEmpty { checked.orphanProblem = orphans.map(\.problem).joined(separator: "; ") }
                    checked.indexProblems = try Catalog.indexProblems(in: db, collection: name).map {
                        "index \(DocumentKey.quoted($0.name)): \($0.problem)"
                    }
                    if !checked.damaged.isEmpty, let existing = try knownCollection(named: checked.quarantineCollection, in: db), existing.keyKind != .integer {
                        checked.quarantineProblem = "that collection exists with \(existing.keyKind) keys"
                    }
                    return checked
                }
            }
        }
        report.searchIndexProblem = try searchIndexProblem(of: report)
        return report
    }

    /// What is wrong with a checked collection's search indexes, checked on the
    /// writer (FTS5's comparison with the documents is an `INSERT` that changes
    /// nothing); on a store opened read-only, without that comparison. Nil when
    /// its pages are damaged (which `check` reports, and which the search index
    /// check would only report again).
    private func searchIndexProblem(of checked: CollectionCheck) throws -> String? {
        guard !checked.hasDamagedPages else { return nil }
        return try access(collection: checked.collection) {
            if isReadOnly {
                return try readAccess { db in try SearchIndexCheck.problem(of: checked.collection, comparingContent: false, in: db) }
            }
            return try writeAccess { db in
                try withinTransaction(db) { try SearchIndexCheck.problem(of: checked.collection, in: db) }
            }
        }
    }

    /// The collection that ``repair(collection:)`` moves `collection`'s damaged
    /// documents into.
    static func quarantineName(for collection: String) -> String { quarantineName(for: collection, maximumBytes: .max) }

    /// `NAME_damaged`; where names hold at most `maximumBytes` of UTF-8
    /// (PostgreSQL's 63), a longer one is the name's first bytes, a hash of the
    /// whole name (two long names never share one) and `_damaged`: a 57-byte
    /// name's repair was refused, its quarantine name too long to be a table's.
    @_spi(Backends) public static func quarantineName(for collection: String, maximumBytes: Int) -> String {
        let plain = collection + "_damaged"
        guard plain.utf8.count > maximumBytes else { return plain }
        var hash: UInt32 = 2_166_136_261  // FNV-1a: stable across runs and platforms, unlike Hasher
        for byte in collection.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        let suffix = "_" + String(hash, radix: 16).leftPadded(to: 8) + "_damaged"
        var prefix = ""
        for character in collection {
            guard prefix.utf8.count + character.utf8.count + suffix.utf8.count <= maximumBytes else { break }
            prefix.append(character)
        }
        return prefix + suffix
    }

    /// Checks one collection's documents and, with `checkPages`, its table's
    /// and indexes' pages (SQLite's integrity check of that table). A damaged page stops the reading, not the
    /// check: the report says how far it got, and the other collections are
    /// still checked.
    private func checkDocuments(of info: CollectionInfo, in db: Database, checkPages: Bool) throws -> CollectionCheck {
        var report = CollectionCheck(collection: info.name, documentCount: 0, damaged: [], duplicateMembers: [],
                                     quarantineCollection: Self.quarantineName(for: info.name))
        if checkPages {
            report.pageDamage = try Catalog.integrityCheck(in: db, table: info.name)
        }
        do {
            try inspectRows(of: info, in: db) { row in
                report.documentCount += 1
                if let problem = row.problem {
                    report.damaged.append(DamagedDocument(key: row.key, reason: problem))
                } else {
                    if row.hasDuplicateMembers { report.duplicateMembers.append(row.key) }
                    if row.hasEscapedNames { report.escapedNames.append(row.key) }
                }
            }
        } catch let error where Self.isPageDamage(error) {
            report.readFailure = Self.pageDamageMessage(error)
        }
        if report.readFailure == nil && report.pageDamage.isEmpty {
            report.fieldColumnsProblem = try FieldColumnsCheck.problem(of: info, in: db)
        }
        return report
    }

    /// Whether `error` is SQLite finding a damaged page (`SQLITE_CORRUPT`, or
    /// `SQLITE_NOTADB` for a page that isn't one).
    static func isPageDamage(_ error: any Error) -> Bool {
        let code: Int32
        switch error {
        case let failure as SQLiteFailure: code = failure.code & 0xFF
        case let failure as DatabaseError: code = failure.resultCode.primaryResultCode.rawValue
        default: return false
        }
        return code == SQLITE_CORRUPT || code == SQLITE_NOTADB
    }

    static func pageDamageMessage(_ error: any Error) -> String {
        switch error {
        case let failure as SQLiteFailure: failure.message
        case let failure as DatabaseError: failure.message ?? "\(failure)"
        default: "\(error)"
        }
    }

    /// The entries of the key/value area whose JSON can't be read.
    private func damagedValues(in db: Database) throws -> [DamagedDocument] {
        let statement = try RawStatement(db, sql: IntegritySQL.valueRows, cached: false)
        defer { statement.finish() }
        var damaged: [DamagedDocument] = []
        while try statement.step() {
            do {
                _ = try DocumentCodec.validate(statement.bytes(at: 1))
            } catch {
                damaged.append(DamagedDocument(key: .string(statement.string(at: 0)), reason: "not valid JSON: \(error.description)"))
            }
        }
        return damaged
    }

    /// Reads every row of a collection's table in key order and validates it.
    /// `body` gets the row's bytes, valid only during the call.
    func inspectRows(of info: CollectionInfo, in db: Database, _ body: (InspectedRow) throws -> Void) throws {
        let statement = try RawStatement(db, sql: IntegritySQL.rowsWithKeyType(collection: info.name), cached: false)
        defer { statement.finish() }
        while try statement.step() {
            var row = InspectedRow(storedKey: .null, key: .integer(0), body: statement.bytes(at: 1))
            switch statement.columnType(at: 0) {
            case SQLITE_INTEGER: row.storedKey = .integer(statement.int64(at: 0))
            case SQLITE_TEXT: row.storedKey = .text(statement.string(at: 0))
            case SQLITE_FLOAT: row.storedKey = .double(statement.double(at: 0))
            case SQLITE_BLOB: row.storedKey = .blob(Array(statement.bytes(at: 0)))
            default: row.storedKey = .null
            }
            row.key = row.documentKey(kind: info.keyKind)
            row.problem = Self.keyProblem(row.storedKey, kind: info.keyKind)
            do {
                (row.hasDuplicateMembers, row.hasEscapedNames) = try DocumentCodec.inspect(row.body)
                // Valid JSON, but a document is an object: a bare 42 or [1, 2]
                // decodes as no model, and updates pass it by.
                if let first = row.body.first(where: { !Self.jsonWhitespace.contains($0) }), first != UInt8(ascii: "{") {
                    row.problem = row.problem ?? "the document is a JSON \(Self.jsonKind(startingWith: first)), not an object"
                }
            } catch {
                row.problem = row.problem ?? "not valid JSON: \(error.description)"
            }
            if row.problem == nil, let type = statement.isNull(at: 3) ? nil : statement.string(at: 3) {
                row.problem = Self.idProblem(type: type, statement: statement, valueAt: 4, key: row.key)
            }
            try body(row)
        }
    }

    private static let jsonWhitespace: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]

    /// What a valid JSON text starting with `byte` is, for a message.
    private static func jsonKind(startingWith byte: UInt8) -> String {
        switch byte {
        case UInt8(ascii: "["): "array"
        case UInt8(ascii: "\""): "string"
        case UInt8(ascii: "t"), UInt8(ascii: "f"): "boolean"
        case UInt8(ascii: "n"): "null"
        default: "number"
        }
    }

    /// Why a document's `"id"` (of JSON type `type`, its value in column `valueAt`)
    /// is not its key, or nil when it is. A read by key would give a document
    /// naming another, and saving it back would write over that one.
    private static func idProblem(type: String, statement: RawStatement, valueAt column: Int32, key: DocumentKey) -> String? {
        let matches: Bool
        switch (key, type) {
        case (.integer(let number), "integer"): matches = statement.int64(at: column) == number
        case (.integer(let number), "real"): matches = statement.double(at: column) == Double(number)
        case (.string(let text), "text"): matches = statement.string(at: column) == text
        case (.uuid(let uuid), "text"): matches = UUID(uuidString: statement.string(at: column)) == uuid
        default: matches = false
        }
        guard !matches else { return nil }
        let id = switch type {
        case "text": DocumentKey.quoted(statement.string(at: column))
        case "null", "true", "false": type
        case "array", "object": "an \(type)"
        default: statement.string(at: column)
        }
        return "its \"id\" is \(id), but it is stored under the key \(key): a read by key gives a document that names another, and saving it would write over that one"
    }

    /// Why a stored key is not one of the collection's kind, or nil.
    private static func keyProblem(_ stored: SQLBinding, kind: KeyKind) -> String? {
        switch (stored, kind) {
        case (.integer, .integer): return nil
        case (.text, .string): return nil
        case (.text(let text), .uuid):
            // Keys are stored as uppercase `uuidString`; any other text can't be found by key.
            return UUID(uuidString: text)?.uuidString == text ? nil : "the key is not a UUID in DocStore's form (uppercase)"
        default:
            return "the key is \(stored.storageClass), but the collection has \(kind) keys"
        }
    }
}

/// One row of a collection's table, as the check reads it.
struct InspectedRow {
    /// The key exactly as stored, bound as is to delete the row.
    var storedKey: SQLBinding
    /// The key for messages and the quarantine document.
    var key: DocumentKey
    /// The body's bytes, valid only while the row is visited.
    var body: UnsafeRawBufferPointer
    /// Why the document can't be read (its JSON or its key), or nil.
    var problem: String?
    var hasDuplicateMembers = false
    var hasEscapedNames = false

    init(storedKey: SQLBinding, key: DocumentKey, body: UnsafeRawBufferPointer) {
        self.storedKey = storedKey
        self.key = key
        self.body = body
    }

    /// The stored key as a ``DocumentKey`` of a collection with `kind` keys; a
    /// key of the wrong form is shown as it is stored.
    func documentKey(kind: KeyKind) -> DocumentKey {
        switch storedKey {
        case .integer(let i): .integer(i)
        case .text(let text):
            kind == .uuid ? UUID(uuidString: text).flatMap { $0.uuidString == text ? DocumentKey.uuid($0) : nil } ?? .string(text)
                          : .string(text)
        case .double(let d): .string(String(d))
        case .blob(let bytes): .string(String(decoding: bytes, as: UTF8.self))
        case .null: .string("NULL")
        }
    }
}

extension SQLBinding {
    /// SQLite's name for the value's storage class, for messages.
    var storageClass: String {
        switch self {
        case .null: "NULL"
        case .integer: "an integer"
        case .double: "a real"
        case .text: "text"
        case .blob: "a blob"
        }
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: Swift.max(0, width - count)) + self }
}
