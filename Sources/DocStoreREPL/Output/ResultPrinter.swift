import DocStore

/// Formats a whole ``CommandResult`` (a `get`, `.indexes`, a watched query's
/// result) in an ``OutputMode``: documents and rows go through the same
/// ``ResultFormatter``s as streamed results.
struct ResultPrinter {
    var mode: OutputMode
    var style: TerminalStyle
    /// The terminal's width, which tables are narrowed to fit; nil for none.
    var width: Int?
    /// Column names above csv, tsv, markdown and table rows.
    var headers = true
    /// Whether table cells are cut at 40 columns (a terminal).
    var cutsCells = true

    /// The text to print (without a final line ending), or nil for nothing.
    func format(_ result: CommandResult) -> String? {
        guard var text = formatLines(result) else { return nil }
        // "\r\n" is one Character.
        if text.hasSuffix("\r\n") || text.hasSuffix("\n") { text.removeLast() }
        return text.isEmpty ? nil : text
    }

    /// The text to print, ending with its line ending (CRLF in CSV), or nil for nothing.
    func formatLines(_ result: CommandResult) -> String? {
        switch result {
        case .none: return nil
        case .message(let text), .text(let text): return text + "\n"
        case .value(let value): return formatValue(value) + (mode == .csv ? "\r\n" : "\n")
        case .documents(let documents), .firstDocuments(let documents):
            if documents.isEmpty, mode != .json { return nil }
            return formatItems(columns: nil, documents.map(ResultItem.document))
        case .document(let document):
            // One document (`get`): itself, not an array of one.
            if mode == .json { return JSONText(options: .pretty, style: style).string(document) + "\n" }
            return formatItems(columns: nil, [ResultItem.document(document)])
        case .rows(let columns, let rows), .firstRows(let columns, let rows):
            return formatItems(columns: columns, rows.map(ResultItem.row))
        }
    }

    private func formatItems(columns: [String]?, _ items: [ResultItem]) -> String? {
        var formatter = FormatSettings(mode: mode, headers: headers, style: style, maximumWidth: width,
                                       maximumCellWidth: cutsCells ? 40 : nil).formatter(columns: columns)
        let sink = BytesSink()
        var out = OutputBuffer(sink: sink)
        do {
            if formatter.needsFirstPass { for item in items { try formatter.measure(item) } }
            try formatter.begin(into: &out)
            for item in items { try formatter.write(item, into: &out) }
            try formatter.end(count: items.count, into: &out)
            try out.flush()
        } catch {
            // Decoded items can't fail, and the sink is memory.
            return "error: \(error)"
        }
        return sink.bytes.isEmpty ? nil : String(decoding: sink.bytes, as: UTF8.self)
    }

    private func formatValue(_ value: JSONValue) -> String {
        switch mode {
        case .json: JSONText(options: .pretty, style: style).string(value)
        case .ndjson: JSONText(style: style).string(value)
        case .csv: DelimitedFormatter(columns: [], headers: false, delimiter: .comma).field(CellText.text(value))
        case .tsv: DelimitedFormatter(columns: [], headers: false, delimiter: .tab).field(CellText.text(value))
        case .table, .line, .markdown: LineFormatter.plain(value, style: style)
        }
    }
}

/// Bytes collected in memory.
final class BytesSink: ByteSink {
    private(set) var bytes: [UInt8] = []

    func write(_ raw: UnsafeRawBufferPointer) throws {
        bytes.append(contentsOf: raw)
    }
}
