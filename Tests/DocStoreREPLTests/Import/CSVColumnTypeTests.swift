import DocStore
import Foundation
import Testing
@testable import DocStoreREPL

/// CSV columns get one type each, from all their cells or from `--types`.
@Suite("CSV import: column types and headers")
struct CSVColumnTypeTests: ImportFixture {
    static let defaultCollection = "rows"
    static let batchSize: Int? = 2
    let directory: URL
    let removal: RemovedOnRelease
    let store: DocumentStore

    init() throws {
        directory = try temporaryDirectory()
        removal = RemovedOnRelease(directory)
        store = try DocumentStore.inMemory()
    }

    func documents(_ collection: String = "rows") throws -> [JSONValue] {
        try store.collection(named: collection).all()
    }

    /// The JSON type a stored value has, as `.schema` names it.
    func types(_ column: String, _ collection: String = "rows") throws -> [String] {
        try documents(collection).compactMap { $0[column].map(FieldSample.typeName) }
    }

    @Test func aLeadingZeroKeepsTheWholeColumnText() throws {
        // Cell by cell, "12" would have become a number beside the text "007".
        let path = try write("codes.csv", "code,n\n007,0\n12,5\n0,-3\n")
        #expect(try importFile(path).imported == 3)
        #expect(try documents().map { $0["code"] } == ["007", "12", "0"])
        #expect(try types("code") == ["text", "text", "text"])
        #expect(try types("n") == ["integer", "integer", "integer"])
        #expect(try documents().map { $0["n"] } == [0, 5, -3])
        // Every code is found as the text it is.
        #expect(try store.collection(named: "rows").count(DocumentQuery(.compare(FieldPath("code"), .equal, "12"))) == 1)
    }

    @Test func integersAndRealsMakeARealColumnAndZeroPointFiveIsANumber() throws {
        let path = try write("mixed.csv", "x,y,z\n0.5,1,a\n2,2,1\n1e3,3,\n")
        _ = try importFile(path)
        #expect(try types("x") == ["real", "real", "real"])
        #expect(try documents().map { $0["x"]?.numberValue } == [0.5, 2, 1000])
        #expect(try types("y") == ["integer", "integer", "integer"])
        // One text cell makes the column text; the empty cell stays left out.
        #expect(try documents().map { $0["z"] } == ["a", "1", nil])
    }

    @Test func anIntegerBeyond64BitsKeepsTheColumnText() throws {
        let path = try write("big.csv", "id,big\n1,1\n2,99999999999999999999\n3,123456789012345678\n")
        _ = try importFile(path)
        #expect(try documents().map { $0["big"] } == ["1", "99999999999999999999", "123456789012345678"])
    }

    /// A real beyond a Double's range was inferred a number and written as
    /// such: every document holding one was then unreadable ("too large for a
    /// Double"), while counts and sums over it went on without it.
    @Test func aRealBeyondADoubleKeepsTheColumnText() throws {
        let path = try write("huge.csv", "id,b,c\n1,1e400,0.5\n2,3,-2e308\n3,1.5,1e-400\n")
        #expect(try importFile(path).imported == 3)
        #expect(try documents().map { $0["b"] } == ["1e400", "3", "1.5"])
        #expect(try types("c") == ["text", "text", "text"])
        // A tiny real is a number, kept as written.
        let tiny = try write("tiny.csv", "id,t\n1,1e-400\n2,0.25\n")
        _ = try importFile(tiny, into: "tiny")
        #expect(try types("t", "tiny") == ["real", "real"])
        #expect(try store.check().isHealthy)
    }

    /// A CSV file is read twice (types, then documents): from a pipe, the second
    /// reading waited forever for a writer that had gone.
    @Test func aPipeIsRefusedBeforeAnythingIsRead() throws {
        let path = directory.appendingPathComponent("stream.csv").path
        #expect(mkfifo(path, 0o600) == 0)
        // No writer ever opens the pipe: opening it to read would block.
        let error = try #require(throws: (any Error).self) { try importFile(path) }
        #expect("\(error)".contains("it is a pipe or a device, which can be read only once"), "\(error)")
    }

