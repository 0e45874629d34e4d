import DocStore
import Foundation
import Testing
@testable import DocStoreREPL

/// A real full disk, made with SQLite's `max_page_count` on the writer: an
/// import that runs out of room must leave every collection exactly as it was
/// and say so, with or without `--skip-bad`, into a new or an existing collection.
@Suite("Fault: disk full during .import")
struct DiskFullImportTests {
    let directory: URL
    let removal: RemovedOnRelease
    let store: DocumentStore
    /// Documents stored before the import, by collection.
    let before: [String: [JSONValue]]

    init() throws {
        directory = try temporaryDirectory()
        removal = RemovedOnRelease(directory)
        store = try DocumentStore(path: directory.appendingPathComponent("full.sqlite").path)
        try store.collection(named: "players").insert(contentsOf: (1...20).map { ["id": .integer($0), "name": .string("player \($0)")] })
        try store.collection(named: "kept").insert(contentsOf: (1...5).map { ["id": .integer($0), "note": "untouched"] })
        before = ["players": try store.collection(named: "players").all(), "kept": try store.collection(named: "kept").all()]
        // Room for a few more pages, far fewer than the import needs.
        try store.databaseWriter.write { db in
            let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            try db.execute(sql: "PRAGMA max_page_count = \(pages + 8)")
        }
    }

    /// An NDJSON file of `count` documents with keys from 1001; with `badLines`,
    /// line 5 repeats the key of line 1, line 150 the key of a document
    /// `players` holds, and line 160 is not JSON.
    func bigFile(count: Int = 4000, badLines: Bool = false) throws -> String {
        let padding = String(repeating: "x", count: 200)
        let lines = (1...count).map { line in
            switch (badLines, line) {
            case (true, 5): "{\"id\": 1001}"
            case (true, 150): "{\"id\": 1}"
            case (true, 160): "{\"id\": oops}"
            default: "{\"id\": \(1000 + line), \"text\": \"\(padding) \(line)\"}"
            }
        }
        let path = directory.appendingPathComponent("big.ndjson").path
        try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    func importError(into collection: String, _ options: ImportOptions, file: String) -> String? {
        var importer = Importer(store: store, collection: collection, options: options)
        importer.batchSize = 100
        do {
            let report = try importer.importFile(atPath: file)
            Issue.record("the import succeeded: \(report.summary)")
            return nil
        } catch {
            return "\(error)"
        }
    }

    func expectUnchanged(_ collections: [String]) throws {
        for name in collections {
            let stored = try store.collection(named: name).all()
            #expect(stored.count == (before[name]?.count ?? 0), "\(name) holds \(stored.count) documents")
            #expect(stored == (before[name] ?? []), "\(name) changed")
        }
        #expect(try store.collections().map(\.name).sorted() == before.keys.sorted())
    }

    @Test(arguments: [false, true], ["players", "fresh"])
    func aFullDiskImportsNothingAndSaysSo(skipBad: Bool, collection: String) throws {
        let file = try bigFile(badLines: skipBad)
        let message = try #require(importError(into: collection, ImportOptions(skipBad: skipBad), file: file))
        #expect(message.contains("disk full after "), "\(message)")
        #expect(message.contains("nothing was imported, \(collection) is unchanged"), "\(message)")
        // How far it got: some documents, not all.
        let digits = message.split(separator: "after ").last?.prefix { $0.isNumber || $0 == " " }
            .filter(\.isNumber) ?? ""
        let count = try #require(Int(String(digits)), "\(message)")
        #expect(count > 0 && count < 4000, "\(message)")
        try expectUnchanged(["players", "kept"])
    }

    /// The real executable, its file size capped (`ulimit -f`, with SIGXFSZ
    /// ignored so that writes fail instead of killing it): the write failure
    /// stops the import whole, and a new process finds the store as it was.
    @Test func theExecutableKeepsTheStoreWholeWhenWritesFail() throws {
        let path = directory.appendingPathComponent("capped.sqlite").path
        let binary = try docstoreBinary().path
        let setup = try runProcess(URL(fileURLWithPath: binary), [path, "-c", #"players.insert([{"id": 1, "name": "a"}, {"id": 2, "name": "b"}])"#])
        #expect(setup.status == 0, "\(setup.stderr)")
        let file = try bigFile()
        let capped = try runProcess(URL(fileURLWithPath: "/bin/bash"),
                                    ["-c", #"ulimit -f 300; trap '' XFSZ; exec "$0" "$1" -c ".import players $2""#, binary, path, file])
        #expect(capped.status == 1)
        #expect(capped.stderr.contains("nothing was imported, players is unchanged"), "\(capped.stderr)")
        let after = try runProcess(URL(fileURLWithPath: binary), [path, "--mode", "ndjson", "-c", "players.keys()"])
        #expect(after.stdout == "[1,2]\n", "\(after.stdout)\(after.stderr)")
    }
}
