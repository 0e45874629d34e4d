import DocStore
import Foundation
import Testing
@testable import DocStoreREPL

/// Export then import gives back every document value for value: numbers
/// beyond Int64 and Double keep their digits, strings every character.
/// Documents are compared as values (decoded models, JSON values), never as text.
@Suite("Fault: export and import keep every value")
struct ExactExportTests {
    /// What typed code stores: exact integers of every width, Decimals, Doubles.
    struct Numbers: Codable, Identifiable {
        var id: Int
        var unsigned: UInt64
        var signed: Int64
        var decimals: [Decimal]
        var doubles: [Double]
    }

    static let numbers = [
        Numbers(id: 1, unsigned: .max, signed: .min,
                decimals: [Decimal(string: "3.14159265358979323846264338327950288"), Decimal(string: "123456789012345678901234567890"),
                           Decimal(string: "-0.000000000000000000000000000001")].compactMap { $0 },
                doubles: [-0.0, 1e308, .leastNonzeroMagnitude, 0.1, 1.7976931348623157e308, -2.2250738585072014e-308, 1e16, 0.30000000000000004]),
        Numbers(id: 2, unsigned: 0, signed: .max, decimals: [], doubles: []),
    ]

    /// Untyped documents with what breaks JSON writers.
    static func hostile() throws -> [JSONValue] {
        var deep: JSONValue = ["bottom": [1, "two", nil, true]]
        for level in 0..<60 { deep = level.isMultiple(of: 2) ? [deep] : ["level": deep] }
        let big = try #require(JSONNumberLiteral("123456789012345678901234567890123456789012345678901234567890"))
        let precise = try #require(JSONNumberLiteral("-3.14159265358979323846264338327950288e-200"))
        return [
            ["id": 10, "nul": "a\u{0}b", "quotes": "\"quoted\" 'single'", "backslashes": "C:\\path\\\\n", "emoji": "👩‍👩‍👧 🇫🇷 e\u{301}",
             "controls": "\u{1}\u{7}\u{8}\u{B}\u{C}\u{1B}\u{1F}\u{7F}\n\r\t", "separators": "\u{2028}\u{2029}\u{FEFF}"],
            ["id": 11, "ключ": 1, "🔑": ["名前": "値"], "": "empty name", "a.b": "dotted", "with \"quote\"": true],
            ["id": 12, "empty object": [:], "empty array": [], "empty string": "", "null": nil, "deep": deep],
            ["id": 13, "beyond": .exactNumber(big), "precise": .exactNumber(precise), "min": .integer(.min), "max": .integer(.max),
             "negativeZero": .double(-0.0), "tiny": .double(.leastNonzeroMagnitude), "huge": .double(1e308)],
        ]
    }

    let directory: URL

    let removal: RemovedOnRelease
    let store: DocumentStore

    init() throws {
        directory = try temporaryDirectory()
        removal = RemovedOnRelease(directory)
        store = try DocumentStore(path: directory.appendingPathComponent("exact.sqlite").path)
        try store.collection(Numbers.self, named: "numbers").insert(contentsOf: Self.numbers)
        try store.collection(named: "hostile").insert(contentsOf: try Self.hostile())
    }

    /// Exports `collection` to a file of the format and imports it into `copy`.
    func roundTrip(_ collection: String, into copy: String, format: String) throws {
        let path = directory.appendingPathComponent("\(collection).\(format)").path
        let exported = try Exporter(store: store, collection: collection).export(toPath: path)
        let report = try Importer(store: store, collection: copy, options: ImportOptions()).importFile(atPath: path)
        #expect(report.imported == exported)
    }

