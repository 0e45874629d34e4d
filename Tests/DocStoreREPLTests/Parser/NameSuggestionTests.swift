import DocStore
import Testing
@testable import DocStoreREPL

@Suite("Did-you-mean suggestions")
struct NameSuggestionTests {
    /// The textbook optimal-string-alignment distance over the whole table,
    /// to check the banded one against.
    func fullDistance(_ a: [Character], _ b: [Character]) -> Int {
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in stride(from: 1, through: a.count, by: 1) {
            for j in stride(from: 1, through: b.count, by: 1) {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }

    @Test func theBandedDistanceAgreesWithTheFullTableUpToItsLimit() {
        var generator = SystemRandomNumberGenerator()
        let alphabet: [Character] = ["a", "b", "c"]
        for _ in 0..<2000 {
            let a = (0..<Int.random(in: 0...9, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            let b = (0..<Int.random(in: 0...9, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            let limit = Int.random(in: 1...4, using: &generator)
            let expected = min(fullDistance(a, b), limit + 1)
            #expect(NameSuggestion.editDistance(a, b, limit: limit) == expected, "\(String(a)) / \(String(b)), limit \(limit)")
        }
    }

    @Test func typosAreSuggested() {
        #expect(NameSuggestion.closest(to: "cuont", in: ["count", "first"]) == "count")
        #expect(NameSuggestion.closest(to: "plyers", in: ["players", "teams"]) == "players")
        #expect(NameSuggestion.closest(to: "Teams", in: ["players", "teams"]) == "teams")
        #expect(NameSuggestion.closest(to: "zzzzz", in: ["players", "teams"]) == nil)
    }

    /// Issue 12: a 70 000-character name beside a collection named almost the
    /// same took 29 s (the whole 70 000² table, in a release build; several
    /// minutes in a debug one). The band keeps it linear, a few seconds in a
    /// debug build. Timed from the test's own start: a time limit also counts
    /// the time a test waits for a thread in a full, parallel run.
    @Test func aSeventyThousandCharacterNameIsComparedInLinearTime() {
        let elapsed = ContinuousClock().measure {
            let collection = String(repeating: "x", count: 70_000)
            let typo = String(repeating: "x", count: 69_999) + "y"
            #expect(NameSuggestion.closest(to: typo, in: [collection, "teams"]) == collection)
            let schema = StaticSchema([collection: [:]])
            let error = try? #require(throws: REPLSyntaxError.self) { try CommandParser.parse(typo + ".count()", schema: schema) }
            #expect(error?.message.contains("did you mean") == true)
            // Far more edits than a typo: no suggestion, however long the names.
            let different = String(repeating: "x", count: 60_000) + String(repeating: "y", count: 10_000)
            #expect(NameSuggestion.closest(to: different, in: [collection]) == nil)
        }
        #expect(elapsed < .seconds(60), "\(elapsed): the whole table, not the band?")
    }
}
