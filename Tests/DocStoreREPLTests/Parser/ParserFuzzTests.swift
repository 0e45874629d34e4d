import DocStore
import Foundation
import Testing
@testable import DocStoreREPL

/// A small deterministic generator (SplitMix64), so failures reproduce.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite("Parser: fuzzing with seeded mutations")
struct ParserFuzzTests {
    static let seeds = [
        #"players.filter { $0.teamId == 1; $0.number > 10 }.sorted { $0.lastName; $0.number.descending }.limit(10)"#,
        #"players.filter { AnyOf { $0.position == "Shortstop"; $0.lastName.hasPrefix("O") }; Not { $0.tags.contains("injured") } }"#,
        #"players.insert({"id": 99, "firstName": "Rafael", "tags": ["a", {"b": [1, 2.5e3]}], "x": null})"#,
        #"players.filter { $0.roster.any { $0.number > 10 } && !$0.tags.isEmpty || $0.stats.battingAverage >= 0.3 }.count()"#,
        #"players.filter { $0.teamId.in(teams.filter { $0.city == "Boston" }, selecting: \.id) }.select { ($0.lastName, $0.number) }"#,
        #"players.filter { $0.id == 2 }.update { $0.number.increment(by: 1); $0.nickname.remove(); $0.a = 1; $0.extra = ["k": [1, 2]] }"#,
        #".import people "People.csv" --skip-bad --key playerID"#,
        #".explain players.filter { $0.extra["odd key"] == "\u{1F600}\n" }.limit(5, offset: 2)"#,
        #"players.createIndex(on: [\.teamId, \.number], unique: true)"#,
        "players.min(\\.number)\nplayers.count { $0.nickname != nil }",
        #"players.group(by: \.teamId, \.position) { (n: $0.count(), hr: $0.sum(\.stats.homeRuns), r: Double($0.max(\.number)) / 2) }.filter { $0.n >= 2 }.sorted { $0.hr.descending }"#,
        #"players.join(teams, on: \.teamId, equals: key, as: \.team).select { ($0.team.city + " " + $0.lastName, x: -($0.number * 2 - 1) / 3) }.limit(2)"#,
    ]

    static let alphabet: [Character] = Array("{}[]()$0.\\\"';:,=!<>&|+-*/_ \n\tabcxyz019eE😀\0é")

    /// Deletes, inserts, swaps and truncates characters of valid queries, a few
    /// thousand times: parsing must return a command or an error located inside
    /// the input, and never trap.
    @Test func mutationsNeverTrap() {
        // `DOCSTORE_SEED=<n>` runs another sequence of mutations.
        let seed = ProcessInfo.processInfo.environment["DOCSTORE_SEED"].flatMap(UInt64.init) ?? 0xD0C5_702E
        var generator = SeededGenerator(state: seed)
        var errors = 0
        for iteration in 0..<4000 {
            var characters = Array(Self.seeds[iteration % Self.seeds.count])
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                guard !characters.isEmpty else { break }
                let position = Int.random(in: 0..<characters.count, using: &generator)
                switch Int.random(in: 0..<5, using: &generator) {
                case 0: characters.remove(at: position)
                case 1: characters.insert(Self.alphabet.randomElement(using: &generator) ?? "x", at: position)
                case 2:
                    let other = Int.random(in: 0..<characters.count, using: &generator)
                    characters.swapAt(position, other)
                case 3: characters.removeSubrange(position...)
                default: characters[position] = Self.alphabet.randomElement(using: &generator) ?? "x"
                }
            }
            let text = String(characters)
            do {
                _ = try CommandParser.parse(text, schema: sampleSchema)
            } catch {
                errors += 1
                let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
                #expect(error.location.line >= 1 && error.location.line <= lines.count, "\(error) in \(text)")
                if error.location.line >= 1, error.location.line <= lines.count {
                    #expect(error.location.column >= 1 && error.location.column <= lines[error.location.line - 1].count + 1, "\(error) in \(text)")
                }
                _ = error.rendered(source: text)
            }
            _ = Completer.complete(text, schema: sampleSchema)
            _ = InputBalance.isIncomplete(text)
        }
        // Most mutations break the input: the loop really exercises error paths.
        #expect(errors > 1000)
    }
}
