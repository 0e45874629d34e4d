import DocStore
import Testing
@testable import DocStoreREPL

@Suite("Parser: malformed input gives located errors")
struct ParserErrorTests {
    /// Asserts that `text` fails at `line`:`column` with a message containing `fragment`.
    func expectError(_ text: String, line: Int = 1, column: Int, _ fragment: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        guard let error = parseError(text) else {
            Issue.record("parsed without error: \(text.prefix(80))", sourceLocation: sourceLocation)
            return
        }
        #expect(error.location == DocStoreREPL.SourceLocation(line: line, column: column), "\(error)", sourceLocation: sourceLocation)
        #expect(error.message.contains(fragment), "\(error.message)", sourceLocation: sourceLocation)
    }

    @Test func unbalancedBraces() {
        expectError("players.filter { $0.teamId == 1", column: 32, "expected '}' to close the '{' at column 16")
        expectError("players.filter { $0.teamId == 1 }}", column: 34, "unexpected '}': nothing is open")
        expectError("players.filter {\n  $0.teamId == 1\n", line: 3, column: 1, "expected '}' to close the '{' at line 1, column 16")
        expectError("players.filter { ($0.a == 1 }", column: 29, "expected ')'")
        expectError("players.limit(5", column: 16, "expected ')'")
        expectError("players.filter { $0.teamId.in([1, 2) }", column: 36, "expected ']'")
    }

