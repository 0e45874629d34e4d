import DocStore
import Foundation
import Testing
@testable import DocStoreREPL

/// `.json` arrays are imported element by element as the file streams by.
@Suite("JSON array import: streamed")
struct JSONArrayImportTests: ImportFixture {
    static let defaultCollection = "items"
    let directory: URL
    let removal: RemovedOnRelease
    let store: DocumentStore

    init() throws {
        directory = try temporaryDirectory()
        removal = RemovedOnRelease(directory)
        store = try DocumentStore.inMemory()
    }

    /// A document whose strings hold what ends elements outside strings.
    func tricky(_ n: Int) -> JSONValue {
        [
            "id": .integer(Int64(n)), "text": .string("a ] b }, \"quoted\" \\ [\(n)] é 😀"),
            "nested": ["list": [1, [2, [3]], ["k": "v,]"]], "empty": [:], "none": .null],
            "real": .double(Double(n) / 4), "flag": .bool(n % 2 == 0),
        ]
    }

    @Test func aLargeArraySpanningManyChunksImportsEveryElementExactly() throws {
        // About 1.7 MB: elements cross the 64 kB chunks at many points.
        let count = 10_000
        let elements = (1...count).map { JSONText(options: $0 % 3 == 0 ? .pretty : []).string(tricky($0)) }
        let path = try write("big.json", "\u{FEFF}  [\n" + elements.joined(separator: " ,\n") + "\n]\n")
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0 > 20 * FileChunks.chunkSize)
        let report = try importFile(path)
        #expect(report.imported == count)
        let collection = store.collection(named: "items")
        #expect(try collection.count() == count)
        for n in [1, 2, 3, 777, 9_999, count] {
            #expect(try collection.get(n) == tricky(n), "element \(n)")
        }
    }

    @Test func splittingDoesNotDependOnWhereChunksEnd() throws {
        let text = #"[{"a": "x]y"}, 12, "s\"]", [1, {"b": [true]}], {"c": null}]"#
        var splitter = JSONArraySplitter()
        var parts: [String] = []
        for byte in Array(text.utf8) {
            try [byte].withUnsafeBufferPointer { buffer in
                try splitter.consume(buffer) { parts.append(String(decoding: $0.bytes, as: UTF8.self)) }
            }
        }
        try splitter.finish { parts.append(String(decoding: $0.bytes, as: UTF8.self)) }
        #expect(parts == [#"{"a": "x]y"}"#, "12", #""s\"]""#, #"[1, {"b": [true]}]"#, #"{"c": null}"#])
    }

    @Test func oneObjectAndAnEmptyArray() throws {
        #expect(try importFile(try write("one.json", #"{"id": 5, "a": [1, 2]}"#)).imported == 1)
        #expect(try store.collection(named: "items").get(5) == ["id": 5, "a": [1, 2]])
        #expect(try importFile(try write("none.json", " [ ] \n"), into: "none").imported == 0)
    }

    @Test func aNonObjectElementIsABadLineNamingTheElement() throws {
        let path = try write("mixed.json", #"[{"id": 1}, 2, {"id": 3}, "four"]"#)
        let message = try #require(failure { _ = try importFile(path) })
        #expect(message.contains("element 2 of") && message.contains("expected a JSON object, found integer"), "\(message)")
        #expect(try store.collections().isEmpty)
        let report = try importFile(path, ImportOptions(skipBad: true))
        #expect(report.imported == 2 && report.skipped == 2)
        #expect(report.summary.contains("element 4: expected a JSON object, found text"), "\(report.summary)")
    }

    @Test func syntaxErrorsNameTheFilesLineAndColumnAndImportNothing() throws {
        let cases: [(String, String)] = [
            ("[\n{\"id\": 1},\n  {\"id\": 2, oops}\n]", "line 3, column 13"),
            ("[{\"id\": 1} {\"id\": 2}]", "line 1, column 12: expected ',' or ']' after element 1"),
            ("[{\"id\": 1},]", "line 1, column 12: expected a value after ','"),
            ("[{\"id\": 1}, {\"id\": 2", "the file ends inside the array opened at line 1, column 1"),
            ("[{\"id\": 1}] x", "line 1, column 13: unexpected 'x' after the end of the array"),
            ("\"just text\"", "line 1, column 1: the file holds a string, not an array of objects"),
            ("not json", "line 1, column 1: the file holds null or text that is not JSON (starting with 'n')"),
            ("", "the file is empty"),
            ("[{\"a\": [1}]", "line 1, column 10"),
        ]
        for (index, (text, expected)) in cases.enumerated() {
            let path = try write("bad\(index).json", text)
            let message = try #require(failure { _ = try importFile(path, ImportOptions(skipBad: true)) }, "\(text)")
            #expect(message.contains("\(path) is not valid JSON"), "\(message)")
            #expect(message.contains(expected), "\(text): \(message)")
            #expect(message.contains("nothing was imported"), "\(message)")
        }
        #expect(try store.collections().isEmpty)
    }
}
