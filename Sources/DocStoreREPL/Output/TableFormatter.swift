import DocStore

/// `.mode table`, streamed: the boxed table of ``TableRenderer``, written row
/// by row after a first pass has measured every column (see
/// ``ResultFormatter``), so that a million-row table into a file takes the
/// memory of one row and every row lines up.
///
///     ┌────┬───────────┐
///     │ id │ firstName │
///     ├────┼───────────┤
///     │ 34 │ David     │
///     └────┴───────────┘
struct TableFormatter: ResultFormatter {
    private var columns: ResultColumns
    let headers: Bool
    let style: TerminalStyle
    let maximumWidth: Int?
    let maximumCellWidth: Int?
    private var widths: [Int] = []
    /// Per column: whether every cell is a number or empty (never cut when narrowing).
    private var numeric: [Bool] = []
    private var shownWidths: [Int] = []

    init(columns: [String]?, headers: Bool, style: TerminalStyle, maximumWidth: Int?, maximumCellWidth: Int?) {
        self.columns = ResultColumns(columns)
        self.headers = headers
        self.style = style
        self.maximumWidth = maximumWidth
        self.maximumCellWidth = maximumCellWidth
    }

    private var renderer: TableRenderer {
        TableRenderer(style: style, maximumCellWidth: maximumCellWidth ?? Int.max, maximumWidth: maximumWidth)
    }

    var needsFirstPass: Bool { true }

    mutating func measure(_ item: ResultItem) throws {
        let cells = try columns.add(item)
        while widths.count < cells.count {
            widths.append(0)
            numeric.append(true)
        }
        let renderer = renderer
        for (index, value) in cells.enumerated() {
            let cell = renderer.measuredCell(value)
            widths[index] = max(widths[index], cell.width)
            if !cell.numeric, cell.width > 0 { numeric[index] = false }
        }
    }

    mutating func begin(into out: inout OutputBuffer) throws {
        guard !columns.names.isEmpty else { return }
        let renderer = renderer
        let headerTexts = columns.names.map { TerminalText.truncated(TerminalText.printable($0), toWidth: renderer.maximumCellWidth) }
        while widths.count < headerTexts.count {
            widths.append(0)
            numeric.append(true)
        }
        shownWidths = headers ? zip(widths, headerTexts).map { max($0, TerminalText.displayWidth($1)) } : widths
        if let maximumWidth {
            let floors = shownWidths.indices.map { index in
                numeric[index] ? shownWidths[index]
                    : min(shownWidths[index], max(headers ? TerminalText.displayWidth(headerTexts[index]) : 0, 6))
            }
            // Each column takes its width, a space either side and a bar; plus the last bar.
            shownWidths = TableRenderer.narrowed(shownWidths, floors: floors, toTotal: maximumWidth - 3 * shownWidths.count - 1) ?? shownWidths
        }
        try out.append(border("┌", "┬", "┐"))
        guard headers else { return }
        let bar = style.apply(.border, "│")
        try out.append(bar + headerTexts.enumerated().map { index, header in
            " " + style.apply(.header, TerminalText.padded(TerminalText.truncated(header, toWidth: shownWidths[index]), toWidth: shownWidths[index])) + " "
        }.joined(separator: bar) + bar + "\n")
        try out.append(border("├", "┼", "┤"))
    }

    mutating func write(_ item: ResultItem, into out: inout OutputBuffer) throws {
        guard !columns.names.isEmpty else { return }
        let renderer = renderer
        let bar = style.apply(.border, "│")
        out.appendPart(bar)
        // Appended piece by piece: no line string built per row.
        for (index, value) in try columns.cells(of: item).enumerated() {
            let cell = renderer.measuredCell(value)
            let width = shownWidths[index]
            // Cut only when the terminal narrowed the column below the cell.
            let shown = cell.width <= width ? cell.text : TerminalText.truncated(cell.text, toWidth: width)
            let padding = width - (cell.width <= width ? cell.width : TerminalText.displayWidth(shown))
            out.append(byte: 0x20)
            if cell.numeric { out.append(spaces: padding) }
            out.appendPart(cell.role.map { style.apply($0, shown) } ?? shown)
            if !cell.numeric { out.append(spaces: padding) }
            out.append(byte: 0x20)
            out.appendPart(bar)
        }
        out.append(byte: 0x0A)
        try out.flushIfFull()
    }

    /// A row of ⋮ where rows were left out.
    func writeGap(omitted: Int, into out: inout OutputBuffer) throws {
        guard !columns.names.isEmpty else { return }
        let bar = style.apply(.border, "│")
        try out.append(bar + shownWidths.map { " " + style.apply(.dim, TerminalText.padded("⋮", toWidth: $0)) + " " }.joined(separator: bar) + bar + "\n")
    }

    var overflowsWidth: Bool {
        guard let maximumWidth, !shownWidths.isEmpty else { return false }
        return shownWidths.reduce(0, +) + 3 * shownWidths.count + 1 > maximumWidth
    }

    func end(count: Int, into out: inout OutputBuffer) throws {
        guard !columns.names.isEmpty else { return }
        try out.append(border("└", "┴", "┘"))
    }

    private func border(_ left: String, _ middle: String, _ right: String) -> String {
        style.apply(.border, left + shownWidths.map { String(repeating: "─", count: $0 + 2) }.joined(separator: middle) + right) + "\n"
    }
}
