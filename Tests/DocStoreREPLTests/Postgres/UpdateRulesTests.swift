import Foundation
import Testing
@testable import DocStoreREPL

extension PostgresREPLTests {
    /// An update by query refuses, on both backends alike, to change the key
    /// `id` (PostgreSQL used to rewrite it inside every document while the keys
    /// stayed), and to set a member of a value that isn't an object (which
    /// json_set and jsonb_set would leave as it was, while the update counted it).
    @Suite("REPL: update by query, the same on both backends")
    struct UpdateRulesTests {
        static let script = """
            t.insert([{"id": 1, "a": 1}, {"id": 2, "a": [1, 2]}, {"id": 4, "a": {"c": 1}}, {"id": 5}])
            t.update { $0.a.b.set(to: 7) }
            t.update { $0.id.set(to: 9) }
            t.update { $0["id"].increment(by: 1) }
            t.filter { $0.id >= 4 }.update { $0.a.b.set(to: 7) }
            t.sorted { $0.id }

            """

        @Test func bothBackendsRefuseAndChangeNothing() throws {
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let binary = try docstoreBinary()
            let file = try runProcess(binary, [directory.appendingPathComponent("s.sqlite").path, "--mode", "ndjson", "--keep-going"], input: Self.script)
            let postgres = try runProcess(binary, [try PostgresREPLServer.freshDatabaseURL(), "--mode", "ndjson", "--keep-going"], input: Self.script)
            #expect(file.stderr.components(separatedBy: "the id is the document's key, which an update never changes").count == 3, "\(file.stderr)")
            #expect(file.stderr.contains("cannot update field a.b of document 1 in collection \"t\": a is a number there, which has no members")
                    && file.stderr.contains("updated 2 documents") && !file.stderr.contains("updated 4 documents"), "\(file.stderr)")
            #expect(postgres.stderr == file.stderr)
            // jsonb orders members its own way: compare the documents, not their text.
            func documents(_ output: String) throws -> [NSDictionary] {
                try output.split(separator: "\n").map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? NSDictionary) }
            }
            let expected: [NSDictionary] = [["id": 1, "a": 1], ["id": 2, "a": [1, 2]], ["id": 4, "a": ["c": 1, "b": 7]], ["id": 5, "a": ["b": 7]]]
            // (The first update changed nothing: document 1's a can't hold a member.)
            #expect(try documents(file.stdout) == expected)
            #expect(try documents(postgres.stdout) == expected)
        }
    }
}
