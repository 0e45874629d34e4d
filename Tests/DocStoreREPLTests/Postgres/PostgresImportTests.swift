import Foundation
import Testing
@testable import DocStoreREPL

extension PostgresREPLTests {
    /// `.import` on PostgreSQL: one transaction, all or nothing, bad lines
    /// named (or skipped with --skip-bad).
    @Suite("REPL on PostgreSQL: .import")
    struct ImportTests {
        @Test func aDocumentPostgreSQLRejectsStopsTheImportAndNamesItsLineKeyAndPath() throws {
            let url = try PostgresREPLServer.freshDatabaseURL()
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let good = directory.appendingPathComponent("good.ndjson").path
            let bad = directory.appendingPathComponent("bad.ndjson").path
            try #"{"id": 1, "name": "a"}\#n{"id": 2, "name": "b"}\#n"#.write(toFile: good, atomically: true, encoding: .utf8)
            // Line 2 holds a NUL, which jsonb can't store.
            try #"{"id": 3, "name": "c"}\#n{"id": 4, "tags": ["x", "y\u0000z"]}\#n{"id": 5}\#n"#.write(toFile: bad, atomically: true, encoding: .utf8)

            let first = try runProcess(try docstoreBinary(), [url, "-c", ".import things \(good)"])
            #expect(first.status == 0, "\(first.stderr)")
            let failed = try runProcess(try docstoreBinary(), [url, "-c", ".import things \(bad)"])
            #expect(failed.status == 1)
            for part in ["line 2", "document 4 for collection \"things\" at tags[1]", "NUL", "nothing was imported, things is unchanged"] {
                #expect(failed.stderr.contains(part), "\(part): \(failed.stderr)")
            }
            let after = try runProcess(try docstoreBinary(), [url, "--mode", "ndjson", "-c", "things.keys()"])
            #expect(after.stdout == "[1,2]\n", "\(after.stdout)\(after.stderr)")

            let skipping = try runProcess(try docstoreBinary(), [url, "-c", ".import things \(bad) --skip-bad", "-c", "things.keys()"])
            #expect(skipping.status == 0, "\(skipping.stderr)")
            #expect(skipping.stderr.contains("imported 2 documents into things") && skipping.stderr.contains("skipped 1 bad line"), "\(skipping.stderr)")
            #expect(skipping.stdout.contains("[1, 2, 3, 5]") || skipping.stdout.contains("[1,2,3,5]"), "\(skipping.stdout)")
        }
    }
}
