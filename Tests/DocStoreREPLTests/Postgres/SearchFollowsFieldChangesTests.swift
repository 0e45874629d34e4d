import Foundation
import Testing
@testable import DocStoreREPL

extension PostgresREPLTests {
    /// A search index follows its field when the field is renamed or removed,
    /// on both backends alike. Left on the old path, searching the renamed field
    /// was an error, and `.collections` still listed the old field.
    @Suite("REPL: search indexes follow field changes, on both backends")
    struct SearchFollowsFieldChangesTests {
        static let script = """
            n.insert([{"id": 1, "t": "home run", "p": "Ortiz"}, {"id": 2, "t": "walk", "p": "Home Boy"}])
            n.createSearchIndex(\\.t, \\.p)
            n.renameField("t", to: "text")
            n.filter { $0.text.matches("home") }.keys()
            n.filter { $0.p.matches("home") }.keys()
            n.removeField("p")
            n.filter { $0.text.matches("walk") }.keys()
            .collections
            n.filter { $0.p.matches("home") }.keys()

            """

        @Test func searchIndexesFollowRenamesAndRemovals() throws {
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let binary = try docstoreBinary()
            let file = try runProcess(binary, [directory.appendingPathComponent("s.sqlite").path, "--mode", "ndjson", "--keep-going"], input: Self.script)
            let postgres = try runProcess(binary, [try PostgresREPLServer.freshDatabaseURL(), "--mode", "ndjson", "--keep-going"], input: Self.script)
            #expect(file.stdout.split(separator: "\n") == ["[1]", "[2]", "[2]", "n  (2 documents, key: integer, search: text)"], "\(file.stdout)")
            #expect(postgres.stdout == file.stdout)
            #expect(file.stderr.contains("rename t to text: 2 documents; search index ") && file.stderr.contains(" now on (text, p)"), "\(file.stderr)")
            #expect(file.stderr.contains("remove p: 2 documents; search index ") && file.stderr.contains(" now on (text)"), "\(file.stderr)")
            #expect(file.stderr.contains("no search index covers this field"), "the removed field isn't searchable any more: \(file.stderr)")
            // The indexes' generated names differ between the backends.
            func unnamed(_ text: String) -> String {
                text.replacingOccurrences(of: #"docstore_search_\d+"#, with: "docstore_search_N", options: .regularExpression)
            }
            #expect(unnamed(postgres.stderr) == unnamed(file.stderr))
        }
    }
}
