@_spi(Backends) import DocStore

/// Writes a CSV record straight to the JSON text of its document, each cell as
/// its column's type, with no `JSONValue` on the way: building and serializing a
/// value per document cost more than inserting it (most of an import's time).
///
/// The document's key: with `--key FIELD`, that column's value, written first as
/// `"id"` (an `id` column of its own must then hold the same value, and is not
/// written twice); otherwise an `id` column's value; otherwise none (the store
/// generates one).
struct CSVRecordText {
    let columns: CSVDocumentReader.Columns
    let keyField: String?
    /// Every column's `"name":`, escaped once for the whole file, one after
    /// the other (appended from one buffer: an array per column cost a retain
    /// and a release per cell).
    private let members: [UInt8]
    private let memberRanges: [Range<Int>]
    private let keyIndex: Int?
    private let idIndex: Int?
    /// Columns whose names are one name written with other Unicode characters
    /// (a composed "é" and "e" with a combining accent), as an export of
    /// documents spelling it both ways gives: a document holds one of them at
    /// most. Usually none.
    private let sameNameColumns: [[Int]]

    init(columns: CSVDocumentReader.Columns, keyField: String?) {
        self.columns = columns
        self.keyField = keyField
        var members: [UInt8] = []
        memberRanges = columns.names.map { name in
            let start = members.count
            Array(name.utf8).withUnsafeBufferPointer { JSONTextWriter.appendString($0[...], to: &members) }
            members.append(UInt8(ascii: ":"))
            return start..<members.count
        }
        self.members = members
        keyIndex = keyField.flatMap { key in columns.names.firstIndex { ExactText.same($0, key) } }
        idIndex = columns.names.firstIndex { ExactText.same($0, "id") }
        sameNameColumns = Self.sameNameColumns(columns.names)
    }

    /// The groups of column indexes whose names are equal as Swift strings
    /// (the header has no two equal in bytes). Once per file, for its header.
    private static func sameNameColumns(_ names: [String]) -> [[Int]] {
        var groups: [String: [Int]] = [:]
        for (index, name) in names.enumerated() { groups[name, default: []].append(index) }
        return groups.values.filter { $0.count > 1 }.map { $0.sorted() }.sorted { $0[0] < $1[0] }
    }

    /// Refuses a record filling two columns of one name written two ways:
    /// its document would hold both, and reads see only one.
    private func refuseBothSpellings(_ record: CSVParser.Record) -> CommandError? {
        for group in sameNameColumns {
            let filled = group.filter { index in record.withField(index) { !$0.isEmpty } }
            guard filled.count > 1 else { continue }
            let described = filled.map { "column \($0 + 1) (\(ExactText.scalarList(columns.names[$0])))" }.joined(separator: " and ")
            return CommandError("it fills \(described), one name \(DocumentKeyQuoting.quoted(columns.names[filled[0]])) written with other Unicode characters, which a document can't hold twice; leave all but one of them empty")
        }
        return nil
    }

    /// The record's document as JSON text in `text` (replaced), and the value of
    /// its `"id"` (nil for none); or why the record is bad.
    func write(_ record: CSVParser.Record, into text: inout [UInt8]) -> Result<JSONValue?, CommandError> {
        text.removeAll(keepingCapacity: true)
        if !sameNameColumns.isEmpty, let refusal = refuseBothSpellings(record) { return .failure(refusal) }
        text.append(UInt8(ascii: "{"))
        var id: JSONValue?
        var first = true
        if let keyField {
            var key: JSONValue?
            if let keyIndex {
                switch value(record, keyIndex) {
                case .success(let value): key = value
                case .failure(let error): return .failure(error)
                }
            }
            guard let key, key.stringValue != nil || key.numberValue != nil else {
                return .failure(CommandError("no \(DocumentKeyQuoting.quoted(keyField)) to use as the key"))
            }
            // An "id" of its own is data: never overwritten by another field's value.
            if let idIndex, idIndex != keyIndex, let own = try? value(record, idIndex).get(), own != key {
                return .failure(CommandError("its \"id\" (\(JSONText().string(own))) differs from its \(DocumentKeyQuoting.quoted(keyField)) (\(JSONText().string(key))), which --key \(keyField) would write over it; rename the \"id\" field or import without --key"))
            }
            id = key
            text.append(contentsOf: Array("\"id\":".utf8))
            text.append(contentsOf: Array(JSONText().string(key).utf8))
            first = false
        } else if let idIndex {
            switch value(record, idIndex) {
            case .success(let value): id = value
            case .failure(let error): return .failure(error)
            }
        }
        let skipped = keyField != nil ? idIndex : nil
        var failure: CommandError?
        members.withUnsafeBufferPointer { members in
            record.forEachField { index, bytes in
                guard failure == nil, !bytes.isEmpty, index != skipped else { return }
                if !first { text.append(UInt8(ascii: ",")) }
                first = false
                text.append(contentsOf: UnsafeBufferPointer(rebasing: members[memberRanges[index]]))
                failure = appendCell(bytes, column: index, to: &text)
            }
        }
        if let failure { return .failure(failure) }
        text.append(UInt8(ascii: "}"))
        return .success(id)
    }

