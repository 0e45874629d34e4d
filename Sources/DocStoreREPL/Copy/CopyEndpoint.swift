import DocStore

/// One document as a copy moves it: its key and its value.
typealias KeyedDocument = (key: DocumentKey, document: JSONValue)

/// A store as `docstore copy` reads and writes it: a DocStore file or a
/// PostgreSQL database. Reading goes through ``REPLBackend`` (collections,
/// indexes) and pages in key order; writing goes one collection per
/// transaction (``writeCollection(_:_:)``).
protocol CopyEndpoint: REPLBackend {
    /// Throws when this store can't have a collection of that name (PostgreSQL
    /// table names hold 63 bytes): checked for every collection before a copy
    /// writes anything, so a copy never stops half-way on a name.
    func checkCollectionName(_ name: String) throws
    /// Calls `body` with the collection's documents in key order, at most
    /// `size` at a time, in bounded memory.
    func forEachPage(_ collection: String, size: Int, _ body: ([KeyedDocument]) throws -> Void) throws
    /// Every key/value entry, sorted by key.
    func keyValueEntries() throws -> [(key: String, value: JSONValue)]
    /// Runs `body` in one transaction, committed when it returns and rolled
    /// back (the collection as it was, or absent) when it throws.
    func writeCollection(_ collection: String, _ body: (any CollectionWriter) throws -> Void) throws
    /// Sets the entries, all or none.
    func setKeyValueEntries(_ entries: [(key: String, value: JSONValue)]) throws
    /// Runs `body`, during which the endpoint's document pages, key/value
    /// entries and migrations are read from one snapshot of the store, so that a
    /// copy never mixes states of a store other processes write meanwhile.
    func readingOneSnapshot<Result>(_ body: () throws -> Result) throws -> Result
    /// Tables of documents the store's catalog does not record (not copied).
    func unrecordedTables() throws -> [String]
    /// What tells this store from every other, however its location is spelled
    /// (a symbolic link, `./`, another host name for the same server).
    func storeIdentity() throws -> String
    /// The migration steps the store has run, in order.
    func appliedMigrations() throws -> [AppliedMigration]
    /// Records steps as run (a copy's documents are migrated already), all or none.
    func recordAppliedMigrations(_ migrations: [AppliedMigration]) throws
}

/// A collection being written by a copy, inside its transaction.
protocol CollectionWriter {
    /// Creates the collection when missing; returns its key kind.
    func create(keyKind: KeyKind) throws -> KeyKind
    /// Empties the collection (`--replace`); returns how many documents it held.
    func deleteAll() throws -> Int
    /// Inserts documents under their keys.
    func insert(_ documents: [KeyedDocument]) throws
    /// Creates an index like the source's; false when the backend has no
    /// indexes yet (PostgreSQL), which the copy reports.
    func createIndex(_ index: IndexInfo) throws -> Bool
    /// Creates a full-text search index on the same fields as the source's.
    func createSearchIndex(on fields: [FieldPath]) throws
    /// Keeps the same fields in field columns as the source does; false when the
    /// backend has none (PostgreSQL reads jsonb fields without them).
    func createFieldColumns(on fields: [FieldPath]) throws -> Bool
    /// Reads the collection back, as the transaction sees it, in pages.
    func forEachPage(size: Int, _ body: ([KeyedDocument]) throws -> Void) throws
}

/// The count and a checksum of a collection's documents: each document's key
/// and canonical JSON text (members sorted by name, as an export writes them)
/// hashed, the hashes combined in an order-independent way, so that two
/// backends listing documents in different orders agree.
///
/// Numbers are hashed by their kind (integer or real) and exact decimal value,
/// not their spelling: jsonb keeps no exponent and no negative zero, so the
/// real `1e16` comes back from PostgreSQL as `10000000000000000.0`, `-0.0` as
/// `0.0` and `1e-400` written out in full. The same number, it must not fail
/// the copy; a real become an integer, or any other difference, does.
struct DocumentChecksum: Equatable, CustomStringConvertible {
    private(set) var count = 0
    private var sum: UInt64 = 0
    private var mixed: UInt64 = 0

