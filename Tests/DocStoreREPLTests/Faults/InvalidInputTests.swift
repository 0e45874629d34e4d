import DocStore
import Foundation
import Testing
@testable import DocStoreREPL

/// Input that is not UTF-8 is refused with where it is, never read as U+FFFD:
/// a command run on guessed text would store or match something else.
@Suite("Fault: invalid UTF-8 input")
struct InvalidInputTests {
    /// Input bytes: `text` with `invalid` spliced in at the `¤` sign.
    func bytes(_ text: String, _ invalid: [UInt8]) -> Data {
        var data = Data()
        for part in text.split(separator: "¤", omittingEmptySubsequences: false).enumerated() {
            if part.offset > 0 { data.append(contentsOf: invalid) }
            data.append(contentsOf: part.element.utf8)
        }
        return data
    }

    @Test func pipedInputStopsAtTheLineWithTheColumn() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("s.sqlite").path
        let input = bytes("notes.insert({\"id\": 1, \"text\": \"ok\"})\nnotes.insert({\"id\": 2, \"text\": \"é¤\"})\nnotes.insert({\"id\": 3})\n", [0xFF])
        let result = try runProcess(try docstoreBinary(), [store], inputBytes: input)
        #expect(result.status == 1)
        // Column 34: the 33 characters before it include the "é".
        #expect(result.stderr.contains("error at line 2, column 34: the input is not valid UTF-8 (byte 0xFF)"), "\(result.stderr)")
        let check = try runProcess(try docstoreBinary(), [store, "--mode", "ndjson", "-c", "notes.keys()"])
        #expect(check.stdout == "[1]\n", "\(check.stdout) \(check.stderr)")
    }

    @Test func theReaderFindsTheFirstInvalidByte() throws {
        var descriptors: [Int32] = [0, 0]
        try #require(pipe(&descriptors) == 0)
        let text = bytes("fine\r\nabc¤def\ntruncated é ¤\nlast without newline", [0xC3]) + Data([0xE2, 0x82])
        let written = text.withUnsafeBytes { write(descriptors[1], $0.baseAddress, $0.count) }
        #expect(written == text.count)
        close(descriptors[1])
        defer { close(descriptors[0]) }
        let reader = PlainLineReader(fileDescriptor: descriptors[0])
        #expect(try reader.readLine(prompt: "") == "fine")
        #expect(throws: InvalidUTF8Line(column: 4, byte: 0xC3)) { try reader.readLine(prompt: "") }
        #expect(throws: InvalidUTF8Line(column: 13, byte: 0xC3)) { try reader.readLine(prompt: "") }
        #expect(throws: InvalidUTF8Line(column: 21, byte: 0xE2)) { try reader.readLine(prompt: "") }
        #expect(try reader.readLine(prompt: "") == nil)
    }

    /// Lines longer than a read (64 KiB), and line breaks on either side of a
    /// read's end, come back whole: the reader now searches a long line for
    /// its end once, not again after each read (see
    /// Benchmarks/scripts/line-length-scaling.sh).
    @Test func linesSpanningManyReadsComeBackWhole() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let lines = ["short", String(repeating: "a", count: 300_000), String(repeating: "b", count: 65_535),
                     String(repeating: "c", count: 65_536), "", "é" + String(repeating: "d", count: 131_071), "crlf"]
        let path = directory.appendingPathComponent("lines.txt").path
        try Data((lines.joined(separator: "\n") + "\r\nlast without newline").utf8).write(to: URL(fileURLWithPath: path))
        let descriptor = open(path, O_RDONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let reader = PlainLineReader(fileDescriptor: descriptor)
        for expected in lines + ["last without newline"] {
            let line = try reader.readLine(prompt: "")
            #expect(line == expected, "a line of \(expected.utf8.count) bytes came back as \(line?.utf8.count ?? -1)")
        }
        #expect(try reader.readLine(prompt: "") == nil)
    }

    /// A script saved with a byte-order mark (as Windows editors do) ran its
    /// first command as "unexpected character" with nothing visible.
    @Test func aByteOrderMarkBeforeTheFirstLineIsDropped() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("bom.docstore")
        try (Data([0xEF, 0xBB, 0xBF]) + Data("teams.count()\n\u{FEFF}x\n".utf8)).write(to: script)
        let run = try runProcess(try docstoreBinary(), ["-c", ".read \(script.path)"])
        #expect(run.stdout == "4\n" && run.stderr.contains("line 2"), "only the first line's mark is dropped: \(run.stderr)")
        let piped = try runProcess(try docstoreBinary(), [], inputBytes: Data([0xEF, 0xBB, 0xBF]) + Data("teams.count()\n".utf8))
        #expect(piped.status == 0 && piped.stdout == "4\n", "\(piped.stderr)")
    }

    @Test func anInteractiveSessionReportsAndGoesOn() throws {
        let harness = try SessionHarness()
        let reader = ScriptedLineReader([.success("teams.filter {"), .failure(InvalidUTF8Line(column: 7, byte: 0xFF)), .success("teams.count()")])
        #expect(harness.session.run(reader: reader) == 0)
        #expect(harness.errors.text.contains("error at line 2, column 7: the input is not valid UTF-8 (byte 0xFF)"), "\(harness.errors.text)")
        // The open block was dropped with the bad line; the next command ran.
        #expect(harness.output.text.contains("4\n"), "\(harness.output.text)")
    }
}

/// Lines, or reading failures, in order.
final class ScriptedLineReader: LineReader {
    private var lines: [Result<String, InvalidUTF8Line>]

    init(_ lines: [Result<String, InvalidUTF8Line>]) {
        self.lines = lines
    }

    func readLine(prompt: String) throws(InvalidUTF8Line) -> String? {
        guard !lines.isEmpty else { return nil }
        return try lines.removeFirst().get()
    }

    func addHistory(_ line: String) {}
}