    /// A cell's value (nil when empty), for keys.
    private func value(_ record: CSVParser.Record, _ index: Int) -> Result<JSONValue?, CommandError> {
        record.withField(index) { bytes in
            if bytes.isEmpty { return .success(nil) }
            guard let value = columns.types[index].value(of: bytes) else { return .failure(CommandError(CSVDocumentReader.invalidUTF8)) }
            guard let value else { return .failure(misfit(bytes, column: index)) }
            return .success(value)
        }
    }

    /// Appends a non-empty cell as its column's type; the error when it can't be.
    private func appendCell(_ bytes: UnsafeBufferPointer<UInt8>, column: Int, to text: inout [UInt8]) -> CommandError? {
        switch columns.types[column] {
        case .string:
            guard JSONTextWriter.isValidUTF8(bytes) else { return CommandError(CSVDocumentReader.invalidUTF8) }
            JSONTextWriter.appendString(bytes[...], to: &text)
        case .integer:
            if columns.forced[column] {
                // `007` and `+7` are 7: written as JSON spells it.
                guard let value = CSVColumnType.integer(bytes) else { return misfit(bytes, column: column) }
                text.append(contentsOf: Array(String(value).utf8))
            } else {
                // The first pass found every cell a JSON integer within 64 bits.
                guard CSVValue.numberShape(bytes) == .integer else { return misfit(bytes, column: column) }
                text.append(contentsOf: bytes)
            }
        case .number:
            if let shape = CSVValue.numberShape(bytes), !CSVValue.overflowsDouble(bytes) {
                // JSON's own spelling, kept digit for digit (forced by --types or
                // not); an integral one gets ".0" to stay a real. Other spellings
                // (`+7`, `007`, forced) go through a Double.
                text.append(contentsOf: bytes)
                if shape == .integer { text.append(contentsOf: [UInt8(ascii: "."), UInt8(ascii: "0")]) }
            } else {
                guard case .double(let value)?? = CSVColumnType.number.value(of: bytes) else { return misfit(bytes, column: column) }
                text.append(contentsOf: Array(value.description.utf8))
            }
        case .bool:
            guard case .bool(let value)?? = CSVColumnType.bool.value(of: bytes) else { return misfit(bytes, column: column) }
            text.append(contentsOf: Array((value ? "true" : "false").utf8))
        }
        return nil
    }

    /// A cell that doesn't fit its column's type: forced by `--types`, or (the
    /// file changed between the two passes) inferred.
    private func misfit(_ bytes: UnsafeBufferPointer<UInt8>, column index: Int) -> CommandError {
        let type = columns.types[index]
        let shown = JSONText().string(.string(String(decoding: bytes, as: UTF8.self)))
        let column = "column \(index + 1) (\(DocumentKeyQuoting.quoted(columns.names[index])))"
        guard columns.forced[index] else {
            return CommandError("\(column): \(shown) is not \(type.expectation) as the column's other cells were when the file was first read; the file changed during the import")
        }
        return CommandError("\(column): \(shown) is not \(type.expectation) (--types \(columns.names[index])=\(type.spelled))")
    }
}

/// JSON text from bytes: strings escaped as JSON requires.
enum JSONTextWriter {
    /// Whether `bytes` are UTF-8 (ASCII is checked without decoding).
    static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.allSatisfy { $0 < 0x80 } || String(validating: bytes, as: UTF8.self) != nil
    }

    /// Appends `"…"` with `"`, `\` and control characters escaped.
    static func appendString(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, to text: inout [UInt8]) {
        text.append(UInt8(ascii: "\""))
        // Most text needs no escape: then it goes in at once.
        if !bytes.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            text.append(contentsOf: UnsafeBufferPointer(rebasing: bytes))
            text.append(UInt8(ascii: "\""))
            return
        }
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\""): text.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): text.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case UInt8(ascii: "\n"): text.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case UInt8(ascii: "\r"): text.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case UInt8(ascii: "\t"): text.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                text.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                         hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            default: text.append(byte)
            }
        }
        text.append(UInt8(ascii: "\""))
    }
}
