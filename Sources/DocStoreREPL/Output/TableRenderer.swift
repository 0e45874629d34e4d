import DocStore

/// Aligned tables with box-drawing borders:
///
///     ┌────┬───────────┬──────────┐
///     │ id │ firstName │ lastName │
///     ├────┼───────────┼──────────┤
///     │ 34 │ David     │ Ortiz    │
///     └────┴───────────┴──────────┘
///
/// Numbers are right-aligned, nested values shown as compact JSON, long cells cut
/// with …, a missing field left blank (distinct from `null`).
struct TableRenderer {
    var style: TerminalStyle
    /// The widest a cell may be, in terminal cells.
    var maximumCellWidth = 40

    /// Documents as a table: one column per member, in the order members first
    /// appear (document key order); a non-object document goes in a `value` column.
    func render(documents: [JSONValue]) -> String {
        var columns: [String] = []
        var seen: Set<String> = []
        var hasScalars = false
        for document in documents {
            if case .object(let members) = document {
                for key in members.keys where seen.insert(key).inserted { columns.append(key) }
            } else {
                hasScalars = true
            }
        }
        if hasScalars, !seen.contains("value") { columns.append("value") }
        let rows: [[JSONValue?]] = documents.map { document in
            if case .object(let members) = document {
                return columns.map { members[$0] }
            }
            return columns.map { $0 == "value" ? document : nil }
        }
        return render(columns: columns, rows: rows)
    }

    /// Rows under named columns.
    func render(columns: [String], rows: [[JSONValue?]]) -> String {
        guard !columns.isEmpty else { return "" }
        let headers = columns.map { TerminalText.truncated(TerminalText.printable($0), toWidth: maximumCellWidth) }
        let cells: [[(text: String, numeric: Bool, role: TerminalStyle.Role?)]] = rows.map { row in
            columns.indices.map { index in
                cell(index < row.count ? row[index] : nil)
            }
        }
        var widths = headers.map(TerminalText.displayWidth)
        for row in cells {
            for (index, cell) in row.enumerated() {
                widths[index] = max(widths[index], TerminalText.displayWidth(cell.text))
            }
        }
        func border(_ left: String, _ middle: String, _ right: String) -> String {
            style.apply(.border, left + widths.map { String(repeating: "─", count: $0 + 2) }.joined(separator: middle) + right)
        }
        let bar = style.apply(.border, "│")
        var lines = [border("┌", "┬", "┐")]
        lines.append(bar + headers.enumerated().map { index, header in
            " " + style.apply(.header, TerminalText.padded(header, toWidth: widths[index])) + " "
        }.joined(separator: bar) + bar)
        lines.append(border("├", "┼", "┤"))
        for row in cells {
            lines.append(bar + row.enumerated().map { index, cell in
                let padding = String(repeating: " ", count: widths[index] - TerminalText.displayWidth(cell.text))
                let text = cell.role.map { style.apply($0, cell.text) } ?? cell.text
                return " " + (cell.numeric ? padding + text : text + padding) + " "
            }.joined(separator: bar) + bar)
        }
        lines.append(border("└", "┴", "┘"))
        return lines.joined(separator: "\n")
    }

    private func cell(_ value: JSONValue?) -> (text: String, numeric: Bool, role: TerminalStyle.Role?) {
        guard let value else { return ("", false, nil) }
        let text: String
        var numeric = false
        var role: TerminalStyle.Role?
        switch value {
        case .null:
            text = "null"
            role = .null
        case .string(let s):
            text = s
        case .integer, .double:
            text = JSONText().string(value)
            numeric = true
        case .bool(let b):
            text = b ? "true" : "false"
        case .array, .object:
            text = JSONText(options: .spaced).string(value)
        }
        return (TerminalText.truncated(TerminalText.printable(text), toWidth: maximumCellWidth), numeric, role)
    }
}
