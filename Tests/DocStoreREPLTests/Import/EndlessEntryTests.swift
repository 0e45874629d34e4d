import Foundation
import Testing

/// A file whose line never ends (a binary file, a device, a stream cut off
/// mid-write and filled with NULs) stops the import with an error naming the
/// line, once the entry passes the longest document an import reads (256 MiB),
/// instead of growing memory until the process is killed.
@Suite("Fault: an entry that never ends")
struct EndlessEntryTests {
    /// Imports `file` (a name whose extension says its format) given by a bash
    /// `source` command writing into a FIFO, a sparse file that starts with
    /// `sparseStart` (a CSV file is read twice, so never from a pipe), or a
    /// symbolic link to /dev/zero.
    func importEndless(_ name: String, source: String?, sparseStart: String? = nil) throws -> (ProcessOutput, String) {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent(name).path
        let store = directory.appendingPathComponent("s.sqlite").path
        let binary = try docstoreBinary().path
        let feed = sparseStart.map { "printf '\($0)' > '\(file)'; truncate -s 300000000 '\(file)';" }
            ?? source.map { "mkfifo '\(file)'; (\($0)) > '\(file)' 2>/dev/null & writer=$!; trap 'kill $writer 2>/dev/null' EXIT;" }
            ?? "ln -s /dev/zero '\(file)';"
        let run = try runProcess(URL(fileURLWithPath: "/bin/bash"), ["-c", """
            \(feed) '\(binary)' '\(store)' -c '.import endless \(file)'; status=$?
            '\(binary)' '\(store)' --read-only -c '.collections' >&2
            exit $status
            """])
        return (run, file)
    }

    @Test(.timeLimit(.minutes(10)))
    func anNDJSONLineWithoutAnEndIsRefused() throws {
        let (run, file) = try importEndless("zeros.ndjson", source: nil)
        #expect(run.status == 1)
        #expect(run.stderr.contains("line 1 of \(file) is longer than 256 MiB"), "\(run.stderr)")
        #expect(run.stderr.contains("nothing was imported"))
        #expect(run.stderr.contains("no collections yet"), "no collection was created: \(run.stderr)")
    }

    @Test(.timeLimit(.minutes(10)))
    func aCSVRecordWithoutAnEndIsRefused() throws {
        // An open quote: every line after it belongs to the one record.
        // (NUL bytes, as a sparse file reads, are text inside the quotes.)
        let (run, file) = try importEndless("quoted.csv", source: nil, sparseStart: #"a,b\n1,""#)
        #expect(run.status == 1)
        #expect(run.stderr.contains("the record starting on line 2 of \(file) is longer than 256 MiB"), "\(run.stderr)")
        #expect(run.stderr.contains("no collections yet"), "no collection was created: \(run.stderr)")
    }

    @Test(.timeLimit(.minutes(10)))
    func aJSONArrayElementWithoutAnEndIsRefused() throws {
        let (run, file) = try importEndless("array.json", source: #"printf '[{"id": 1}, {"text": "'; head -c 300000000 /dev/zero | tr '\0' 'a'"#)
        #expect(run.status == 1)
        #expect(run.stderr.contains("the element starting at line 1, column 13 of \(file) is longer than 256 MiB"), "\(run.stderr)")
        #expect(run.stderr.contains("no collections yet"), "no collection was created: \(run.stderr)")
    }
}
