import DocStore
import Foundation
import GRDB
import Testing

/// A store file whose pages are damaged (bytes overwritten behind DocStore's
/// back, as a failing disk or a stray write does) must not hide the data that
/// is still there: `.check` reports which collection is damaged and checks the
/// others, `.collections` lists them all, and `docstore copy --salvage` copies
/// every document SQLite can still read, stepping over the damaged page, and
/// lists what it could not.
@Suite("Fault: damaged pages of a store file")
struct DamagedPagesTests {
    static let documentCount = 3_000

    /// A store with `events` (3 000 documents of about 250 bytes, keys of
    /// `kind`) and `teams` (20), and one leaf page in the middle of `events`'s
    /// table overwritten with garbage. Returns the documents as they were.
    func makeDamagedStore(stringKeys: Bool) throws -> (path: String, directory: URL, events: [DocumentKey: JSONValue]) {
        let directory = try temporaryDirectory()
        let path = directory.appendingPathComponent("damaged.sqlite").path
        var events: [DocumentKey: JSONValue] = [:]
        do {
            let store = try DocumentStore(path: path)
            let collection = store.collection(named: "events")
            let documents: [JSONValue] = (0..<Self.documentCount).map { index in
                let id: JSONValue = stringKeys ? .string("event-\(String(index * 7919 % 100_000, radix: 36))") : .integer(Int64(index * 3))
                return ["id": id, "n": .integer(Int64(index)), "text": .string(String(repeating: "e", count: 200))]
            }
            for (key, document) in zip(try collection.insert(contentsOf: documents), documents) { events[key] = document }
            try store.collection(named: "teams").insert(contentsOf: (1...20).map { ["id": .integer(Int64($0))] })
            // Everything into the main file, so that damaging it damages the data.
            _ = try store.databaseWriter.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
            try store.close()
        }
        let (page, pageSize) = try DatabaseQueue(path: path).read { db in
            let leaves = try Int.fetchAll(db, sql: "SELECT pageno FROM dbstat WHERE name = 'events' AND pagetype = 'leaf' ORDER BY pageno")
            return (leaves[leaves.count / 2], try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 4096)
        }
        let file = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try file.seek(toOffset: UInt64((page - 1) * pageSize))
        try file.write(contentsOf: Data(repeating: 0xDE, count: pageSize))
        try file.close()
        return (path, directory, events)
    }

    /// SQLite's order of two keys of one collection (integers, or text by its bytes).
    func precedes(_ a: DocumentKey, _ b: DocumentKey) -> Bool {
        switch (a, b) {
        case let (.integer(x), .integer(y)): x < y
        default: a.description.utf8.lexicographicallyPrecedes(b.description.utf8)
        }
    }

