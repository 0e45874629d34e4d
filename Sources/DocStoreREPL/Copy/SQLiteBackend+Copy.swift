@_spi(Backends) import DocStore
import Foundation

extension SQLiteBackend: CopyEndpoint {
    func forEachPage(_ collection: String, size: Int, _ body: ([KeyedDocument]) throws -> Void) throws {
        try Self.forEachPage(of: store.collection(named: collection), size: size, body)
    }

    /// Streams the collection in key order (one statement), a page at a time.
    static func forEachPage(of collection: DocumentCollection<JSONValue>, size: Int,
                            _ body: ([KeyedDocument]) throws -> Void) throws {
        var page: [KeyedDocument] = []
        page.reserveCapacity(size)
        try collection.forEachStoredDocument(DocumentQuery()) { key, text in
            let document = try DocumentCollection<JSONValue>.parseStoredDocument(text, collection: collection.name, key: key)
            page.append((key: key, document: document))
            if page.count == size {
                try body(page)
                page.removeAll(keepingCapacity: true)
            }
        }
        if !page.isEmpty { try body(page) }
    }

    /// Streams what a damaged file still holds of the collection, in key order,
    /// stepping over damaged pages (``DocumentStore/salvageDocuments(of:_:)``).
    func forEachSalvagedPage(_ collection: String, size: Int,
                             _ body: ([KeyedDocument]) throws -> Void) throws -> SalvageResult {
        var page: [KeyedDocument] = []
        page.reserveCapacity(size)
        let result = try store.salvageDocuments(of: collection) { key, text in
            let document = try DocumentCollection<JSONValue>.parseStoredDocument(text, collection: collection, key: key)
            page.append((key: key, document: document))
            if page.count == size {
                try body(page)
                page.removeAll(keepingCapacity: true)
            }
        }
        if !page.isEmpty { try body(page) }
        return result
    }

    /// A file's collection is read by one statement, which sees one state of it
    /// (SQLite's read snapshot); collections are read one after the other.
    func readingOneSnapshot<Result>(_ body: () throws -> Result) throws -> Result { try body() }

    func unrecordedTables() throws -> [String] { try store.unrecordedTables() }

    /// The file's device and inode: the same for every path to it.
    func storeIdentity() throws -> String {
        guard let path = store.path else { return "memory:\(ObjectIdentifier(store))" }
        var info = stat()
        guard stat(path, &info) == 0 else { throw CommandError("cannot read \(path): \(String(cString: strerror(errno)))") }
        return "file:\(info.st_dev):\(info.st_ino)"
    }

    func appliedMigrations() throws -> [AppliedMigration] { try store.appliedMigrations() }

    func recordAppliedMigrations(_ migrations: [AppliedMigration]) throws { try store.recordAppliedMigrations(migrations) }

    func keyValueEntries() throws -> [(key: String, value: JSONValue)] {
        try store.values.keys().compactMap { key in
            try store.values.get(key, as: JSONValue.self).map { (key: key, value: $0) }
        }
    }

    func writeCollection(_ collection: String, _ body: (any CollectionWriter) throws -> Void) throws {
        try store.write { transaction in try body(SQLiteCollectionWriter(collection: transaction.collection(named: collection))) }
    }

    func setKeyValueEntries(_ entries: [(key: String, value: JSONValue)]) throws {
        try store.write { transaction in
            for (key, value) in entries { try transaction.values.set(value, forKey: key) }
        }
    }
}

/// A collection of a DocStore file written by a copy, in the copy's transaction.
struct SQLiteCollectionWriter: CollectionWriter {
    let collection: DocumentCollection<JSONValue>

    func create(keyKind: KeyKind) throws -> KeyKind {
        try collection.createIfMissing(keyKind: keyKind)
    }

    func deleteAll() throws -> Int { try collection.deleteAll() }

    func insert(_ documents: [KeyedDocument]) throws {
        _ = try collection.insert(jsonObjects: documents.map { .init(key: $0.key, text: Array(JSONText().string($0.document).utf8)) })
    }

    func createIndex(_ index: IndexInfo) throws -> Bool {
        _ = try collection.createIndex(on: index.fields, unique: index.isUnique)
        return true
    }

    func createSearchIndex(on fields: [FieldPath]) throws {
        _ = try collection.createSearchIndex(on: fields)
    }

    func createFieldColumns(on fields: [FieldPath]) throws -> Bool {
        _ = try collection.createFieldColumns(on: fields)
        return true
    }

    func forEachPage(size: Int, _ body: ([KeyedDocument]) throws -> Void) throws {
        try SQLiteBackend.forEachPage(of: collection, size: size, body)
    }
}
