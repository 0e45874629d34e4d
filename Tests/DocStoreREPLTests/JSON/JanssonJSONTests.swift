import DocStore
import Testing
@testable import DocStoreREPL

@Suite("JSON through jansson")
struct JanssonJSONTests {
    @Test func integersRealsAndKeyOrder() throws {
        let value = try JanssonJSON.parse(#"{"b": 1, "a": 2.0, "c": -3e2, "big": 9223372036854775807, "z": [true, false, null]}"#)
        guard case .object(let members) = value else {
            Issue.record("not an object")
            return
        }
        // jansson iterates objects in insertion order: documents keep their member order.
        #expect(Array(members.keys) == ["b", "a", "c", "big", "z"])
        #expect(members["b"].map { if case .integer(1) = $0 { true } else { false } } == true)
        #expect(members["a"].map { if case .double(2.0) = $0 { true } else { false } } == true)
        #expect(members["c"].map { if case .double(-300) = $0 { true } else { false } } == true)
        #expect(members["big"] == .integer(.max))
        #expect(members["z"] == [true, false, nil])
    }

    @Test func nulInStringsAndKeys() throws {
        // JSON_ALLOW_NUL admits NUL in string values; jansson never admits it in keys.
        #expect(try JanssonJSON.parse(#"{"ab": "x\u0000y"}"#) == ["ab": "x\0y"])
        #expect(throws: JanssonJSON.ParseError.self) { try JanssonJSON.parse(#"{"a\u0000b": 1}"#) }
        #expect(try JanssonJSON.parse(#""😀 \ud83d\ude00""#) == "😀 😀")
    }

    @Test func errorsPointAtTheOffendingToken() {
        func location(_ text: String) -> DocStoreREPL.SourceLocation? {
            do {
                _ = try JanssonJSON.parse(text)
                return nil
            } catch {
                return error.location
            }
        }
        #expect(location(#"{"a": tru}"#) == .init(line: 1, column: 7))
        #expect(location("{\n  \"a\": 1,\n  \"a\": 2\n}") == .init(line: 3, column: 3))
        #expect(location(#"{"a": 1"#) == .init(line: 1, column: 8))
        #expect(location("") == .init(line: 1, column: 1))
        #expect(location(#"{"é": x}"#) == .init(line: 1, column: 7))
        #expect(location(#"{"a": 1} x"#) == .init(line: 1, column: 10))
    }

    @Test func invalidUTF8IsRefused() {
        let bytes: [UInt8] = Array(#"{"a": ""#.utf8) + [0xFF] + Array(#""}"#.utf8)
        #expect(throws: JanssonJSON.ParseError.self) {
            try bytes.withUnsafeBytes { try JanssonJSON.parse($0) }
        }
    }

    @Test func writerEscapesSortsAndIndents() {
        let value: JSONValue = ["b": "line\n\"q\"\0", "a": [1, 2.5, nil, true], "c": [:]]
        #expect(JSONText().string(value) == #"{"b":"line\n\"q\"\u0000","a":[1,2.5,null,true],"c":{}}"#)
        #expect(JSONText(options: .sortedKeys).string(value) == #"{"a":[1,2.5,null,true],"b":"line\n\"q\"\u0000","c":{}}"#)
        #expect(JSONText(options: .pretty).string(["a": [1]]) == "{\n  \"a\": [\n    1\n  ]\n}")
        // What the writer writes, jansson reads back the same.
        #expect((try? JanssonJSON.parse(JSONText().string(value))) == value)
    }
}

@Suite("JSON errors for mongosh habits")
struct JSONHabitTests {
    func reason(_ text: String) -> String? {
        do {
            _ = try JanssonJSON.parse(text)
            return nil
        } catch {
            return error.reason
        }
    }

    @Test func unquotedMemberNamesGetAHint() {
        #expect(reason("{id: 1}")?.contains("member names are quoted in JSON") == true)
    }

    @Test func singleQuotesGetAHint() {
        #expect(reason(#"{"name": 'Ortiz'}"#)?.contains("JSON strings take double quotes") == true)
    }

    @Test func otherErrorsAreLeftAsJanssonSaysThem() {
        let plain = reason(#"{"a": tru}"#)
        #expect(plain?.contains("invalid token") == true)
        #expect(plain?.contains("double quotes") == false)
    }
}
