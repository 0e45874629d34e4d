import DocStore
import Testing
@testable import DocStoreREPL

@Suite("CSV parsing and type inference")
struct CSVTests {
    func records(_ text: String, chunkSize: Int = 3) throws -> [([String], Int)] {
        var parser = CSVParser()
        var result: [([String], Int)] = []
        let bytes = Array(text.utf8)
        // Fed in small chunks: records must not depend on where chunks end.
        for start in stride(from: 0, to: bytes.count, by: chunkSize) {
            try parser.consume(bytes[start..<min(bytes.count, start + chunkSize)]) { record in
                result.append((record.fields.map { String(decoding: $0, as: UTF8.self) }, record.line))
            }
        }
        try parser.finish { record in result.append((record.fields.map { String(decoding: $0, as: UTF8.self) }, record.line)) }
        return result
    }

    @Test func quotedFieldsWithCommasQuotesAndNewlines() throws {
        let parsed = try records("a,b,c\r\n\"x, y\",\"say \"\"hi\"\"\",\"two\nlines\"\n1,,3\n\nlast,row,no-newline")
        #expect(parsed.map(\.0) == [["a", "b", "c"], ["x, y", "say \"hi\"", "two\nlines"], ["1", "", "3"], ["last", "row", "no-newline"]])
        #expect(parsed.map(\.1) == [1, 2, 4, 6])
    }

    @Test func unterminatedQuoteAndStrayQuoteAreErrors() {
        #expect(throws: CSVParser.Failure.self) { try records("a,b\n\"open,2\n3,4\n") }
        do {
            _ = try records("a,b\n\"x\"y,2\n")
            Issue.record("no error")
        } catch let failure as CSVParser.Failure {
            #expect(failure.line == 2)
        } catch {
            Issue.record("\(error)")
        }
        // Each names the field too (helper-41: only the line was named), in
        // records read in place and copied alike.
        for chunkSize in [3, 64] {
            for (text, line, field) in [("a,b,c\n1,\"x\"y,3\n", 2, 2), ("a,b,c\n1,2,\"open\n", 2, 3), ("\"x\"y\n", 1, 1)] {
                do {
                    _ = try records(text, chunkSize: chunkSize)
                    Issue.record("no error for \(text)")
                } catch let failure as CSVParser.Failure {
                    #expect(failure.line == line && failure.reason.hasPrefix("field \(field): "), "\(text): \(failure)")
                } catch {
                    Issue.record("\(error)")
                }
            }
        }
    }

    /// Lines ending in CR alone (old Mac files) were read as one record: the
    /// header swallowed the file, which imported as no documents without a
    /// word (helper-60). An unquoted CR that isn't part of a CRLF is refused,
    /// naming its line, wherever the chunks end; a quoted one is a field's.
    @Test func aCarriageReturnOutsideQuotesMustEndALine() throws {
        for chunkSize in [1, 2, 3, 4, 7, 64] {
            for (text, line) in [("id,a\r1,x\r2,y\r", 1), ("id,a\n1,x\ry\n", 2), ("id,a\n1,x\r", 2), ("id,a\n1,x\r,y\n", 2),
                                 ("id,a\n1,\"x\"\r2\n", 2), ("a\n\rb,c\n", 2)] where text != "id,a\n1,x\r" {
                do {
                    let parsed = try records(text, chunkSize: chunkSize)
                    Issue.record("no error for \(text.debugDescription) in chunks of \(chunkSize): \(parsed)")
                } catch let failure as CSVParser.Failure {
                    #expect(failure.line == line && failure.reason.contains("carriage return"), "\(text.debugDescription): \(failure)")
                }
            }
            // A CR at the very end of the file ends its last line; CRLF and a
            // quoted CR are read as before.
            #expect(try records("id,a\n1,x\r", chunkSize: chunkSize).map(\.0) == [["id", "a"], ["1", "x"]])
            #expect(try records("id,a\r\n1,\"x\ry\"\r\n", chunkSize: chunkSize).map(\.0) == [["id", "a"], ["1", "x\ry"]])
        }
    }

    /// Random records written as RFC 4180 says (quoted when they hold a comma,
    /// a quote, a line break or a carriage return; LF or CRLF between records)
    /// read back the same, whatever the chunk sizes: records read in place and
    /// records copied (quoted, or across chunks) must agree.
    @Test func randomRecordsRoundTripAcrossChunkSizes() throws {
        var random = SeededGenerator(state: 0xC5F)
        let alphabet: [String] = ["a", "b", "7", " ", ",", "\"", "\n", "\r", "é", "\r\n"]
        for round in 0..<400 {
            let width = Int.random(in: 1...5, using: &random)
            var expected: [([String], Int)] = []
            var text = ""
            for _ in 0..<Int.random(in: 1...6, using: &random) {
                var fields = (0..<width).map { _ in
                    (0..<Int.random(in: 0...6, using: &random)).map { _ in alphabet.randomElement(using: &random)! }.joined()
                }
                // One empty field is a blank line, which is no record.
                if width == 1, fields[0].isEmpty { fields[0] = "x" }
                expected.append((fields, 1 + text.filter { $0 == "\n" || $0 == "\r\n" }.count))
                text += fields.map { field in
                    let quoted = field.contains { ",\"\n\r\r\n".contains($0) } || Bool.random(using: &random)
                    return quoted ? "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : field
                }.joined(separator: ",")
                text += Bool.random(using: &random) ? "\n" : "\r\n"
            }
            if Bool.random(using: &random) { text.removeLast() }  // no newline at the end
            for chunkSize in [1, 2, 3, 7, 64, 1 << 16] {
                let parsed = try records(text, chunkSize: chunkSize)
                #expect(parsed.map(\.0) == expected.map(\.0), "round \(round), chunks of \(chunkSize): \(text.debugDescription)")
                #expect(parsed.map(\.1) == expected.map(\.1), "round \(round), chunks of \(chunkSize): lines")
            }
        }
    }

    @Test func inference() {
        #expect(CSVValue.infer("42") == .integer(42))
        #expect(CSVValue.infer("-7") == .integer(-7))
        #expect(CSVValue.infer("0") == .integer(0))
        #expect(CSVValue.infer("0.25").map { if case .double(0.25) = $0 { true } else { false } } == true)
        #expect(CSVValue.infer("1e3").map { if case .double(1000) = $0 { true } else { false } } == true)
        #expect(CSVValue.infer("") == nil)
        for text in ["007", "+1", " 1", "1.", ".5", "NaN", "inf", "1,000", "99999999999999999999", "2004-04-06", "R"] {
            #expect(CSVValue.infer(text) == .string(text), "\(text)")
        }
    }

    @Test func inferenceFromBytes() {
        func infer(_ bytes: [UInt8]) -> JSONValue?? { bytes.withUnsafeBufferPointer { CSVValue.infer(bytes: $0) } }
        #expect(infer(Array("1e-2".utf8)) == .some(.double(0.01)))
        #expect(infer(Array("-0".utf8)) == .some(.integer(0)))
        #expect(infer(Array("12a".utf8)) == .some(.string("12a")))
        #expect(infer(Array("Montréal".utf8)) == .some(.string("Montréal")))
        #expect(infer([]) == .some(nil))
        #expect(infer([0x4D, 0xE9]) == nil)  // Latin-1 "Mé": not UTF-8
        #expect(Array("1.5e3".utf8).withUnsafeBufferPointer { CSVValue.numberShape($0) } == .real)
        #expect(Array("15".utf8).withUnsafeBufferPointer { CSVValue.numberShape($0) } == .integer)
    }
}
