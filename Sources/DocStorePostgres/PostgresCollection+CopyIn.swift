@_spi(Backends) import DocStore
import Foundation
import PostgresNIO

extension PostgresCollection {
    /// Inserts documents under their keys with one `COPY … FROM STDIN`, in the
    /// caller's transaction (or one of its own): how `docstore copy` fills a collection. One
    /// stream of rows rather than a statement of arrays: the server parses no
    /// statement and builds no arrays, and the live triggers fire once.
    ///
    /// - Throws: ``DocStore/DocStoreError/encodingFailed(collection:key:codingPath:reason:)``
    ///   naming the path of a NUL (jsonb can't store it) before anything is sent;
    ///   ``DocStore/DocStoreError/keyKindMismatch(collection:expected:found:)``;
    ///   a taken key as the server reports it (the whole stream is refused).
    @_spi(Backends)
    public func copyIn(_ documents: [(key: DocumentKey, document: JSONValue)]) async throws {
        guard let first = documents.first else { return }
        guard let transaction else {
            // COPY's rows go in the caller's transaction, which checks them.
            return try await store.ownTransaction { try await within($0).copyIn(documents) }
        }
        let kind = try await ensureCollection(kind: first.key.kind)
        var rows = CopyTextRows()
        for (given, document) in documents {
            let key = try checkedKey(given, kind: kind)
            let json = BackendSupport.serializedBytes(document)
            try refuseNUL(in: json, key: key)
            rows.append(key: key, json: json)
        }
        try await mappingUniqueViolation { try await copy(rows, in: transaction) }
    }

    /// Sends rows with one `COPY "table" (key, body) FROM STDIN`, in `transaction`.
    func copy(_ rows: CopyTextRows, in transaction: PostgresTransaction) async throws {
        if let kind = keyKind() { try await transaction.checkKeyColumn(of: name, kind: kind) }
        let connection = transaction.connection
        let table = PostgresStoreSQL.copyTableName(name)
        let collection = name
        do {
            try await CopyGuard.unlessClosed(connection, collection: collection) {
                try await connection.copyFrom(table: table, columns: ["key", "body"], logger: PostgresSession.logger) { writer in
                    try await CopyGuard.write(rows.buffer, with: writer, on: connection)
                }
            }
        } catch {
            throw PostgresStoreError.from(error, collection: name)
        }
    }
}

/// Rows in `COPY`'s text format: the key, a tab, the JSON text, a newline;
/// a backslash, tab, newline or carriage return in either is escaped (JSON
/// text has backslashes in its escapes; a string key may hold anything).
/// Written straight into the buffer postgres-nio sends, in runs between the
/// bytes that need escaping.
struct CopyTextRows {
    private(set) var buffer = ByteBuffer()

    mutating func reserveCapacity(_ count: Int) { buffer.reserveCapacity(count) }

    /// A row of text already as jsonb must receive it (a ``PreparedBatch``'s).
    mutating func append(key: DocumentKey, storable json: String.UTF8View) {
        appendKey(key)
        appendEscaped(json)
        buffer.writeInteger(UInt8(ascii: "\n"))
    }

    mutating func append(key: DocumentKey, json: [UInt8]) {
        json.withUnsafeBytes { append(key: key, json: $0) }
    }

    /// A row; numbers with an exponent are written out (``JSONBNumberSpelling``).
    mutating func append(key: DocumentKey, json: UnsafeRawBufferPointer) {
        appendKey(key)
        if let respelled = JSONBNumberSpelling.respelled(json) {
            respelled.withUnsafeBufferPointer { appendEscaped($0) }
        } else {
            json.withMemoryRebound(to: UInt8.self) { appendEscaped($0) }
        }
        buffer.writeInteger(UInt8(ascii: "\n"))
    }

    /// The key and the tab after it.
    private mutating func appendKey(_ key: DocumentKey) {
        switch key {
        case .integer(let integer): buffer.writeString(String(integer))
        case .string(let text): appendEscaped(text.utf8)
        case .uuid(let uuid): buffer.writeString(uuid.uuidString)
        }
        buffer.writeInteger(UInt8(ascii: "\t"))
    }

    private mutating func appendEscaped(_ text: String.UTF8View) {
        if text.withContiguousStorageIfAvailable({ appendEscaped($0) }) != nil { return }
        var copy = String(text)  // a bridged string: made native, in one piece
        copy.makeContiguousUTF8()
        _ = copy.utf8.withContiguousStorageIfAvailable { appendEscaped($0) }
    }

    private mutating func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>) {
        var runStart = 0
        for index in bytes.indices {
            let escaped: UInt8
            switch bytes[index] {
            case UInt8(ascii: "\\"): escaped = UInt8(ascii: "\\")
            case UInt8(ascii: "\t"): escaped = UInt8(ascii: "t")
            case UInt8(ascii: "\n"): escaped = UInt8(ascii: "n")
            case UInt8(ascii: "\r"): escaped = UInt8(ascii: "r")
            default: continue
            }
            buffer.writeBytes(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[runStart..<index])))
            buffer.writeInteger(UInt8(ascii: "\\"))
            buffer.writeInteger(escaped)
            runStart = index + 1
        }
        buffer.writeBytes(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[runStart...])))
    }
}