    /// A method's name compared as a field's (`$0.all == true`) said only
    /// "expected '{'"; `.export out.xml teams` said "no collection named out.xml".
    @Test func namesThatMeanSomethingElseSayHowToWriteWhatWasMeant() {
        expectError("players.filter { $0.all == true }", column: 21, #"$0.all is the method all { … }, not a field: for a field named all write $0["all"]"#)
        expectError("players.filter { $0.stats.in != 2 }", column: 27, #"for a field named in write $0.stats["in"]"#)
        expectError(".export out.xml teams", column: 9, ".export FILE QUERY names the format by the file's extension")
        // In a computed value, `.count` was a field named count: null on every row.
        expectError("teams.select { ($0.id, n: $0.tags.count) }", column: 34,
                    #"$0.tags.count is a test of a filter, which a computed value can't use; for a field named count write $0.tags["count"]"#)
    }

    @Test func badLiterals() {
        expectError(#"players.filter { $0.lastName == "Ortiz }"#, column: 33, "unterminated string literal")
        expectError("players.filter { $0.number == 12abc }", column: 31, "invalid number literal")
        expectError("players.get(99999999999999999999)", column: 13, "an integer key is 64-bit (Int64, ±9223372036854775807); 99999999999999999999 is past it")
        expectError("players.limit(99999999999999999999)", column: 15, "non-negative integer")
        expectError(#"players.filter { $0.lastName == "a\qb" }"#, column: 35, "invalid escape sequence")
        expectError(#"players.filter { $0.lastName == "\u{110000}" }"#, column: 34, "invalid unicode escape")
        expectError("players.filter { $0.number == null }", column: 31, "write nil")
        expectError("players.filter { $0.position == .shortstop }", column: 33, #"write the enum case as a string literal, "shortstop""#)
        expectError("players.filter { $0.number = 12 }", column: 28, "'=' assigns")
        expectError("players.filter { 12 == $0.number }", column: 18, "put the field on the left")
        expectError("players.filter { $0.number == $0.teamId }", column: 31, "comparing two fields of a document isn't supported")
        expectError("players.filter { $0.number > [1] }", column: 30, "compare with a single value")
        expectError("players.limit(-1)", column: 15, "non-negative integer")
        expectError(#"players.insert({"id": 1, "name": })"#, column: 34, "invalid JSON: unexpected token near '}'")
        expectError("players.insert({\"id\": 1,\n \"name\": tru})", line: 2, column: 10, "invalid JSON")
        expectError(#"players.insert({"id": 1, "id": 2})"#, column: 26, "duplicate object key")
        expectError(#"players.insert({"id": 1)"#, column: 24, "'}' expected")
        expectError(#"players.insert({"id": "abc)"#, column: 23, "premature end of input")
        expectError(#"players.insert(42)"#, column: 16, "a document is a JSON object")
        expectError(#"players.get(1.5)"#, column: 13, "a key is an integer or a string")
    }

    @Test func unknownNamesSuggestTheClosest() {
        expectError("playrs.count()", column: 1, #"did you mean "players"?"#)
        expectError("players.fliter { $0.a == 1 }", column: 9, "did you mean 'filter'?")
        expectError("players.filter { $0.a == 1 }.cuont()", column: 30, "did you mean 'count'?")
        expectError(#"players.filter { $0.lastName.hasPrefx("O") }"#, column: 30, "did you mean 'hasPrefix'?")
        expectError("players.frobnicate()", column: 9, "unknown method 'frobnicate'")
        expectError(".scheam players", column: 1, "did you mean .schema?")
        expectError(".schema playres", column: 9, #"did you mean "players"?"#)
        expectError(".mode xml", column: 7, "unknown mode")
        expectError("players.count().first()", column: 17, "ends the query")
        expectError("players.delete()", column: 9, "deleteAll()")
        // A method written as a Swift property would be.
        expectError("players.first", column: 14, "expected '(' as in first(), found the end of the input")
        expectError("players.filter { $0.a == 1 }.count", column: 35, "as in count()")
        expectError("players.indexes", column: 16, "as in indexes()")
    }

    @Test func oddCharacters() throws {
        expectError("players.filter { $0.a == 1 }\0", column: 29, "NUL")
        expectError("players\0.count()", column: 8, "NUL")
        expectError("players.filter { $0.a == \"x\0y\" }", column: 28, "NUL character in a string literal")
        // Emoji count as one column each.
        #expect(try parse("players.filter { $0.😀 == 1 }") == playersQuery(.compare(FieldPath("😀"), .equal, 1)))
        expectError("players.filter { $0.😀 == 1 } 😀 😀", column: 30, "expected '.' before the next method, found '😀'")
        expectError("😀😀.count()", column: 1, #"no collection named "😀😀""#)
        expectError("players.filter { $0.a == \"😀😀😀\" ! }", column: 32, "expected ';', a new line or '}'")
        expectError("players.filter { $1.a == 1 }", column: 18, "expected '$0'")
        expectError("players.filter { $0.a == 1 } @", column: 30, "unexpected character '@'")
    }

    @Test func tenKilobyteLines() {
        let long = String(repeating: "a", count: 10_000)
        expectError("players.filter { $0.\(long) == }", column: 10_025, "expected a value")
        expectError(String(repeating: "(", count: 10_000), column: 1, "expected a collection name")
        expectError("players.filter { " + String(repeating: "(", count: 10_000) + " }", column: 17 + 64, "nested too deeply")
        expectError("players.filter { " + String(repeating: "!", count: 10_000) + "$0.a == 1 }", column: 18 + 63, "nested too deeply")
        expectError("players.filter { $0.a == " + String(repeating: "[", count: 10_000) + " }", column: 26 + 62, "nested too deeply")
        let manyConditions = "players.filter { " + Array(repeating: "$0.number > 1", count: 700).joined(separator: "; ") + " }"
        #expect(manyConditions.count > 10_000)
        #expect(parseError(manyConditions) == nil)
        let longString = "players.filter { $0.lastName == \"" + String(repeating: "é", count: 10_000) + "\" }"
        #expect(parseError(longString) == nil)
    }

    @Test func renderedErrorsShowTheLineAndACaret() {
        let text = "players.filter {\n  $0.number > }"
        guard let error = parseError(text) else {
            Issue.record("no error")
            return
        }
        #expect(error.rendered(source: text) == """
            error at line 2, column 15: expected a value (a string, a number, true, false or nil), found '}'
              $0.number > }
                          ^
            """)
        // Script line offsets, wide characters and control characters keep the caret aligned.
        let emoji = "players.filter { $0.😀 == \"日本\" ! }"
        let caret = parseError(emoji)?.rendered(source: emoji, lineOffset: 9)
        #expect(caret == "error at line 10, column 31: expected ';', a new line or '}' after the condition, found '!'\n\(emoji)\n" + String(repeating: " ", count: 33) + "^")
    }
}
