import Foundation
import Synchronization
import Testing
@testable import DocStoreREPL

extension PostgresREPLTests {
    /// Shells writing to one new PostgreSQL database at once, as a team's
    /// scripts and a sync daemon would: each creates the database's catalog, the
    /// collections, keys and indexes while the others do the same.
    @Suite("REPL on PostgreSQL: shells writing to one new database at once")
    struct ConcurrentShellsTests {
        /// One shell's script: documents without keys, and along the way the
        /// same indexes, search index and keyed document as the other shells.
        static func script(shell: String, documents: Int) -> String {
            var lines: [String] = []
            for n in 1...documents {
                lines.append(#"p.insert({"shell": "\#(shell)", "n": \#(n), "t": "home run \#(n)"})"#)
                switch n {
                case 5: lines.append(#"p.createIndex(\.n)"#)
                case 10: lines.append(#"p.createSearchIndex(\.t)"#)
                case 12: lines.append(#"q.save({"id": 1, "by": "\#(shell)"})"#)
                case 20: lines.append(#"p.createIndex(\.shell, \.n, unique: true)"#)
                default: break
                }
            }
            return lines.joined(separator: "\n") + "\n"
        }

        /// Every command of every shell succeeds, every document keeps a key of
        /// its own, and each index is made once. Before the fixes, most runs
        /// failed: two shells generated the same key (duplicate key), opened the
        /// new database at once ("relation already exists"), deadlocked on a
        /// collection's first writes, or recorded the same index twice.
        @Test func everyCommandSucceedsAndEachIndexIsMadeOnce() throws {
            let url = try PostgresREPLServer.freshDatabaseURL()
            let shells = ["A", "B", "C"], perShell = 40
            let binary = try docstoreBinary()
            let outputs = Mutex<[ProcessOutput?]>(Array(repeating: nil, count: shells.count))
            DispatchQueue.concurrentPerform(iterations: shells.count) { index in
                let output = try? runProcess(binary, [url, "--mode", "ndjson"], input: Self.script(shell: shells[index], documents: perShell))
                outputs.withLock { $0[index] = output }
            }
            for output in outputs.withLock({ $0 }) {
                let output = try #require(output)
                #expect(output.status == 0, "\(output.stderr)")
            }
            let check = try runProcess(binary, [url, "--mode", "ndjson"], input: """
                p.count()
                p.filter { $0.shell == "A" }.count()
                p.query.min(\\.id)
                p.query.max(\\.id)
                .collections

                """)
            #expect(check.status == 0, "\(check.stderr)")
            let total = shells.count * perShell
            #expect(check.stdout.split(separator: "\n") == [
                "\(total)", "\(perShell)", "1", "\(total)",
                "p  (\(total) documents, key: integer, indexes: n, shell+n (unique), search: t)",
                "q  (1 document, key: integer)",
            ])
        }

        /// `save` of a document without an `"id"` is refused with the file store's
        /// words and writes nothing: a key made up for it could be one another
        /// writer has just used, and a save replaces.
        @Test func savingADocumentWithoutAnIdIsRefusedAsOnAFile() throws {
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let script = """
                p.insert({"id": 1, "name": "kept"})
                p.save({"name": "no id"})
                p.count()
                p.get(1)

                """
            let binary = try docstoreBinary()
            let onPostgres = try runProcess(binary, [try PostgresREPLServer.freshDatabaseURL(), "--mode", "ndjson", "--keep-going"], input: script)
            let onFile = try runProcess(binary, [directory.appendingPathComponent("s.sqlite").path, "--mode", "ndjson", "--keep-going"], input: script)
            #expect(onFile.stderr.contains(#"has no usable key: the document has no usable "id" member"#), "\(onFile.stderr)")
            #expect(onPostgres.stderr == onFile.stderr)
            #expect(onPostgres.stdout == onFile.stdout)
            #expect(onPostgres.stdout.split(separator: "\n") == ["1", #"{"id":1,"name":"kept"}"#])
        }
    }
}
