import DocStore
import OrderedCollections

/// Formats a ``CommandResult`` in an ``OutputMode``.
struct ResultPrinter {
    var mode: OutputMode
    var style: TerminalStyle
    /// The terminal's width, which tables are narrowed to fit; nil for none.
    var width: Int?

    /// The text to print (without a final newline), or nil for nothing.
    func format(_ result: CommandResult) -> String? {
        switch result {
        case .none: return nil
        case .message(let text), .text(let text): return text
        case .value(let value): return formatValue(value)
        case .documents(let documents), .firstDocuments(let documents): return formatDocuments(documents)
        case .document(let document):
            return mode == .json ? JSONText(options: .pretty, style: style).string(document) : formatDocuments([document])
        case .rows(let columns, let rows), .firstRows(let columns, let rows):
            if mode == .table { return table.render(columns: columns, rows: rows) }
            // Other modes show rows as objects keyed by column, missing cells left out.
            return formatDocuments(rows.map { row in
                var members = OrderedDictionary<String, JSONValue>()
                for (index, column) in columns.enumerated() where index < row.count {
                    if let value = row[index] { members[column] = value }
                }
                return .object(members)
            })
        }
    }

    private var table: TableRenderer {
        TableRenderer(style: style, maximumWidth: width)
    }

    private func formatDocuments(_ documents: [JSONValue]) -> String? {
        switch mode {
        case .table:
            return documents.isEmpty ? nil : table.render(documents: documents)
        case .json:
            return JSONText(options: .pretty, style: style).string(.array(documents))
        case .ndjson:
            return documents.isEmpty ? nil : documents.map { JSONText(style: style).string($0) }.joined(separator: "\n")
        case .line:
            return documents.isEmpty ? nil : documents.map(lineRecord).joined(separator: "\n\n")
        }
    }

    /// `field = value`, names right-aligned as SQLite's line mode does.
    private func lineRecord(_ document: JSONValue) -> String {
        guard case .object(let members) = document else { return "value = " + plain(document) }
        let width = members.keys.map { TerminalText.displayWidth(TerminalText.printable($0)) }.max() ?? 0
        return members.map { key, value in
            let name = TerminalText.printable(key)
            return String(repeating: " ", count: width - TerminalText.displayWidth(name)) + style.apply(.key, name) + " = " + plain(value)
        }.joined(separator: "\n")
    }

    private func formatValue(_ value: JSONValue) -> String {
        switch mode {
        case .json: JSONText(options: .pretty, style: style).string(value)
        case .ndjson: JSONText(style: style).string(value)
        case .table, .line: plain(value)
        }
    }

    /// A value as a person reads it: strings without quotes, the rest as JSON.
    private func plain(_ value: JSONValue) -> String {
        if case .string(let s) = value { return TerminalText.printable(s) }
        return JSONText(options: .spaced, style: style).string(value)
    }
}
