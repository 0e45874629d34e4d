import DocStore
import Foundation
import GRDB
import OrderedCollections
import Testing
@testable import DocStoreREPL

extension PostgresREPLTests {
    /// `docstore copy SOURCE DEST` between DocStore files and PostgreSQL.
    @Suite("docstore copy")
    struct CopyTests {
        static let uuid = UUID(uuidString: "7D444840-9DC0-11D1-B245-5FFDCE74FAD2")!

        /// A file store with collections of every key kind, an empty one,
        /// nested values, numbers beyond Int64, indexes and key/value entries.
        static func makeSource(at path: String) throws {
            let store = try DocumentStore(path: path)
            let players = store.collection(named: "players")
            try players.insert(contentsOf: (1...2500).map(Self.player))
            _ = try players.createIndex(on: [FieldPath("team")])
            _ = try players.createIndex(on: [FieldPath("name")], unique: true)
            _ = try players.createSearchIndex(on: [FieldPath("name")])
            _ = try players.createFieldColumns(on: [FieldPath("team")])
            let huge = try #require(JSONNumberLiteral("123456789012345678901234567890"))
            try store.collection(named: "teams").insert(contentsOf: [
                ["id": "BOS", "city": "Boston", "founded": 1901, "huge": .exactNumber(huge)],
                ["id": "NYY", "city": "New York", "founded": .null],
            ])
            let sessions = store.collection(named: "sessions")
            try sessions.createIfMissing(keyKind: .uuid)
            try sessions.insert(["id": .string(Self.uuid.uuidString), "user": "ann"])
            try store.collection(named: "empty").createIfMissing(keyKind: .string)
            // What COPY's text format escapes, in keys, documents and the
            // collection's name (a quote, which the table name doubles).
            try store.collection(named: #"q"k"#).insert(contentsOf: ["tab\there", "line\nbreak", "back\\slash\\.", #"quote"d"#, "cr\rx"].map { key -> JSONValue in
                ["id": .string(key), "text": .string(key + " \\N \u{1} \\t"), "\\": ["a\tb": .string("\\")]]
            })
            try store.values.set(["theme": "dark", "size": 12] as JSONValue, forKey: "settings")
            try store.values.set(3 as JSONValue, forKey: "version")
            try store.close()
        }

        static func player(_ number: Int) -> JSONValue {
            let stats: JSONValue = ["hr": .integer(Int64(number % 70)), "avg": .double(Double(number % 400) / 1000)]
            let tags: [JSONValue] = number % 7 == 0 ? ["star", "é🎉"] : []
            var player: OrderedDictionary<String, JSONValue> = [:]
            player["id"] = .integer(Int64(number))
            player["name"] = .string("player \(number)")
            player["team"] = .integer(Int64(number % 30))
            player["stats"] = stats
            player["tags"] = .array(tags)
            return .object(player)
        }

        /// A store's contents as a copy must keep them: each collection's key
        /// kind and documents (in key order, members sorted), and key/value entries.
        static func contents(of path: String) throws -> [String] {
            let store = try DocumentStore(path: path, readOnly: true)
            defer { try? store.close() }
            var lines: [String] = []
            for info in try store.collections() {
                lines.append("\(info.name) \(info.keyKind)")
                try store.collection(named: info.name).forEach { lines.append(JSONText(options: .sortedKeys).string($0)) }
            }
            for key in try store.values.keys() {
                lines.append("\(key) = \(JSONText(options: .sortedKeys).string(try store.values.get(key, as: JSONValue.self) ?? .null))")
            }
            return lines
        }

