import DocStore
import Foundation
import GRDB
import Testing

/// Issue 9, item 7 in the REPL: `.schema` of a collection with a damaged document
/// still describes the other documents, and says what it left out.
@Suite("Fault: .schema around damaged documents")
struct DamagedSchemaTests {
    @Test func schemaSamplesAroundADamagedDocumentAndSaysSo() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("s.sqlite").path
        do {
            let store = try DocumentStore(path: path)
            try store.collection(named: "players").insert(contentsOf: [
                ["id": 1, "name": "Ortiz", "number": 34], ["id": 2, "name": "Pedroia"], ["id": 3, "nickname": "Papi"],
            ])
            try store.databaseWriter.write { db in
                try db.execute(sql: #"UPDATE players SET body = '{"id": 2, "name": "Ped' WHERE key = 2"#)
            }
        }
        let result = try runProcess(try docstoreBinary(), [path, "--mode", "ndjson", "-c", ".schema players"])
        #expect(result.status == 0, "\(result.stderr)")
        let fields = result.stdout.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["field"] as? String
        }
        #expect(Set(fields) == ["id", "name", "number", "nickname"], "the readable documents' fields: \(result.stdout)")
        #expect(result.stderr.contains("1 damaged document left out of the sample"), "\(result.stderr)")
        #expect(result.stderr.contains(".check players"))
    }
}
