@_spi(Backends) import DocStore

/// Writes a streamed result in one output mode, item by item.
///
/// A format that must know something about every item before writing the first
/// (a table's column widths, the columns of documents for a CSV header) asks for
/// a first pass: ``measure(_:)`` sees every item, then ``write(_:into:)`` sees
/// them again, from the same read transaction. Reading twice keeps memory flat
/// and the output exact, where widths guessed from the first rows would cut or
/// misalign later ones; it costs a second run of the query, which is cheaper
/// than holding a million rows.
protocol ResultFormatter {
    /// Whether ``measure(_:)`` must see every item before the first is written.
    var needsFirstPass: Bool { get }
    /// Sees an item in the first pass.
    mutating func measure(_ item: ResultItem) throws
    /// Writes what comes before the items (a header, a border, `[`).
    mutating func begin(into out: inout OutputBuffer) throws
    /// Writes one item.
    mutating func write(_ item: ResultItem, into out: inout OutputBuffer) throws
    /// Marks items left out between the first and last shown (a terminal's long
    /// result): a `⋮` line in the mode's own shape.
    mutating func writeGap(omitted: Int, into out: inout OutputBuffer) throws
    /// Writes what comes after the items, given how many there were.
    mutating func end(count: Int, into out: inout OutputBuffer) throws
    /// Whether the output came out wider than the terminal (a table that could not be narrowed).
    var overflowsWidth: Bool { get }
}

extension ResultFormatter {
    var needsFirstPass: Bool { false }
    mutating func measure(_ item: ResultItem) throws {}
    var overflowsWidth: Bool { false }
}

/// How results are formatted, besides the mode.
struct FormatSettings {
    var mode: OutputMode
    /// Column names above the rows (csv, tsv, markdown, table).
    var headers = true
    var style = TerminalStyle.plain
    /// The terminal's width, which tables are narrowed to fit; nil for none (files, pipes).
    var maximumWidth: Int?
    /// The widest a table cell may be (a terminal's), longer text cut with …;
    /// nil for none (files and pipes get every character).
    var maximumCellWidth: Int?

    /// A formatter for a stream with these columns (nil: documents).
    func formatter(columns: [String]?) -> any ResultFormatter {
        switch mode {
        case .table: TableFormatter(columns: columns, headers: headers, style: style, maximumWidth: maximumWidth,
                                    maximumCellWidth: maximumCellWidth)
        case .csv: DelimitedFormatter(columns: columns, headers: headers, delimiter: .comma)
        case .tsv: DelimitedFormatter(columns: columns, headers: headers, delimiter: .tab)
        case .markdown: MarkdownFormatter(columns: columns, headers: headers)
        case .json: JSONArrayFormatter(columns: columns, style: style)
        case .ndjson: NDJSONFormatter(columns: columns, style: style)
        case .line: LineFormatter(columns: columns, style: style)
        }
    }
}

/// The columns of a result: given (rows), or the members of its documents in
/// the order they first appear, with a `value` column for documents that are
/// not objects.
///
/// A stored document's cells are read from its text in place
/// (``StoredMembers``), each member found by its position in the document
/// before: documents of one collection mostly share their layout, so most
/// members are matched by comparing bytes, without building a name.
///
/// Names are told apart by their bytes (``ExactText``), as the store tells
/// them apart: "é" composed and "e" with a combining accent are two columns,
/// where a `String` key merged them and one value of each row was lost.
struct ResultColumns {
    private(set) var names: [String]
    let given: Bool
    private var columnOfName: [ExactText: Int] = [:]
    private var hasScalars = false
    /// Per member position in the last stored document: its name's bytes and column (-1: none).
    private var layout: [(name: [UInt8], column: Int)] = []

    init(_ columns: [String]?) {
        names = columns ?? []
        given = columns != nil
        for (column, name) in names.enumerated() where columnOfName[ExactText(name)] == nil {
            columnOfName[ExactText(name)] = column
        }
    }

