import Foundation
import Testing
@testable import DocStoreREPL

extension PostgresREPLTests {
    /// A bare collection on PostgreSQL prints as a stream of pages in key
    /// order (it was answered whole: 670 MB for 579 000 documents); the pages'
    /// edges must not show, in any mode.
    @Suite("REPL on PostgreSQL: printing a collection page by page")
    struct PrintingTests {
        @Test func aBareCollectionPrintsEveryDocumentOnceInKeyOrderAcrossPages() throws {
            let url = try PostgresREPLServer.freshDatabaseURL()
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            // 2 500 documents: two full pages of 1 000 and part of a third,
            // inserted out of key order.
            let file = directory.appendingPathComponent("docs.ndjson").path
            let keys = (1...2500).map { ($0 * 7919) % 2500 + 1 }
            try keys.map { #"{"id": \#($0), "n": \#($0 * 2)}"# }.joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)
            try runProcess(try docstoreBinary(), [url, "-c", ".import docs \(file)"]).expectSuccess()

            let ndjson = try runProcess(try docstoreBinary(), [url, "--mode", "ndjson", "-c", "docs"])
            ndjson.expectSuccess()
            let lines = ndjson.stdout.split(separator: "\n").map(String.init)
            #expect(lines.count == 2500)
            // (jsonb keeps members shorter names first.)
            let expected: [String] = (1...2500).map { #"{"n":\#($0 * 2),"id":\#($0)}"# }
            #expect(lines == expected)

            let csv = try runProcess(try docstoreBinary(), [url, "--mode", "csv", "-c", "docs"])
            let rows = try csvRows(csv.stdout)
            #expect(rows.first == ["n", "id"])
            let firstCells: [String] = rows.dropFirst().map { $0[1] }
            let expectedKeys: [String] = (1...2500).map { String($0) }
            #expect(firstCells == expectedKeys)

            let json = try runProcess(try docstoreBinary(), [url, "--mode", "json", "-c", "docs"])
            let parsed = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Int]]
            #expect(parsed?.count == 2500 && parsed?.last == ["id": 2500, "n": 5000])
        }
    }
}
