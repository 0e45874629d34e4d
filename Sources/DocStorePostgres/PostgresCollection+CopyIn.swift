@_spi(Backends) import DocStore
import Foundation
import PostgresNIO

extension PostgresCollection {
    /// Inserts documents under their keys with one `COPY … FROM STDIN`, in the
    /// caller's transaction: how `docstore copy` fills a collection. One
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
        guard let transaction, case .transaction(let connection) = transaction.session else {
            throw DocStoreError.missingKey(collection: name, reason: "copyIn runs in a transaction")
        }
        let kind = try await ensureCollection(kind: first.key.kind)
        var rows = CopyTextRows()
        for (given, document) in documents {
            let key = try checkedKey(given, kind: kind)
            let json = BackendSupport.serializedBytes(document)
            try refuseNUL(in: json, key: key)
            rows.append(key: key, json: json)
        }
        try await mappingUniqueViolation { try await copy(rows, on: connection) }
    }

    /// Sends rows with one `COPY "table" (key, body) FROM STDIN`.
    func copy(_ rows: CopyTextRows, on connection: PostgresConnection) async throws {
        let table = PostgresStoreSQL.copyTableName(name)
        do {
            try await connection.copyFrom(table: table, columns: ["key", "body"], logger: PostgresSession.logger) { writer in
                try await writer.write(rows.buffer)
            }
        } catch {
            throw PostgresStoreError.from(error, collection: name)
        }
    }
}

/// Rows in `COPY`'s text format: the key, a tab, the JSON text, a newline;
/// a backslash, tab, newline or carriage return in either is escaped (JSON
/// text has backslashes in its escapes; a string key may hold anything).
struct CopyTextRows {
    private(set) var bytes: [UInt8] = []

    var buffer: ByteBuffer { ByteBuffer(bytes: bytes) }

    mutating func reserveCapacity(_ count: Int) { bytes.reserveCapacity(count) }

    mutating func append(key: DocumentKey, json: some Sequence<UInt8>) {
        switch key {
        case .integer(let integer): bytes.append(contentsOf: String(integer).utf8)
        case .string(let text): appendEscaped(text.utf8)
        case .uuid(let uuid): bytes.append(contentsOf: uuid.uuidString.utf8)
        }
        bytes.append(UInt8(ascii: "\t"))
        appendEscaped(json)
        bytes.append(UInt8(ascii: "\n"))
    }

    private mutating func appendEscaped(_ text: some Sequence<UInt8>) {
        for byte in text {
            switch byte {
            case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\")); bytes.append(byte)
            case UInt8(ascii: "\t"): bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "t"))
            case UInt8(ascii: "\n"): bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "n"))
            case UInt8(ascii: "\r"): bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "r"))
            default: bytes.append(byte)
            }
        }
    }
}