    @Test func forcedTypesOverrideInference() throws {
        let path = try write("forced.csv", "code,n,flag,x\n007,1,true,1\n08,2,FALSE,2\n")
        var options = ImportOptions()
        options.columnTypes = try CSVColumnType.parse("code=int,n=string,flag=bool,x=real")
        _ = try importFile(path, options)
        #expect(try documents().map { $0["code"] } == [7, 8])
        #expect(try types("n") == ["text", "text"])
        #expect(try documents().map { $0["flag"] } == [true, false])
        #expect(try types("x") == ["real", "real"])
    }

    /// A forced real keeps a JSON number's digits, as an inferred column does
    /// (through a Double, 2^53 + 1 became 2^53 and 1e-400 became 0); other
    /// spellings (`+7`) still go through one.
    @Test func aForcedRealKeepsTheDigitsOfAJSONNumber() throws {
        let path = try write("reals.csv", "id,v\n1,9007199254740993\n2,1e-400\n3,+7\n")
        _ = try importFile(path, ImportOptions(columnTypes: ["v": .number]))
        let exact = try ["9007199254740993.0", "1e-400"].map { JSONValue.exactNumber(try #require(JSONNumberLiteral($0))) }
        #expect(try documents().map { $0["v"] } == exact + [7.0])
    }

    @Test func aCellThatDoesNotFitAForcedTypeIsABadLineNamingLineColumnAndValue() throws {
        try store.collection(named: "rows").insert(["id": 100])
        let path = try write("bad.csv", "playerID,HR\naaronha01,44\nruthba01,n/a\nbondsba01,73\n")
        let message = try #require(failure { _ = try importFile(path, ImportOptions(columnTypes: ["HR": .integer])) })
        #expect(message.contains("line 3 of \(path)"), "\(message)")
        #expect(message.contains("column 2 (\"HR\")"), "\(message)")
        #expect(message.contains("\"n/a\" is not an integer (--types HR=int)"), "\(message)")
        #expect(message.contains("unchanged"), "\(message)")
        #expect(try documents() == [["id": 100]])

        let report = try importFile(path, into: "skipping", ImportOptions(skipBad: true, columnTypes: ["HR": .integer]))
        #expect(report.imported == 2)
        #expect(report.summary.contains("line 3: column 2"), "\(report.summary)")
        #expect(try documents("skipping").map { $0["HR"] } == [44, 73])
    }

    @Test func typesNamingAMissingColumnOrATypeThatDoesNotExistAreErrors() throws {
        let path = try write("people.csv", "playerID,birthYear\nx,1970\n")
        let missing = try #require(failure { _ = try importFile(path, ImportOptions(columnTypes: ["birthyear": .string])) })
        #expect(missing.contains("--types names the column \"birthyear\""), "\(missing)")
        #expect(missing.contains("did you mean \"birthYear\"?"), "\(missing)")
        #expect(try store.collections().isEmpty)
        #expect(throws: CommandError.self) { try CSVColumnType.parse("HR=integr") }
        #expect(throws: CommandError.self) { try CSVColumnType.parse("HR") }
        #expect(throws: CommandError.self) { try CSVColumnType.parse("HR=int,HR=real") }
        #expect(try CSVColumnType.parse("a=TEXT,b=number,c=boolean") == ["a": .string, "b": .number, "c": .bool])
    }

    @Test func withoutAHeaderTheFieldsAreC1C2AndTheFirstLineIsData() throws {
        let path = try write("plain.csv", "1,a,007\n2,b,12\n")
        var options = ImportOptions(header: false)
        #expect(try importFile(path, options).imported == 2)
        // (Each document also has the key generated for it, as "id".)
        #expect(try documents().map { document -> JSONValue in
            guard case .object(var members) = document else { return document }
            members.removeValue(forKey: "id")
            return .object(members)
        } == [["c1": 1, "c2": "a", "c3": "007"], ["c1": 2, "c2": "b", "c3": "12"]])

        options.columnTypes = ["c3": .integer]
        _ = try importFile(path, into: "forced", options)
        #expect(try documents("forced").map { $0["c3"] } == [7, 12])

        let ragged = try write("ragged.csv", "1,a\n2,b,c\n")
        let message = try #require(failure { _ = try importFile(ragged, into: "ragged", ImportOptions(header: false)) })
        #expect(message.contains("line 2") && message.contains("3 fields, but the first line has 2"), "\(message)")
    }