    mutating func add(_ document: KeyedDocument) {
        var hasher = FNV1a()
        hasher.add(document.key.description)
        hasher.add("\u{1F}")  // a separator no key ends with
        Self.hash(document.document, into: &hasher)
        count += 1
        sum &+= hasher.value
        mixed ^= hasher.value &* 0x9E37_79B9_7F4A_7C15 | 1
    }

    /// The value's JSON with members sorted by name and numbers in ``canonicalNumber(_:)``.
    private static func hash(_ value: JSONValue, into hasher: inout FNV1a) {
        switch value {
        case .integer(let integer): hasher.add(canonicalNumber(String(integer)))
        case .double(let double): hasher.add("real " + canonicalNumber(double.description))
        case .exactNumber(let literal): hasher.add((literal.isIntegral ? "" : "real ") + canonicalNumber(literal.text))
        case .array(let elements):
            hasher.add("[")
            for (index, element) in elements.enumerated() {
                if index > 0 { hasher.add(",") }
                hash(element, into: &hasher)
            }
            hasher.add("]")
        case .object(let members):
            hasher.add("{")
            for (index, name) in members.keys.sorted(by: { $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars) }).enumerated() {
                if index > 0 { hasher.add(",") }
                hasher.add(JSONText().string(.string(name)) + ":")
                if let member = members[name] { hash(member, into: &hasher) }
            }
            hasher.add("}")
        case .null, .bool, .string:
            hasher.add(JSONText().string(value))
        }
    }

    /// A number's exact decimal value in one spelling: `0`, or a sign, the
    /// significant digits with a point after the first, and the power of ten
    /// (`1e16`, `-2.5e-1`, `1e-400`), from any JSON number's text or a Double's
    /// `description` (`1e+16`, `-0.0`).
    static func canonicalNumber(_ text: String) -> String {
        var digits: [UInt8] = []
        var exponent = 0
        var negative = false
        var pointSeen = false
        var bytes = Array(text.utf8)[...]
        if bytes.first == UInt8(ascii: "-") { negative = true; bytes = bytes.dropFirst() }
        while let byte = bytes.first, byte != UInt8(ascii: "e"), byte != UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if byte == UInt8(ascii: ".") { pointSeen = true; continue }
            digits.append(byte)
            if pointSeen { exponent -= 1 }
        }
        if !bytes.isEmpty {
            exponent += Int(String(decoding: bytes.dropFirst(), as: UTF8.self)) ?? 0  // Int("+16") is 16
        }
        // digits × 10^exponent: drop leading zeros, and trailing ones into the exponent.
        while digits.first == UInt8(ascii: "0") { digits.removeFirst() }
        while digits.last == UInt8(ascii: "0") { digits.removeLast(); exponent += 1 }
        guard !digits.isEmpty else { return "0" }
        let power = exponent + digits.count - 1
        let mantissa = String(decoding: digits.prefix(1), as: UTF8.self)
            + (digits.count > 1 ? "." + String(decoding: digits.dropFirst(), as: UTF8.self) : "")
        return (negative ? "-" : "") + mantissa + "e" + String(power)
    }

    var description: String {
        "\(CommandResult.plural(count, "document")), checksum \(String(sum, radix: 16))-\(String(mixed, radix: 16))"
    }

    /// FNV-1a, 64 bits: stable across processes and runs (unlike `Hasher`).
    private struct FNV1a {
        var value: UInt64 = 0xCBF2_9CE4_8422_2325

        mutating func add(_ text: String) {
            for byte in text.utf8 {
                value ^= UInt64(byte)
                value &*= 0x100_0000_01B3
            }
        }
    }
}

extension CopyEndpoint {
    /// Any name a file store holds.
    func checkCollectionName(_ name: String) throws {}
}
