import CJanssonBench
import DocStore
import Foundation
import GRDBSQLite

/// A scouting note of W10: 50 words of text.
@Document
struct SearchNote: Codable, Identifiable {
    var id: Int
    var text: String
}

/// W10, full-text search (issue 14): N notes of 50 words each, a search index on
/// their text, then two-word queries, each run `rounds` times, results decoded:
///
/// - `docstore`: `notes.filter { $0.text.matches("home run") }.fetch()`, and the
///   same query as a brute-force scan (`$0.text.contains("home run")`: case-
///   sensitive substrings, the only search there was before);
/// - `sqlite-c`: the same FTS5 table shape (external content, unicode61 with
///   remove_diacritics 2) created by hand, queried by hand through the C API,
///   `SELECT n.body FROM fts JOIN notes AS n ON n.key = fts.rowid WHERE fts MATCH ?
///   ORDER BY n.key`, each body parsed by libjansson.
enum SearchBenchmark {
    static let wordsPerNote = 50
    static let queries = ["home run", "stolen base", "curve ball", "left field", "double play"]
    static let rounds = 20

    /// A deterministic vocabulary: baseball words first (the queries'), then made-up ones.
    static let vocabulary: [String] = {
        let words = ["home", "run", "stolen", "base", "curve", "ball", "left", "field", "double", "play",
                     "pitch", "swing", "hit", "catch", "throw", "inning", "strike", "walk", "fast", "slider"]
        let syllables = ["ka", "lo", "mi", "ra", "te", "su", "no", "vi", "de", "pa", "go", "ze"]
        var made: [String] = []
        for a in syllables { for b in syllables { for c in syllables { made.append(a + b + c) } } }
        return words + made  // 20 + 1 728 words
    }()

    /// Note `i`'s text: 50 words drawn uniformly from the vocabulary, so a word is in
    /// about 3% of the notes and a two-word query matches about 0.1% (some 80 notes).
    static func text(_ i: Int) -> String {
        var state = UInt64(i) &* 0x9E37_79B9_7F4A_7C15
        var words: [String] = []
        words.reserveCapacity(wordsPerNote)
        for _ in 0..<wordsPerNote {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let u = Double(state >> 11) / Double(1 << 53)
            words.append(vocabulary[Int(Double(vocabulary.count) * u)])
        }
        return words.joined(separator: " ")
    }

    struct Result {
        var lines: [String]
        var docstoreSeconds: Double
        var cSeconds: Double
        var scanSeconds: Double
    }