        @Test func aFileGoesToPostgreSQLAndBackUnchanged() throws {
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let source = directory.appendingPathComponent("source.sqlite").path
            let back = directory.appendingPathComponent("back.sqlite").path
            try Self.makeSource(at: source)
            let url = try PostgresREPLServer.freshDatabaseURL()

            let there = try runProcess(try docstoreBinary(), ["copy", source, url])
            #expect(there.status == 0, "\(there.stderr)")
            #expect(there.stdout.contains("players: 2 500 documents, checksum"), "\(there.stdout)")
            #expect(there.stdout.contains("copied 2 508 documents from \(source) to postgres://docstore@/"), "\(there.stdout)")
            #expect(there.stdout.contains("key/value area: 2 entries"), "\(there.stdout)")
            // The indexes go too; no progress bar when stderr is a pipe. Field
            // columns don't: PostgreSQL reads jsonb fields without them.
            #expect(there.stderr == "note: players's field columns (team) were not made: PostgreSQL reads fields without them\n", "\(there.stderr)")
            let indexesThere = try runProcess(try docstoreBinary(), [url, "--mode", "csv", "-c", "players.indexes()"])
            #expect(indexesThere.stdout.contains("name,true") && indexesThere.stdout.contains("team,false"), "\(indexesThere.stdout)")
            #expect(indexesThere.stdout.contains("name,false,search"), "the search index goes too: \(indexesThere.stdout)")

            // The REPL on PostgreSQL sees the copy.
            let shell = try runProcess(try docstoreBinary(), [url, "--mode", "ndjson", "-c", ".collections", "-c", #"players.filter { $0.tags.contains("é🎉") }.count()"#,
                                                              "-c", #"sessions.get("\#(Self.uuid.uuidString.lowercased())")"#])
            #expect(shell.status == 0, "\(shell.stderr)")
            #expect(shell.stdout.contains("sessions  (1 document, key: uuid)"), "\(shell.stdout)")
            #expect(shell.stdout.contains("empty     (0 documents, key: string)"), "\(shell.stdout)")
            #expect(shell.stdout.contains("\n357\n"), "\(shell.stdout)")
            #expect(shell.stdout.contains(#""user":"ann""#), "\(shell.stdout)")

            let home = try runProcess(try docstoreBinary(), ["copy", url, back])
            #expect(home.status == 0, "\(home.stderr)")
            #expect(try Self.contents(of: back) == Self.contents(of: source))
            let indexesBack = try runProcess(try docstoreBinary(), [back, "--mode", "csv", "-c", "players.indexes()"])
            #expect(indexesBack.stdout.contains("name,true") && indexesBack.stdout.contains("team,false"), "\(indexesBack.stdout)")
            #expect(indexesBack.stdout.contains("name,false,search"), "\(indexesBack.stdout)")
        }

        @Test func fileToFileKeepsIndexesAndANonEmptyDestinationIsRefusedUnlessReplaced() throws {
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let source = directory.appendingPathComponent("source.sqlite").path
            let copy = directory.appendingPathComponent("copy.sqlite").path
            try Self.makeSource(at: source)

            let first = try runProcess(try docstoreBinary(), ["copy", source, copy])
            #expect(first.status == 0 && first.stderr.isEmpty, "\(first.stderr)")
            #expect(try Self.contents(of: copy) == Self.contents(of: source))
            let indexes = try runProcess(try docstoreBinary(), [copy, "--mode", "csv", "-c", "players.indexes()"])
            #expect(indexes.stdout.contains("name,true") && indexes.stdout.contains("team,false"), "\(indexes.stdout)")
            #expect(indexes.stdout.contains("team,false,columns"), "field columns go too: \(indexes.stdout)")

            // Again: the destination's collections hold documents now.
            try runProcess(try docstoreBinary(), [copy, "-c", #"teams.insert({"id": "ZZZ"})"#]).expectSuccess()
            let refused = try runProcess(try docstoreBinary(), ["copy", source, copy])
            #expect(refused.status == 1)
            #expect(refused.stderr.contains("collection players at the destination already holds 2 500 documents; nothing was copied (--replace"), "\(refused.stderr)")
            #expect(try Self.contents(of: copy).contains(#"{"id":"ZZZ"}"#))

            let replaced = try runProcess(try docstoreBinary(), ["copy", source, copy, "--replace"])
            #expect(replaced.status == 0, "\(replaced.stderr)")
            #expect(try Self.contents(of: copy) == Self.contents(of: source))
        }

        /// A table of documents whose catalog row another tool deleted is hidden
        /// from DocStore, so a copy can't carry it: it says so (it left the table
        /// out without a word, and called the copy complete), from a file and
        /// from PostgreSQL.
        @Test func aTableTheCatalogLostIsNamedAsNotCopied() throws {
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let source = directory.appendingPathComponent("source.sqlite").path
            try runProcess(try docstoreBinary(), [source, "-c", #"kept.insert({"id": 1})"#, "-c", #"lost.insert({"id": 1})"#]).expectSuccess()
            let tool = try DatabaseQueue(path: source)
            try tool.write { db in try db.execute(sql: "DELETE FROM docstore_collections WHERE name = 'lost'") }
            try tool.close()
            let fromFile = try runProcess(try docstoreBinary(), ["copy", source, directory.appendingPathComponent("copy.sqlite").path])
            // Exit 1: a script checking the status must not take it for the whole store.
            #expect(fromFile.status == 1, "\(fromFile.stderr)")
            #expect(fromFile.stdout.contains("kept: 1 document"), "\(fromFile.stdout)")
            #expect(fromFile.stderr.contains("NOT copied: lost, table of documents the source's catalog does not record"), "\(fromFile.stderr)")

            let url = try PostgresREPLServer.freshDatabaseURL()
            try runProcess(try docstoreBinary(), [url, "-c", #"kept.insert({"id": 1})"#, "-c", #"lost.insert({"id": 1})"#]).expectSuccess()
            try PostgresREPLServer.psql("DELETE FROM docstore_collections WHERE name = 'lost'", databaseURL: url)
            let fromServer = try runProcess(try docstoreBinary(), ["copy", url, directory.appendingPathComponent("copy2.sqlite").path])
            #expect(fromServer.status == 1, "\(fromServer.stderr)")
            #expect(fromServer.stderr.contains("NOT copied: lost,"), "\(fromServer.stderr)")
        }

        /// A collection whose name PostgreSQL can't hold (past 63 bytes, as a
        /// file's repair of a 63-byte name makes) is refused before anything
        /// is written: the copy stopped half-way there, and a second run was
        /// refused as the destination then held documents.
        @Test func aNameTooLongForPostgresIsRefusedBeforeAnythingIsCopied() throws {
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let source = directory.appendingPathComponent("source.sqlite").path
            let long = String(repeating: "n", count: 64)
            let store = try DocumentStore(path: source)
            try store.collection(named: "a").insert(["id": 1])
            try store.collection(named: long).insert(["id": 1])
            try store.close()
            let url = try PostgresREPLServer.freshDatabaseURL()
            let refused = try runProcess(try docstoreBinary(), ["copy", source, url])
            #expect(refused.status == 1)
            #expect(refused.stderr.contains("collection \(long) can't be made at the destination") && refused.stderr.contains("nothing was copied"), "\(refused.stderr)")
            let listing = try runProcess(try docstoreBinary(), [url, "-c", ".collections"])
            #expect(listing.stdout.contains("no collections yet"), "\(listing.stdout)")
        }

        /// A copy into a collection another process keeps writing to: the copy
        /// holds that writer off until it commits, and verifies what it wrote
        /// (it failed every time, its read-back counting the other's documents);
        /// the writer's documents all land after it.
        @Test(.timeLimit(.minutes(10))) func aCopyIntoACollectionOthersWriteToSucceeds() throws {
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let source = directory.appendingPathComponent("source.sqlite").path
            let store = try DocumentStore(path: source)
            try store.collection(named: "notes").insert(contentsOf: (1...3000).map { ["id": .integer(Int64($0)), "text": .string("note \($0)")] })
            try store.close()
            let url = try PostgresREPLServer.freshDatabaseURL()
            try runProcess(try docstoreBinary(), [url, "-c", #"notes.insert({"id": 0})"#]).expectSuccess()

            let script = directory.appendingPathComponent("writes.txt")
            try (1...1500).map { #"notes.insert({"id": \#(100_000 + $0)})"# }.joined(separator: "\n").write(to: script, atomically: true, encoding: .utf8)
            let writer = Process()
            writer.executableURL = try docstoreBinary()
            writer.arguments = [url]
            writer.standardInput = try FileHandle(forReadingFrom: script)
            writer.standardOutput = FileHandle.nullDevice
            writer.standardError = FileHandle.nullDevice
            try writer.run()
            defer { if writer.isRunning { writer.terminate() }; writer.waitUntilExit() }
            Thread.sleep(forTimeInterval: 0.3)

            let copied = try runProcess(try docstoreBinary(), ["copy", source, url, "--replace"])
            #expect(copied.status == 0, "\(copied.stderr)")
            writer.waitUntilExit()
            #expect(writer.terminationStatus == 0)
            let count = try runProcess(try docstoreBinary(), [url, "-c", "notes.filter { $0.id <= 3000 }.count()"])
            #expect(count.stdout == "3000\n", "\(count.stdout)\(count.stderr)")
        }

        /// A document PostgreSQL refuses (a NUL in a string) half-way through a
        /// collection: the copy stops naming the collection, key and path, and
        /// the destination's collection is as it was, with none of its documents.
        @Test func aDocumentTheDestinationRefusesLeavesItsCollectionAsItWas() throws {
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let source = directory.appendingPathComponent("source.sqlite").path
            let store = try DocumentStore(path: source)
            try store.collection(named: "notes").insert(contentsOf: (1...2500).map { number -> JSONValue in
                let body: JSONValue = .string(number == 1700 ? "before\u{0}after" : "note \(number)")
                return .object(["id": .integer(Int64(number)), "text": .object(["body": body])])
            })
            try store.close()
            let url = try PostgresREPLServer.freshDatabaseURL()
            try runProcess(try docstoreBinary(), [url, "-c", #"notes.insert({"id": 9999, "text": "kept"})"#]).expectSuccess()

            let failed = try runProcess(try docstoreBinary(), ["copy", source, url, "--replace"])
            #expect(failed.status == 1)
            #expect(failed.stderr.contains(#"document 1700 for collection "notes" at text.body"#), "\(failed.stderr)")
            #expect(failed.stderr.contains("NUL"), "\(failed.stderr)")
            let after = try runProcess(try docstoreBinary(), [url, "--mode", "ndjson", "-c", "notes.keys()"])
            #expect(after.stdout == "[9999]\n", "\(after.stdout)\(after.stderr)")
        }

        /// Numbers jsonb writes another way (no exponent, no negative zero) are
        /// the same numbers: the copy's checksum failed on them, so a file
        /// holding the real 1e16 could not be moved to PostgreSQL at all.
        @Test func numbersJsonbRespellsCopyAndCompareEqual() throws {
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let source = directory.appendingPathComponent("source.sqlite").path
            let values: [JSONValue] = [.double(1e16), .double(-0.0), .double(1.5e300), .double(0.1), .double(-2.5e-7),
                                       .exactNumber(JSONNumberLiteral("1e-400")!), .integer(-42), .exactNumber(JSONNumberLiteral("123456789012345678901234567890")!)]
            let store = try DocumentStore(path: source)
            try store.collection(named: "n").insert(contentsOf: values.indices.map { index -> JSONValue in
                .object(["id": .integer(Int64(index + 1)), "v": values[index], "nested": .array([values[index]])])
            })
            try store.close()
            let url = try PostgresREPLServer.freshDatabaseURL()
            try runProcess(try docstoreBinary(), ["copy", source, url]).expectSuccess()
            let back = directory.appendingPathComponent("back.sqlite").path
            try runProcess(try docstoreBinary(), ["copy", url, back]).expectSuccess()
            // Each number has its kind and exact value after the round trip:
            // Python's decimal module reads both exports (the source's and the
            // copy's), telling integers from reals (1e16 came back an integer).
            for (store, file) in [(source, "before.ndjson"), (back, "after.ndjson")] {
                let path = directory.appendingPathComponent(file).path
                try runProcess(try docstoreBinary(), [store, "-c", ".export n \(path)"]).expectSuccess()
            }
            let compare = """
                import json, sys
                from decimal import Decimal
                def read(path): return [json.loads(line, parse_float=lambda t: ("real", Decimal(t)),
                                                   parse_int=lambda t: ("integer", Decimal(t))) for line in open(path)]
                before, after = read(sys.argv[1]), read(sys.argv[2])
                print("same" if before == after else f"{before} != {after}")
                """
            let python = try runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", compare,
                directory.appendingPathComponent("before.ndjson").path, directory.appendingPathComponent("after.ndjson").path])
            #expect(python.stdout == "same\n", "\(python.stdout)\(python.stderr)")
        }

        /// The checksum tells a real from an integer of the same value: a copy
        /// that turned the real 1e16 into an integer was "verified".
        @Test func theChecksumTellsARealFromAnInteger() {
            func checksum(_ value: JSONValue) -> DocumentChecksum {
                var checksum = DocumentChecksum()
                checksum.add((key: .integer(1), document: ["id": 1, "v": value]))
                return checksum
            }
            #expect(checksum(.double(1e16)) != checksum(.integer(10_000_000_000_000_000)))
            #expect(checksum(.double(1e16)) == checksum(.exactNumber(JSONNumberLiteral("10000000000000000.0")!)))
            #expect(checksum(.double(-0.0)) == checksum(.double(0)))
            #expect(checksum(.exactNumber(JSONNumberLiteral("1e30")!)) != checksum(.exactNumber(JSONNumberLiteral("1000000000000000000000000000000")!)))
        }

        @Test func numbersHaveOneCanonicalSpellingForTheChecksum() {
            let same = [["1e16", "1e+16", "10000000000000000", "10000000000000000.000", "1.0E16"], ["0", "-0.0", "0e5", "0.000"],
                        ["1e-400", "0." + String(repeating: "0", count: 399) + "1"], ["-2.5e-7", "-0.00000025"], ["0.1", "1e-1"]]
            for spellings in same {
                #expect(Set(spellings.map(DocumentChecksum.canonicalNumber)).count == 1, "\(spellings)")
            }
            #expect(DocumentChecksum.canonicalNumber("1e16") == "1e16")
            #expect(DocumentChecksum.canonicalNumber("-0.00000025") == "-2.5e-7")
            #expect(DocumentChecksum.canonicalNumber("12.5") != DocumentChecksum.canonicalNumber("1.25"))
        }
    }
}

extension ProcessOutput {
    /// Records the output when the process failed.
    func expectSuccess(sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        #expect(status == 0, "\(stderr)", sourceLocation: sourceLocation)
    }
}
