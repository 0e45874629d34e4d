import DocStore
import OrderedCollections

/// `.mode json`: one JSON array, its elements pretty-printed (rows as objects
/// keyed by column, missing cells left out).
struct JSONArrayFormatter: ResultFormatter {
    let columns: [String]?
    let style: TerminalStyle
    private var started = false
    private var afterGap = false

    init(columns: [String]?, style: TerminalStyle) {
        self.columns = columns
        self.style = style
    }

    func begin(into out: inout OutputBuffer) throws {
        try out.append("[")
    }

    mutating func write(_ item: ResultItem, into out: inout OutputBuffer) throws {
        var text = started && !afterGap ? ",\n  " : "\n  "
        started = true
        afterGap = false
        JSONText(options: .pretty, style: style).write(try item.value(columns: columns), into: &text, indent: 1)
        try out.append(text)
    }

    /// `⋮` as an element of its own, after the comma of the one before.
    mutating func writeGap(omitted: Int, into out: inout OutputBuffer) throws {
        try out.append((started ? "," : "") + "\n  " + style.apply(.dim, "⋮"))
        started = true
        afterGap = true
    }

    func end(count: Int, into out: inout OutputBuffer) throws {
        try out.append(started ? "\n]\n" : "]\n")
    }
}

/// `.mode ndjson`: one compact JSON value per line.
///
/// A stored document goes out as its stored text when that is one plain line
/// (checked, not trusted: ``DocumentCollection/storedDocumentIsPlain(_:collection:key:)``
/// validates it, so a damaged document is still an error naming its key): no
/// decoding and re-encoding, which is most of the time NDJSON output takes.
struct NDJSONFormatter: ResultFormatter {
    let columns: [String]?
    let style: TerminalStyle

    func begin(into out: inout OutputBuffer) throws {}

    func write(_ item: ResultItem, into out: inout OutputBuffer) throws {
        if !style.enabled, case .stored(let key, let collection, let text) = item,
           try DocumentCollection<JSONValue>.storedDocumentIsPlain(text, collection: collection, key: key) {
            try out.append(text)
            out.append(byte: 0x0A)
            return
        }
        try out.append(JSONText(style: style).string(try item.value(columns: columns)) + "\n")
    }

    func writeGap(omitted: Int, into out: inout OutputBuffer) throws {
        try out.append(style.apply(.dim, "⋮") + "\n")
    }

    func end(count: Int, into out: inout OutputBuffer) throws {}
}

/// `.mode line`: `field = value` lines, names right-aligned as SQLite's line
/// mode does, a blank line between documents.
struct LineFormatter: ResultFormatter {
    let columns: [String]?
    let style: TerminalStyle
    private var started = false

    init(columns: [String]?, style: TerminalStyle) {
        self.columns = columns
        self.style = style
    }

    func begin(into out: inout OutputBuffer) throws {}

    mutating func write(_ item: ResultItem, into out: inout OutputBuffer) throws {
        let record = Self.record(try item.value(columns: columns), style: style)
        try out.append((started ? "\n" : "") + record + "\n")
        started = true
    }

    /// `⋮` as a record of its own, between blank lines.
    mutating func writeGap(omitted: Int, into out: inout OutputBuffer) throws {
        try out.append((started ? "\n" : "") + style.apply(.dim, "⋮") + "\n")
        started = true
    }

    func end(count: Int, into out: inout OutputBuffer) throws {}

    static func record(_ document: JSONValue, style: TerminalStyle) -> String {
        guard case .object(let members) = document else { return "value = " + plain(document, style: style) }
        let width = members.keys.map { TerminalText.displayWidth(TerminalText.printable($0)) }.max() ?? 0
        return members.map { key, value in
            let name = TerminalText.printable(key)
            return String(repeating: " ", count: width - TerminalText.displayWidth(name)) + style.apply(.key, name) + " = " + plain(value, style: style)
        }.joined(separator: "\n")
    }

    /// A value as a person reads it: strings without quotes, the rest as JSON.
    static func plain(_ value: JSONValue, style: TerminalStyle) -> String {
        if case .string(let s) = value { return TerminalText.printable(s) }
        return JSONText(options: .spaced, style: style).string(value)
    }
}