    @Test(arguments: [false, true])
    func aSalvageReadsEveryDocumentButThoseOnTheDamagedPage(stringKeys: Bool) throws {
        let (path, directory, events) = try makeDamagedStore(stringKeys: stringKeys)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try DocumentStore(path: path, readOnly: true)
        defer { try? store.close() }
        // Reading the whole collection stops at the damaged page.
        #expect(throws: DocStoreError.self) { try store.collection(named: "events").all() }

        var salvaged: [DocumentKey: JSONValue] = [:]
        let result = try store.salvageDocuments(of: "events") { key, text in
            salvaged[key] = try DocumentCollection<JSONValue>.parseStoredDocument(text, collection: "events", key: key)
        }
        #expect(result.documents == salvaged.count)
        for (key, document) in salvaged {
            #expect(events[key] == document, "document \(key) is read as it was written")
        }
        let lost = Set(events.keys).subtracting(salvaged.keys)
        // One 4 KiB leaf holds about 15 of these documents (a key in the table's interior page beside it may go too).
        #expect(!lost.isEmpty && lost.count <= 20, "lost \(lost.count) of \(Self.documentCount)")
        #expect(result.gaps.count == 1, "\(result.gaps)")
        for key in lost {
            #expect(result.gaps.contains { gap in
                (gap.after.map { precedes($0, key) } ?? true) && (gap.before.map { precedes(key, $0) } ?? true)
            }, "the lost document \(key) lies inside a reported gap")
        }
        // A sound collection is read whole.
        let teams = try store.salvageDocuments(of: "teams") { _, _ in }
        #expect(teams.documents == 20 && teams.isComplete)
    }

    @Test func checkNamesTheDamagedCollectionAndStillChecksTheOthers() throws {
        let (path, directory, _) = try makeDamagedStore(stringKeys: false)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try DocumentStore(path: path, readOnly: true)
        defer { try? store.close() }
        let report = try store.check()
        #expect(!report.isHealthy)
        #expect(report.integrityCheck != ["ok"])
        let events = try #require(report.collections.first { $0.collection == "events" })
        #expect(events.hasDamagedPages && events.readFailure != nil && !events.pageDamage.isEmpty)
        #expect(events.documentCount > 0 && events.documentCount < Self.documentCount)
        let teams = try #require(report.collections.first { $0.collection == "teams" })
        #expect(teams.isHealthy && teams.documentCount == 20)
        #expect(report.description.contains("docstore copy --salvage"), "\(report)")
        #expect(try !store.check(collection: "events").isHealthy)
        #expect(try store.check(collection: "teams").isHealthy)
    }

    @Test func theShellListsCollectionsChecksAndSalvagesADamagedFile() throws {
        let (path, directory, events) = try makeDamagedStore(stringKeys: false)
        defer { try? FileManager.default.removeItem(at: directory) }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let binary = try docstoreBinary()

        let listing = try runProcess(binary, [path, "--read-only", "-c", ".collections"])
        #expect(listing.status == 0, "\(listing.stderr)")
        #expect(listing.stdout.contains("teams") && listing.stdout.contains("20 documents"), "\(listing.stdout)")
        #expect(listing.stdout.contains("events") && listing.stdout.contains("damaged pages"), "\(listing.stdout)")

        let check = try runProcess(binary, [path, "--read-only", "-c", ".check"])
        #expect(check.status == 1, "damage fails the check: \(check.stderr)")
        #expect(check.stderr.contains(".check found problems (the report above)"), "\(check.stderr)")
        #expect(check.stdout.contains("no damaged documents in teams (20 documents checked)"), "\(check.stdout)")
        #expect(check.stdout.contains("damaged pages (events)"), "\(check.stdout)")

        // A plain copy refuses the damaged collection and says what to do.
        let plainPath = directory.appendingPathComponent("plain.sqlite").path
        let plain = try runProcess(binary, ["copy", path, plainPath])
        #expect(plain.status == 1)
        #expect(plain.stderr.contains("docstore copy --salvage"), "\(plain.stderr)")
        // The store file the failed copy created is gone (an empty store was
        // left behind); an existing destination stays, as it was.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("plain.sqlite") }.isEmpty)
        #expect(plain.stderr.contains("removed \(plainPath), which this copy had created"), "\(plain.stderr)")
        // A new store holding documents stays: a collection copied before the
        // failure, or another process's writes into it meanwhile (removing it
        // lost those, helper-44); and a link is never removed.
        let partial = directory.appendingPathComponent("partial.sqlite").path
        let source = directory.appendingPathComponent("source.sqlite").path
        try runProcess(binary, [source, "-c", #"a.insert({"id": 1})"#, "-c", #"z.insert([{"id": 1}, {"id": 2}])"#]).expectSuccess()
        let tool = try DatabaseQueue(path: source)
        try tool.write { db in try db.execute(sql: #"UPDATE z SET body = '{"id": 2, broken' WHERE key = 2"#) }
        try tool.close()
        #expect(try runProcess(binary, ["copy", source, partial]).status == 1)
        #expect(try runProcess(binary, [partial, "-c", "a.count()"]).stdout == "1\n", "the copied collection stays")
        let link = directory.appendingPathComponent("link.sqlite").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: directory.appendingPathComponent("target.sqlite").path)
        #expect(try runProcess(binary, ["copy", path, link]).status == 1)
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) != nil, "the link stays")
        let existing = directory.appendingPathComponent("existing.sqlite").path
        try runProcess(binary, [existing, "-c", #"kept.insert({"id": 1})"#]).expectSuccess()
        #expect(try runProcess(binary, ["copy", path, existing]).status == 1)
        #expect(try runProcess(binary, [existing, "-c", "kept.count()"]).stdout == "1\n")

        let rescued = directory.appendingPathComponent("rescued.sqlite").path
        let salvage = try runProcess(binary, ["copy", "--salvage", path, rescued])
        #expect(salvage.status == 1, "documents were lost: \(salvage.stderr)")
        #expect(salvage.stdout.contains("teams: 20 documents"), "\(salvage.stdout)")
        #expect(salvage.stderr.contains("salvage: NOT copied"), "\(salvage.stderr)")
        #expect(salvage.stderr.contains("events: documents after key"), "\(salvage.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "the damaged file was not changed")

        // The new store is sound and holds the salvaged documents exactly.
        let store = try DocumentStore(path: rescued, readOnly: true)
        defer { try? store.close() }
        #expect(try store.check().isHealthy)
        let copied = try store.collection(named: "events").all()
        #expect(copied.count > Self.documentCount - 60 && copied.count < Self.documentCount)
        for document in copied {
            guard case .integer(let id)? = document["id"] else { Issue.record("no id in \(document)"); continue }
            #expect(events[.integer(id)] == document)
        }
    }
}
