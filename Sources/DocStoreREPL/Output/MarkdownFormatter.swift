import DocStore

/// `.mode markdown`: a GitHub-flavoured Markdown table. `|` in a cell is
/// written `\|` and a line break `<br>`, so that every row stays one line; a
/// missing field is an empty cell, nested values are compact JSON. Numbers'
/// columns are not right-aligned: that would take a first pass over rows.
struct MarkdownFormatter: ResultFormatter {
    private var columns: ResultColumns
    let headers: Bool

    init(columns: [String]?, headers: Bool) {
        self.columns = ResultColumns(columns)
        self.headers = headers
    }

    var needsFirstPass: Bool { !columns.given }

    mutating func measure(_ item: ResultItem) throws {
        _ = try columns.add(item)
    }

    func begin(into out: inout OutputBuffer) throws {
        guard headers, !columns.names.isEmpty else { return }
        try out.append(line(columns.names.map(cell)))
        try out.append(line(columns.names.map { _ in "---" }))
    }

    mutating func write(_ item: ResultItem, into out: inout OutputBuffer) throws {
        try out.append(line(try columns.cells(of: item).map { $0.map { cell(CellText.text($0)) } ?? "" }))
    }

    /// A row of `⋮` cells.
    func writeGap(omitted: Int, into out: inout OutputBuffer) throws {
        try out.append(line(columns.names.map { _ in "⋮" }))
    }

    func end(count: Int, into out: inout OutputBuffer) throws {}

    private func line(_ cells: [String]) -> String {
        "| " + cells.joined(separator: " | ") + " |\n"
    }

    func cell(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x7C || $0 == 0x0A || $0 == 0x0D || $0 == 0x5C }) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "|": result += "\\|"
            case "\\": result += "\\\\"
            case "\n": result += "<br>"
            case "\r": break
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