    /// Adds the members of a document (nothing for rows, whose columns are
    /// given); returns its cells under the columns known so far.
    mutating func add(_ item: ResultItem) throws -> [JSONValue?] {
        if given { return try cells(of: item) }
        if case .stored(let key, let collection, let text) = item,
           let cells = try storedCells(text, collection: collection, key: key, adding: true) {
            return cells
        }
        let document = try item.value(columns: nil)
        if case .object(let members) = document {
            for key in members.keys where columnOfName[ExactText(key)] == nil { addColumn(key) }
        } else if !hasScalars {
            hasScalars = true
            if columnOfName[ExactText("value")] == nil { addColumn("value") }
        }
        return cells(of: document)
    }

    /// The item's cells under ``names`` (nil: missing). Documents must have
    /// gone through ``add(_:)`` first, in the same read transaction.
    mutating func cells(of item: ResultItem) throws -> [JSONValue?] {
        switch item {
        case .row(let values):
            return names.indices.map { $0 < values.count ? values[$0] : nil }
        case .stored(let key, let collection, let text):
            if let cells = try storedCells(text, collection: collection, key: key, adding: false) {
                return cells + Array(repeating: nil, count: max(0, names.count - cells.count))
            }
            return cells(of: try item.value(columns: nil))
        case .document(let document):
            return cells(of: document)
        }
    }

    private mutating func addColumn(_ name: String) {
        columnOfName[ExactText(name)] = names.count
        names.append(name)
    }

    private func cells(of document: JSONValue) -> [JSONValue?] {
        var cells = [JSONValue?](repeating: nil, count: names.count)
        if case .object(let members) = document {
            // By each member's bytes: a lookup by `String` would find a name's
            // other Unicode form too.
            for (name, value) in members {
                if let column = columnOfName[ExactText(name)] { cells[column] = value }
            }
        } else if let column = columnOfName[ExactText("value")] {
            cells[column] = document
        }
        return cells
    }

    /// A stored object's cells, read from its text; nil when it is not an object.
    ///
    /// The text is validated when `adding` (the first pass). The second pass
    /// (``cells(of:)``) reads the same texts in the same read transaction,
    /// already validated, so it only scans them.
    private mutating func storedCells(_ text: UnsafeRawBufferPointer, collection: String, key: DocumentKey,
                                      adding: Bool) throws -> [JSONValue?]? {
        if adding { _ = try DocumentCollection<JSONValue>.validateStoredDocument(text, collection: collection, key: key) }
        var cells = [JSONValue?](repeating: nil, count: names.count)
        var position = 0
        let isObject = try StoredMembers.forEach(text) { name, value in
            let column: Int
            if position < layout.count, Self.equal(layout[position].name, name) {
                column = layout[position].column
            } else {
                let text = try StoredMembers.name(name, collection: collection, key: key)
                if columnOfName[ExactText(text)] == nil, adding { addColumn(text) }
                column = columnOfName[ExactText(text)] ?? -1
                let entry = (Array(name), column)
                if position < layout.count { layout[position] = entry } else { layout.append(entry) }
            }
            if column >= 0 {
                if column >= cells.count { cells.append(contentsOf: repeatElement(nil, count: column - cells.count + 1)) }
                // The first of repeated names wins, as when parsing.
                if cells[column] == nil { cells[column] = try StoredMembers.value(value, collection: collection, key: key) }
            }
            position += 1
        }
        return isObject ? cells : nil
    }

    private static func equal(_ stored: [UInt8], _ bytes: UnsafeRawBufferPointer) -> Bool {
        stored.count == bytes.count && stored.withUnsafeBytes { $0.elementsEqual(bytes) }
    }
}

/// The text of one cell in a text format: strings as they are, numbers as JSON,
/// `null` as `null` (or empty where a format says so), nested values as compact JSON.
enum CellText {
    static func text(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .string(let s): s
        case .bool(let b): b ? "true" : "false"
        case .integer(let i): String(i)
        case .double, .exactNumber, .array, .object: JSONText().string(value)
        }
    }

    static func isNumber(_ value: JSONValue?) -> Bool {
        switch value {
        case .integer?, .double?, .exactNumber?: true
        default: false
        }
    }
}
