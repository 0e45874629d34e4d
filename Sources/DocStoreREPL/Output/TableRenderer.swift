@_spi(Backends) import DocStore

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
    /// The widest the whole table may be (the terminal's width), or nil. Text
    /// columns, the widest first, are narrowed to fit (cut with …), never below
    /// their header's width; numbers are never cut. A table that can't fit that
    /// way is printed at its natural width.
    var maximumWidth: Int?

    /// Documents as a table: one column per member, in the order members first
    /// appear (document key order); a non-object document goes in a `value` column.
    /// Names are told apart by their bytes, as in ``ResultColumns``.
    func render(documents: [JSONValue]) -> String {
        var columns: [String] = []
        var columnOfName: [ExactText: Int] = [:]
        func add(_ name: String) {
            guard columnOfName[ExactText(name)] == nil else { return }
            columnOfName[ExactText(name)] = columns.count
            columns.append(name)
        }
        var hasScalars = false
        for document in documents {
            if case .object(let members) = document {
                for key in members.keys { add(key) }
            } else {
                hasScalars = true
            }
        }
        if hasScalars { add("value") }
        let rows: [[JSONValue?]] = documents.map { document in
            var row = [JSONValue?](repeating: nil, count: columns.count)
            if case .object(let members) = document {
                for (name, value) in members {
                    if let column = columnOfName[ExactText(name)] { row[column] = value }
                }
            } else if let column = columnOfName[ExactText("value")] {
                row[column] = document
            }
            return row
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
        if let maximumWidth {
            let floors = columns.indices.map { index in
                cells.allSatisfy { $0[index].numeric || $0[index].text.isEmpty }
                    ? widths[index] : min(widths[index], max(TerminalText.displayWidth(headers[index]), 6))
            }
            // Each column takes its width, a space either side and a bar; plus the last bar.
            widths = Self.narrowed(widths, floors: floors, toTotal: maximumWidth - 3 * widths.count - 1) ?? widths
        }
        func border(_ left: String, _ middle: String, _ right: String) -> String {
            style.apply(.border, left + widths.map { String(repeating: "─", count: $0 + 2) }.joined(separator: middle) + right)
        }
        let bar = style.apply(.border, "│")
        var lines = [border("┌", "┬", "┐")]
        lines.append(bar + headers.enumerated().map { index, header in
            " " + style.apply(.header, TerminalText.padded(TerminalText.truncated(header, toWidth: widths[index]), toWidth: widths[index])) + " "
        }.joined(separator: bar) + bar)
        lines.append(border("├", "┼", "┤"))
        for row in cells {
            lines.append(bar + row.enumerated().map { index, cell in
                let shown = TerminalText.truncated(cell.text, toWidth: widths[index])
                let padding = String(repeating: " ", count: max(0, widths[index] - TerminalText.displayWidth(shown)))
                let text = cell.role.map { style.apply($0, shown) } ?? shown
                return " " + (cell.numeric ? padding + text : text + padding) + " "
            }.joined(separator: bar) + bar)
        }
        lines.append(border("└", "┴", "┘"))
        return lines.joined(separator: "\n")
    }

    /// `widths` with the widest narrowed, one cell at a time, until their sum
    /// is at most `total`; nil when that would take a column below its floor.
    static func narrowed(_ widths: [Int], floors: [Int], toTotal total: Int) -> [Int]? {
        var widths = widths
        var excess = widths.reduce(0, +) - total
        while excess > 0 {
            guard let widest = widths.indices.filter({ widths[$0] > floors[$0] }).max(by: { widths[$0] < widths[$1] }) else {
                return nil
            }
            widths[widest] -= 1
            excess -= 1
        }
        return widths
    }

    func cell(_ value: JSONValue?) -> (text: String, numeric: Bool, role: TerminalStyle.Role?) {
        let cell = measuredCell(value)
        return (cell.text, cell.numeric, cell.role)
    }

    /// A cell's text as shown, and its width in terminal cells.
    func measuredCell(_ value: JSONValue?) -> (text: String, width: Int, numeric: Bool, role: TerminalStyle.Role?) {
        guard let value else { return ("", 0, false, nil) }
        let text: String
        var numeric = false
        var role: TerminalStyle.Role?
        switch value {
        case .null:
            text = "null"
            role = .null
        case .string(let s):
            text = s
        case .integer(let i):
            text = String(i)
            numeric = true
        case .double, .exactNumber:
            text = JSONText().string(value)
            numeric = true
        case .bool(let b):
            text = b ? "true" : "false"
        case .array, .object:
            text = JSONText(options: .spaced).string(value)
        }
        // Printable ASCII (most cells) needs no cleaning, and its width is its length.
        if TerminalText.isPlainASCII(text) {
            let width = text.utf8.count
            if width <= maximumCellWidth { return (text, width, numeric, role) }
        }
        let shown = TerminalText.truncated(TerminalText.printable(text), toWidth: maximumCellWidth)
        return (shown, TerminalText.displayWidth(shown), numeric, role)
    }
}