    @Test(arguments: ["ndjson", "json"])
    func typedNumbersComeBackExactly(format: String) throws {
        try roundTrip("numbers", into: "numbers_\(format)", format: format)
        let copies = try store.collection(Numbers.self, named: "numbers_\(format)").all()
        #expect(copies.count == Self.numbers.count)
        for (original, copy) in zip(Self.numbers, copies) {
            #expect(copy.id == original.id)
            #expect(copy.unsigned == original.unsigned)
            #expect(copy.signed == original.signed)
            #expect(copy.decimals == original.decimals)
            // Bit for bit: -0.0 stays negative.
            #expect(copy.doubles.map(\.bitPattern) == original.doubles.map(\.bitPattern), "\(copy.doubles)")
        }
    }

    @Test(arguments: ["ndjson", "json"])
    func untypedDocumentsComeBackValueForValue(format: String) throws {
        try roundTrip("hostile", into: "hostile_\(format)", format: format)
        let originals = try store.collection(named: "hostile").all()
        let copies = try store.collection(named: "hostile_\(format)").all()
        #expect(originals == (try Self.hostile()))
        #expect(copies == originals)
        // == compares numbers by value; the sign of zero and the kinds are checked here.
        let numbers = try #require(copies.first { $0["id"] == 13 })
        guard case .double(let zero)? = numbers["negativeZero"] else {
            Issue.record("negativeZero is \(String(describing: numbers["negativeZero"]))")
            return
        }
        #expect(zero.sign == .minus)
        #expect(numbers["beyond"]?.typeName == "integer")
        #expect(numbers["min"] == .integer(.min) && numbers["max"] == .integer(.max))
    }

    @Test func parsedNumbersKeepTheirKindAndDigits() throws {
        let parsed = try JanssonJSON.parse(#"[18446744073709551615, -9223372036854775809, 9223372036854775807, 100, -0, 3.0, 0.1, 1e2, 2.5e-3, 0.1000000000000000055511151231257827, {"n": 1, "s": "-2 \" 3e4", "m": -5.5}]"#)
        let literal = { (text: String) throws -> JSONValue in .exactNumber(try #require(JSONNumberLiteral(text))) }
        let expected: [JSONValue] = [
            try literal("18446744073709551615"), try literal("-9223372036854775809"), .integer(.max), 100, 0, 3.0, 0.1, 100.0, 0.0025,
            try literal("0.1000000000000000055511151231257827"), ["n": 1, "s": "-2 \" 3e4", "m": -5.5],
        ]
        #expect(parsed == .array(expected))
        guard case .array(let elements) = parsed else { return }
        #expect(elements.map(\.typeName) == ["integer", "integer", "integer", "integer", "integer", "real", "real", "real", "real", "real", "object"])
        // Exact equality: the nearest Double is not the number.
        #expect(try literal("18446744073709551615") != .double(18446744073709551615.0))
        #expect(try literal("18446744073709551615") != (try literal("18446744073709551616")))
        #expect(try literal("1.50e1") == .integer(15))
        #expect(JSONNumberLiteral("1.") == nil && JSONNumberLiteral("01") == nil && JSONNumberLiteral("--1") == nil && JSONNumberLiteral("1e") == nil)
    }

    @Test func theREPLShowsTheDigitsItStores() throws {
        let harness = try SessionHarness(interactive: false, sample: false, store: store)
        #expect(harness.feed(".mode ndjson", "numbers.get(1)") == .done, "\(harness.errors.text)")
        #expect(harness.output.text.contains("\"unsigned\":18446744073709551615"), "\(harness.output.text)")
        #expect(harness.output.text.contains("3.14159265358979323846264338327950288"), "\(harness.output.text)")
        #expect(harness.feed("typed.insert({\"id\": 1, \"n\": 18446744073709551615, \"d\": 0.1000000000000000055511151231257827})") == .done,
                "\(harness.errors.text)")
        let stored = try #require(try store.collection(named: "typed").get(1))
        #expect(stored["n"] == .exactNumber(try #require(JSONNumberLiteral("18446744073709551615"))))
        #expect(stored["d"] == .exactNumber(try #require(JSONNumberLiteral("0.1000000000000000055511151231257827"))))
    }
}