    @Test func forcedIntegersAreReadFromTheirBytesToTheEdgesOf64Bits() {
        func integer(_ text: String) -> Int64? { Array(text.utf8).withUnsafeBufferPointer { CSVColumnType.integer($0) } }
        #expect(integer("-9223372036854775808") == .min)
        #expect(integer("9223372036854775807") == .max)
        #expect(integer("9223372036854775808") == nil)
        #expect(integer("-9223372036854775809") == nil)
        #expect(integer("+7") == 7 && integer("007") == 7 && integer("-0") == 0)
        for bad in ["", "-", "+", "1a", "1.0", " 1", "1e3"] { #expect(integer(bad) == nil, "\(bad)") }
    }

    @Test func keysComeFromAnIdColumnFromKeyOrAreGeneratedAfterTheLargest() throws {
        try store.collection(named: "rows").insert(["id": 10, "name": "before"])
        _ = try importFile(try write("plain.csv", "name\nx\ny\n"))
        #expect(try store.collection(named: "rows").get(11) == ["id": 11, "name": "x"])
        #expect(try store.collection(named: "rows").get(12) == ["id": 12, "name": "y"])

        _ = try importFile(try write("ids.csv", "id,name\n5,a\n7,b\n"), into: "ids")
        #expect(try store.collection(named: "ids").keys() == [.integer(5), .integer(7)])

        let codes = try write("codes.csv", "code,name\n007,a\n12,b\n")
        _ = try importFile(codes, into: "codes", ImportOptions(keyField: "code"))
        #expect(try store.collection(named: "codes").get("007") == ["id": "007", "code": "007", "name": "a"])
        #expect(try store.collection(named: "codes").keys() == [.string("007"), .string("12")])

        let clash = try write("clash.csv", "id,code\n1,1\n2,3\n")
        let message = try #require(failure { _ = try importFile(clash, into: "clash", ImportOptions(keyField: "code")) })
        #expect(message.contains("line 3") && message.contains("its \"id\" (2) differs from its \"code\" (3)"), "\(message)")
        let repeated = try write("repeated.csv", "id,name\n1,a\n1,b\n")
        let duplicate = try #require(failure { _ = try importFile(repeated, into: "repeated") })
        #expect(duplicate.contains("line 3") && duplicate.contains("duplicate key 1: line 2 of the file has the same key"), "\(duplicate)")
    }

    @Test func textIsEscapedExactly() throws {
        let tricky = "say \"hi\"\\ back\\slash\ttab, ctrl \u{1}\u{1F} é 😀 /slash/ \u{7F}"
        let quoted = "\"" + tricky.replacingOccurrences(of: "\"", with: "\"\"") + "\r\nnext\""
        _ = try importFile(try write("text.csv", "a,b\n\(quoted),x\n"))
        #expect(try documents().first?["a"] == .string(tricky + "\r\nnext"))
        let latin1 = directory.appendingPathComponent("latin1.csv").path
        try Data([0x61, 0x0A, 0x4D, 0xE9, 0x0A]).write(to: URL(fileURLWithPath: latin1))
        let message = try #require(failure { _ = try importFile(latin1, into: "latin1") })
        #expect(message.contains("line 2") && message.contains("not valid UTF-8"), "\(message)")
    }

    @Test func theDotCommandTakesTheOptions() throws {
        let parsed = try parse(".import people \"my file.csv\" --types playerID=string,HR=int --no-header --skip-bad")
        #expect(parsed == .importFile(collection: "people", path: "my file.csv",
                                      options: ImportOptions(skipBad: true, header: false, columnTypes: ["playerID": .string, "HR": .integer])))
        let bad = try #require(parseError(".import people p.csv --types HR=whole"))
        #expect(bad.message.contains("unknown type \"whole\" for column \"HR\""), "\(bad.message)")
        #expect(bad.location.column == 30)

        let harness = try SessionHarness(interactive: false, sample: false)
        let json = try write("a.json", "[{\"id\": 1}]")
        #expect(harness.feed(".import a \(json) --no-header") == .failed)
        #expect(harness.errors.text.contains("apply to .csv files only"), "\(harness.errors.text)")
        let csv = try write("b.csv", "zip,city\n02134,Boston\n")
        #expect(harness.feed(".import places \(csv) --types city=string", ".mode ndjson", "places.filter { $0.zip == \"02134\" }") == .done)
        #expect(harness.output.text.contains(#""zip":"02134""#), "\(harness.output.text)")
    }
}