    static func run(n: Int, directory: URL, timeMode: TimeMode) throws -> Result {
        let notes = (1...n).map { SearchNote(id: $0, text: text($0)) }
        let searches = queries.count * rounds
        var lines: [String] = []
        func line(_ id: String, _ name: String, count: Int, seconds: Double, perQuery: Int?) {
            var text = Measurement(id: id, name: name, count: count, seconds: seconds).line
            if let perQuery { text += " ms_per_query=" + String(format: "%.3f", seconds * 1000 / Double(perQuery)) }
            lines.append(text)
        }

        // DocStore.
        let docstorePath = directory.appendingPathComponent("search-docstore.sqlite").path
        let store = try DocumentStore(path: docstorePath)
        let collection = store.collection(SearchNote.self, named: "notes")
        try collection.insert(contentsOf: notes)
        let (_, indexSeconds) = try Clock.time(timeMode) { try collection.createSearchIndex(on: \.text) }
        var docstoreMatches = 0
        let (_, docstoreSeconds) = try Clock.time(timeMode) {
            for _ in 0..<rounds {
                for query in queries { docstoreMatches += try collection.filter { $0.text.matches(query) }.fetch().count }
            }
        }
        var scanMatches = 0
        let (_, scanSeconds) = try Clock.time(timeMode) {
            for query in queries { scanMatches += try collection.filter { $0.text.contains(query) }.fetch().count }
        }
        lines.append("# search docstore")
        line("W10i", "search-index", count: n, seconds: indexSeconds, perQuery: nil)
        line("W10", "search", count: docstoreMatches, seconds: docstoreSeconds, perQuery: searches)
        line("W10s", "search-scan", count: scanMatches, seconds: scanSeconds, perQuery: queries.count)
        try store.close()

        // FTS5 by hand through the C API.
        let cPath = directory.appendingPathComponent("search-c.sqlite").path
        let db = try SQLiteConnection(path: cPath)
        defer { db.close() }
        try db.execute("PRAGMA journal_mode = WAL")
        try db.execute("PRAGMA synchronous = NORMAL")
        try db.execute("CREATE TABLE notes (key INTEGER PRIMARY KEY, body TEXT NOT NULL)")
        let insert = try db.prepare("INSERT INTO notes (key, body) VALUES (?, json_object('id', ?, 'text', ?))")
        try db.execute("BEGIN IMMEDIATE")
        for note in notes {
            insert.bind(note.id, at: 1)
            insert.bind(note.id, at: 2)
            try Array(note.text.utf8).withUnsafeBufferPointer { bytes in
                insert.bindStatic(bytes, at: 3)
                _ = try insert.step()
            }
            insert.reset()
        }
        try db.execute("COMMIT")
        let (_, cIndexSeconds) = try Clock.time(timeMode) {
            try db.execute("""
                CREATE VIRTUAL TABLE fts USING fts5(text, content='notes_text', content_rowid='key', tokenize='unicode61 remove_diacritics 2');
                CREATE VIEW notes_text AS SELECT key, json_extract(body, '$.text') AS text FROM notes;
                INSERT INTO fts(fts) VALUES ('rebuild');
                """)
        }
        let select = try db.prepare("SELECT n.body FROM fts JOIN notes AS n ON n.key = fts.rowid WHERE fts MATCH ? ORDER BY n.key")
        var cMatches = 0
        let (_, cSeconds) = try Clock.time(timeMode) {
            for _ in 0..<rounds {
                for query in queries {
                    try Array(query.utf8).withUnsafeBufferPointer { bytes in
                        select.bindStatic(bytes, at: 1)
                        while try select.step() {
                            _ = try decode(select.text(at: 0))
                            cMatches += 1
                        }
                        select.reset()
                    }
                }
            }
        }
        lines.append("# search sqlite-c")
        line("W10i", "search-index", count: n, seconds: cIndexSeconds, perQuery: nil)
        line("W10", "search", count: cMatches, seconds: cSeconds, perQuery: searches)
        if cMatches != docstoreMatches {
            Output.note("CHECK FAILED: W10 docstore found \(docstoreMatches) notes, sqlite-c \(cMatches)")
        }
        return Result(lines: lines, docstoreSeconds: docstoreSeconds, cSeconds: cSeconds,
                      scanSeconds: scanSeconds / Double(queries.count) * Double(searches))
    }

    /// A note's body parsed by libjansson into the model.
    private static func decode(_ bytes: UnsafeRawBufferPointer) throws -> SearchNote {
        guard let base = bytes.baseAddress,
              let root = json_loadb(base.assumingMemoryBound(to: CChar.self), bytes.count, 0, nil) else {
            throw BenchmarkError("libjansson: a note that isn't JSON")
        }
        defer { json_decref(root) }
        guard let id = json_object_get(root, "id"), let text = json_object_get(root, "text"),
              let characters = json_string_value(text) else {
            throw BenchmarkError("libjansson: a note without id or text")
        }
        return SearchNote(id: Int(json_integer_value(id)),
                          text: String(decoding: UnsafeRawBufferPointer(start: characters, count: json_string_length(text)), as: UTF8.self))
    }

    /// The stderr summary: time per query, the ratios, and the issue's target.
    static func summary(_ result: Result) -> String {
        let searches = Double(queries.count * rounds)
        let ratio = result.docstoreSeconds / max(result.cSeconds, 1e-9)
        let scanRatio = result.scanSeconds / max(result.docstoreSeconds, 1e-9)
        return """
            W10 full-text search, \(queries.count) two-word queries x \(rounds):
              docstore \(String(format: "%.3f", result.docstoreSeconds * 1000 / searches)) ms/query, \
            FTS5 by hand \(String(format: "%.3f", result.cSeconds * 1000 / searches)) ms/query, \
            brute-force contains scan \(String(format: "%.3f", result.scanSeconds * 1000 / searches)) ms/query (\(String(format: "%.0f", scanRatio))x slower than the index)
              W10 docstore / FTS5 by hand = \(String(format: "%.2f", ratio))x (target <= 1.2x: \(ratio <= 1.2 ? "met" : "MISSED"))
            """
    }
}
