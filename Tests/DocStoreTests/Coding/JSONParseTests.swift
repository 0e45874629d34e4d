import Foundation
import Testing
@testable import DocStore

extension CodingTests {
    @Suite("Parse and serialize") struct ParseAndSerialize {
        func parse(_ text: String) throws(DocumentCodingError) -> JSONValue { try DocumentCodec.parse(text) }
        func text(_ value: JSONValue, _ options: JSONWriteOptions = []) -> String {
            String(decoding: DocumentCodec.serialize(value, options: options), as: UTF8.self)
        }

        @Test("values, key order and number kinds")
        func values() throws {
            let value = try parse(#" {"b": [1, -2.5, 1e2, true, false, null], "a": "x\u00e9", "big": 9223372036854775808, "min": -9223372036854775808} "#)
            guard case .object(let members) = value else { Issue.record("not an object"); return }
            #expect(Array(members.keys) == ["b", "a", "big", "min"])
            #expect(members["b"] == [.integer(1), .double(-2.5), .double(100), true, false, nil])
            if case .array(let items) = members["b"], case .double = items[0] { Issue.record("1 must parse as .integer") }
            #expect(members["a"] == "xé")
            #expect(members["big"] == .exactNumber(try #require(JSONNumberLiteral("9223372036854775808"))))
            #expect(members["big"]?.typeName == "integer")
            #expect(members["min"] == .integer(.min))
        }

        @Test("numbers a Double would round below its normal range keep their text; zeros and exact ones read as Doubles")
        func tinyNumbers() throws {
            // 1e-400 underflows to 0 and 1.5e-323 rounds to a subnormal: stored as read, never silently changed.
            for text in ["1e-400", "-2.5E-999", "1.5e-323", "1.23456789e-310"] {
                let value = try parse(text)
                #expect(value == .exactNumber(try #require(JSONNumberLiteral(text))), "\(text) read as \(value)")
                #expect(self.text(value) == text)
            }
            // Zeros and subnormals a Double holds exactly (its own shortest text) stay Doubles.
            for text in ["0.0", "-0.0", "0e-500", "5e-324", "1e-310", "2.2250738585072014e-308"] {
                let value = try parse(text)
                let double = try #require(Double(text))
                guard case .double(let read) = value else { Issue.record("\(text) read as \(value)"); continue }
                #expect(read.bitPattern == double.bitPattern, "\(text)")
            }
        }

        @Test("invalid JSON: exact line and column", arguments: [
            ("", 1, 1, "unexpected end of input, expected a value"),
            ("[1,]", 1, 4, "unexpected character ']', expected a value"),
            ("{\"a\":1,}", 1, 8, "unexpected character '}', expected a string key"),
            ("[1 2]", 1, 4, "unexpected character '2', expected ',' or ']'"),
            ("// c\n1", 1, 1, "unexpected character '/', expected a value"),
            ("[01]", 1, 2, "numbers cannot have leading zeros"),
            ("1 2", 1, 3, "unexpected character '2' after the JSON value"),
            ("{\n  \"a\": tru\n}", 2, 8, "unexpected character 't', expected a value"),
            ("[\"é\", x]", 1, 7, "unexpected character 'x', expected a value"),
            ("\"abc", 1, 1, "unterminated string"),
            ("\"a\tb\"", 1, 3, "control character U+0009 must be escaped in a string"),
            ("[\"\\ud800\"]", 1, 3, "lone high surrogate \\uD800"),
            ("\"\\udc00\"", 1, 2, "lone low surrogate \\uDC00"),
            ("\"\\x\"", 1, 2, "invalid escape sequence \\'x'"),
            ("[1.]", 1, 4, "expected a digit after the decimal point"),
            ("-", 1, 2, "expected a digit after '-'"),
            ("1e400", 1, 1, "number 1e400 is too large for a Double"),
            ("NaN", 1, 1, "unexpected character 'N', expected a value"),
            ("{\"a\" 1}", 1, 6, "unexpected character '1', expected ':'"),
        ])
        func invalid(source: String, line: Int, column: Int, reason: String) {
            let error = codingError { _ = try parse(source) }
            #expect(error?.kind == .invalidJSON(line: line, column: column))
            #expect(error?.reason == reason)
        }

        @Test("invalid UTF-8 is rejected at its position")
        func invalidUTF8() {
            for (bytes, column) in [([0x22, 0x61, 0xFF, 0x22], 3), ([0x22, 0xC0, 0xAF, 0x22], 2),
                                    ([0x22, 0xED, 0xA0, 0x80, 0x22], 2), ([0x22, 0xC3, 0xA9, 0xF4, 0x90, 0x80, 0x80, 0x22], 3),
                                    ([0x22, 0xE2, 0x82], 2)] as [([UInt8], Int)] {
                let error = codingError { _ = try DocumentCodec.parse(bytes) }
                #expect(error?.kind == .invalidJSON(line: 1, column: column), "\(bytes)")
            }
        }

        @Test("serialize(parse(x)) reproduces compact text")
        func roundTrip() throws {
            for source in [#"{"b":[1,-2.5,100.0,true,false,null],"a":"x\"\\\n\u0000é😀","e":{},"f":[]}"#,
                           #"[[[]],{"z":{"y":{"x":-0.0}}},1e-05,"\u001f"]"#, "0", #""""#] {
                #expect(try text(parse(source)) == source)
            }
        }

        @Test("sortedKeys is stable whatever the insertion order")
        func sortedKeys() throws {
            let one = try parse(#"{"b":1,"a":{"d":1,"c":2},"é":0,"B":3}"#)
            let two = try parse(#"{"é":0,"B":3,"a":{"c":2,"d":1},"b":1}"#)
            #expect(text(one, .sortedKeys) == #"{"B":3,"a":{"c":2,"d":1},"b":1,"é":0}"#)
            #expect(text(one, .sortedKeys) == text(two, .sortedKeys))
            #expect(text(one) != text(two))
        }

        @Test("pretty output indents by two spaces")
        func pretty() throws {
            let value = try parse(#"{"b":[1,{}],"a":[]}"#)
            #expect(text(value, [.pretty, .sortedKeys]) == "{\n  \"a\": [],\n  \"b\": [\n    1,\n    {}\n  ]\n}")
            #expect(try parse(text(value, .pretty)) == value)
        }

        @Test("nesting deeper than 512 levels is an error, not a crash")
        func depthLimit() throws {
            let ok = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
            #expect(throws: Never.self) { try parse(ok) }
            let deep = String(repeating: "[", count: 100_000)
            let error = codingError { _ = try parse(deep) }
            #expect(error?.kind == .invalidJSON(line: 1, column: 513))
            #expect(error?.reason == "nesting deeper than 512 levels")
            let decodeError = codingError { _ = try DocumentCodec.decode([Int].self, from: deep) }
            #expect(decodeError?.kind == .invalidJSON(line: 1, column: 513))
        }

        @Test("NUL in strings, as escape and in values")
        func nul() throws {
            #expect(try parse(#""a\u0000b""#) == .string("a\u{0}b"))
            #expect(text(.string("a\u{0}b")) == #""a\u0000b""#)
            let error = codingError { _ = try DocumentCodec.parse([0x22, 0x61, 0x00, 0x22]) }
            #expect(error?.kind == .invalidJSON(line: 1, column: 3))
        }

        @Test("non-finite doubles in a JSONValue serialize as null (valid JSON)")
        func nonFiniteValue() {
            #expect(text([.double(.nan), .double(.infinity)]) == "[null,null]")
        }
    }
}
