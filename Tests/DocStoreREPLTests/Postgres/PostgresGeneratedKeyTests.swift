import Foundation
import Synchronization
import Testing
@testable import DocStoreREPL

extension PostgresREPLTests {
    /// Documents without an `"id"` on PostgreSQL: keys generated under the
    /// collection's key lock, as the library does, and never a `save` that could
    /// replace another shell's document.
    @Suite("REPL on PostgreSQL: generated keys")
    struct GeneratedKeyTests {
        /// Two shells insert documents without keys at the same time, one command
        /// each: every insert succeeds and every document keeps its own key.
        /// (With a largest key read outside the lock, both shells picked the same
        /// key and one failed with a duplicate key.)
        @Test func twoShellsInsertingAtOnceGetDistinctKeys() throws {
            let url = try PostgresREPLServer.freshDatabaseURL()
            let perShell = 150
            let scripts = ["A", "B"].map { shell in
                (0..<perShell).map { #"p.insert({"shell": "\#(shell)", "n": \#($0)})"# }.joined(separator: "\n") + "\n"
            }
            let binary = try docstoreBinary()
            let outputs = Mutex<[ProcessOutput?]>([nil, nil])
            DispatchQueue.concurrentPerform(iterations: 2) { shell in
                let output = try? runProcess(binary, [url, "--mode", "ndjson"], input: scripts[shell])
                outputs.withLock { $0[shell] = output }
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

                """)
            #expect(check.status == 0, "\(check.stderr)")
            #expect(check.stdout.split(separator: "\n") == ["\(2 * perShell)", "\(perShell)", "1", "\(2 * perShell)"])
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
