import DocStore

/// `.mode csv` and `.mode tsv`: one line per document or row, under a header
/// line of column names (`.headers off` leaves it out).
///
/// CSV follows RFC 4180: fields are separated by commas, lines end with CRLF,
/// and a field holding a comma, a quote, a CR or an LF is quoted, its quotes
/// doubled. TSV separates fields with tabs and, as a TSV field can't hold a tab
/// or a line break, writes `\t`, `\n`, `\r` and `\\` for them, lines ending
/// with LF. A missing field and `null` are both an empty field; nested values
/// are compact JSON.
struct DelimitedFormatter: ResultFormatter {
    enum Delimiter { case comma, tab }

    private var columns: ResultColumns
    let headers: Bool
    let delimiter: Delimiter

    init(columns: [String]?, headers: Bool, delimiter: Delimiter) {
        self.columns = ResultColumns(columns)
        self.headers = headers
        self.delimiter = delimiter
    }

    var needsFirstPass: Bool { !columns.given }

    mutating func measure(_ item: ResultItem) throws {
        _ = try columns.add(item)
    }

    func begin(into out: inout OutputBuffer) throws {
        guard headers, !columns.names.isEmpty else { return }
        try writeLine(columns.names.map(field), into: &out)
    }

    mutating func write(_ item: ResultItem, into out: inout OutputBuffer) throws {
        try writeLine(try columns.cells(of: item).map { value in
            switch value {
            case nil, .null?: ""
            case let value?: field(CellText.text(value))
            }
        }, into: &out)
    }

    /// A line of `⋮` fields, one per column.
    func writeGap(omitted: Int, into out: inout OutputBuffer) throws {
        try writeLine(columns.names.map { _ in "⋮" }, into: &out)
    }

    func end(count: Int, into out: inout OutputBuffer) throws {}

    private func writeLine(_ fields: [String], into out: inout OutputBuffer) throws {
        var line = fields.joined(separator: delimiter == .comma ? "," : "\t")
        line += delimiter == .comma ? "\r\n" : "\n"
        try out.append(line)
    }

    /// A field's text, quoted or escaped as the format requires.
    func field(_ text: String) -> String {
        switch delimiter {
        case .comma:
            guard text.utf8.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }) else { return text }
            var quoted = "\""
            for character in text.unicodeScalars {
                if character == "\"" { quoted += "\"\"" } else { quoted.unicodeScalars.append(character) }
            }
            return quoted + "\""
        case .tab:
            guard text.utf8.contains(where: { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == 0x5C }) else { return text }
            var escaped = ""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\t": escaped += "\\t"
                case "\n": escaped += "\\n"
                case "\r": escaped += "\\r"
                case "\\": escaped += "\\\\"
                default: escaped.unicodeScalars.append(scalar)
                }
            }
            return escaped
        }
    }
}
