import DocStore
import Foundation
import Testing
@testable import DocStoreREPL

/// Notes to search, inserted by the REPL itself.
private let insertNotes = #"""
    notes.insert([{"id": 1, "text": "Hit a home run to right field."}, {"id": 2, "text": "Ran home on a wild pitch."}, {"id": 3, "text": "HOME RUN! Résumé: big swing, home run again."}, {"id": 4, "text": "Calls a good game."}, {"id": 5, "text": "A home-run hitter.", "year": 2005}])

    """#

@Suite("REPL: full-text search")
struct SearchCommandTests {
    @Test func theIssuesCommandsWorkExactlyAsWritten() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("notes.sqlite").path
        let result = try runProcess(try docstoreBinary(), [store, "--mode", "ndjson"], input: insertNotes + #"""
            notes.createSearchIndex(\.text)
            notes.filter { $0.text.matches("home run") }.count()
            notes.filter { $0.text.matches("resume") || $0.text.matches("\"wild pitch\"") }.keys()
            notes.filter { $0.text.matches("home run") && !$0.text.matches("hitter") }.count()
            notes.filter { $0.text.matches("home run") }.sorted(byRelevanceTo: "home run").select(\.id)

            """#)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(result.stderr.contains("created search index docstore_search_1 on text"), "messages go to stderr: \(result.stderr)")
        let counts = lines.filter { Int($0) != nil }
        #expect(counts == ["3", "2"], "\(lines)")
        #expect(try lines.contains { try JanssonJSON.parse($0) == [2, 3] }, "keys of the or: \(lines)")
        // bm25: the note saying "home run" twice first, then the shorter of the
        // two saying it once (4 words against 7).
        let ranked = try lines.suffix(3).map { try JanssonJSON.parse($0) }
        #expect(ranked == [["id": 3], ["id": 5], ["id": 1]], "\(lines)")
    }

    @Test func theIndexSurvivesReopeningAndShowsInIndexesAndCollections() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("notes.sqlite").path
        let first = try runProcess(try docstoreBinary(), [store], input: insertNotes + "notes.createSearchIndex(\\.text)\n")
        #expect(first.status == 0, "\(first.stderr)")
        let second = try runProcess(try docstoreBinary(), [store, "--mode", "csv"], input: """
            notes.insert({"id": 6, "text": "Another home run."})
            notes.filter { $0.text.matches("home run") }.count()
            notes.indexes()
            .collections

            """)
        #expect(second.status == 0, "\(second.stderr)")
        // csv: the count, then the indexes' table; .collections' text after them.
        let rows = try csvRows(second.stdout)
        #expect(rows.prefix(3) == [["4"], ["name", "fields", "unique", "kind"], ["docstore_search_1", "text", "false", "search"]],
                "the new note is found, and the index listed: \(rows)")
        #expect(second.stdout.contains("search: text"), "\(second.stdout)")
    }

    @Test func mistakesAreErrorsNamingTheCollectionAndFieldNeverFTS5s() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("notes.sqlite").path
        _ = try runProcess(try docstoreBinary(), [store], input: insertNotes + "notes.createSearchIndex(\\.text)\n")
        for (command, expected) in [
            (#"notes.filter { $0.year.matches("home") }.count()"#, "createSearchIndex(\\.year)"),
            (#"notes.filter { $0.text.matches("\"home run") }.count()"#, "has no closing quote"),
            (#"notes.filter { $0.text.matches("-- ?") }.count()"#, "has no words"),
            (#"notes.query.sorted(byRelevanceTo: "home").count()"#, "no matches(…) before it"),
        ] {
            let result = try runProcess(try docstoreBinary(), [store, "-c", command])
            #expect(result.status == 1, "\(command)")
            #expect(result.stderr.contains(expected), "\(command): \(result.stderr)")
            #expect(result.stderr.contains("notes") || result.stderr.contains("matches"), "\(command): \(result.stderr)")
            #expect(!result.stderr.lowercased().contains("fts5"), "\(command): \(result.stderr)")
        }
        // FTS5's own syntax is text: NEAR, column filters and operators are words.
        let literal = try runProcess(try docstoreBinary(), [store, "-c", #"notes.filter { $0.text.matches("NEAR(home run) text:swing -big") }.count()"#])
        #expect(literal.status == 0, "\(literal.stderr)")
        #expect(literal.stdout == "0\n", "no note has the word near: \(literal.stdout)")
    }

    @Test func theParserBuildsTheSameASTAsTheDSL() throws {
        #expect(try parse(#"players.filter { $0.nickname.matches("big papi") }"#)
                == playersQuery(.matches(FieldPath("nickname"), "big papi")))
        let ranked = try parse(#"players.filter { $0.nickname.matches("big") }.sorted(byRelevanceTo: "big papi")"#)
        #expect(ranked == .query(collection: "players", DocumentQuery(.matches(FieldPath("nickname"), "big"),
                                                                      relevance: SearchRelevance(field: FieldPath("nickname"), text: "big papi")), .fetch))
        #expect(try parse(#"players.query.sorted(byRelevanceTo: "x", in: \.lastName)"#)
                == .query(collection: "players", DocumentQuery(relevance: SearchRelevance(field: FieldPath("lastName"), text: "x")), .fetch))
        #expect(try parse(#"players.sorted(by: \.number)"#) == playersQuery(sort: [SortKey(FieldPath("number"))]), "sorted(by:) is unchanged")
        #expect(try parse(#"players.createSearchIndex(\.nickname, \.lastName)"#)
                == .createSearchIndex(collection: "players", fields: [FieldPath("nickname"), FieldPath("lastName")]))
        #expect(try parse(#"players.dropSearchIndex(\.nickname)"#) == .dropSearchIndex(collection: "players", fields: [FieldPath("nickname")]))
    }
}
