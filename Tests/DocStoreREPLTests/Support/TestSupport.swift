import DocStore
import Foundation
@testable import DocStoreREPL

/// The sample store's schema, as sampling would find it.
let sampleSchema = StaticSchema([
    "players": [
        FieldPath("id"): ["integer"], FieldPath("teamId"): ["integer"], FieldPath("firstName"): ["text"],
        FieldPath("lastName"): ["text"], FieldPath("number"): ["integer"], FieldPath("position"): ["text"],
        FieldPath("nickname"): ["text"], FieldPath("tags"): ["array"], FieldPath("stats"): ["object"],
        FieldPath("stats", "battingAverage"): ["real"], FieldPath("stats", "homeRuns"): ["integer"],
    ],
    "teams": [
        FieldPath("id"): ["integer"], FieldPath("city"): ["text"], FieldPath("nickName"): ["text"],
        FieldPath("abbreviation"): ["text"],
    ],
])

/// Parses with the sample schema.
func parse(_ text: String) throws(REPLSyntaxError) -> REPLCommand {
    try CommandParser.parse(text, schema: sampleSchema).command
}

/// The error parsing `text` gives, or nil when it parses.
func parseError(_ text: String) -> REPLSyntaxError? {
    do {
        _ = try CommandParser.parse(text, schema: sampleSchema)
        return nil
    } catch {
        return error
    }
}

/// The query of a parsed `players…` chain.
func playersQuery(_ condition: Condition = .always, sort: [SortKey] = [], limit: Int? = nil, offset: Int? = nil,
                  _ action: QueryAction = .fetch) -> REPLCommand {
    .query(collection: "players", DocumentQuery(condition, sort: sort, limit: limit, offset: offset), action)
}

/// A new temporary directory, removed by the caller (a `defer` in a test, a
/// ``RemovedOnRelease`` in a suite that makes it in `init`).
func temporaryDirectory() throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("docstore-repl-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
}

/// Removes a directory when released: a suite that makes its directory in
/// `init` keeps one, and the directory goes with the suite's instance after
/// each test, passed or failed (such suites left hundreds in /tmp a day).
final class RemovedOnRelease: Sendable {
    let directory: URL

    init(_ directory: URL) {
        self.directory = directory
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }
}

/// A session on an in-memory store with the sample data, capturing output.
final class SessionHarness {
    let store: DocumentStore
    let output = StringOutput()
    let errors = StringOutput()
    let session: REPLSession

    init(interactive: Bool = true, sample: Bool = true, store: DocumentStore? = nil, displayLimit: Int? = nil) throws {
        let store = try store ?? DocumentStore.inMemory()
        if sample { try SampleData.load(into: store) }
        self.store = store
        session = REPLSession(store: store, output: output, errors: errors,
                              options: .init(interactive: interactive, displayLimit: displayLimit))
    }

    /// Feeds lines; returns the last result.
    @discardableResult
    func feed(_ lines: String...) -> REPLSession.FeedResult {
        var result = REPLSession.FeedResult.done
        for line in lines { result = session.feed(line) }
        return result
    }
}

/// The package's root directory (for the built binary and the shared data).
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

/// An unfiltered `players…` chain ending in `action`.
func playersQuery(_ action: QueryAction) -> REPLCommand {
    .query(collection: "players", DocumentQuery(), action)
}
