import DocStore
import Foundation
import Testing
@testable import DocStoreREPL

/// The long-result rule at a prompt: an unbounded result longer than the limit
/// shows its first and last items with a `⋮` line between, in every mode; a
/// query that asked for a number of rows (`.limit(N)`) shows them all.
@Suite("Long results at a prompt")
struct LongResultTests {
    // The sample players by key: 2 Bogaerts, 12 Napoli, 15 Pedroia, 34 Ortiz.

    @Test func anExplicitLimitShowsEveryRowAskedFor() throws {
        let harness = try SessionHarness(displayLimit: 2)
        harness.feed(".mode ndjson", "players.limit(3)")
        #expect(harness.output.text.contains("\n3 documents ("), "\(harness.output.text)")
        #expect(!harness.output.text.contains("shown"))
        #expect(harness.output.text.contains("Bogaerts") && harness.output.text.contains("Napoli") && harness.output.text.contains("Pedroia"))
        #expect(!harness.output.text.contains("Ortiz"))
    }

    @Test func aLimitAtAnyStageBoundsTheResult() throws {
        let harness = try SessionHarness(displayLimit: 2)
        // A select of a limited query, a limit after a group, a limit before a join.
        harness.feed(#"players.sorted { $0.number.descending }.limit(3).select { ($0.lastName) }"#)
        #expect(harness.output.text.contains("Ortiz") && harness.output.text.contains("Pedroia") && harness.output.text.contains("Napoli"))
        harness.feed(#"players.group(by: \.number) { (n: $0.count()) }.limit(4)"#)
        harness.feed(#"players.limit(3).join(teams, on: \.teamId, as: \.team).select { ($0.lastName, $0.team.city) }"#)
        #expect(!harness.output.text.contains("shown"), "\(harness.output.text)")
        #expect(harness.output.text.components(separatedBy: "\n3 rows (").count == 3, "\(harness.output.text)")
        #expect(harness.output.text.contains("\n4 rows ("), "\(harness.output.text)")
        #expect(!harness.output.text.contains("⋮"))
        // Without a limit the same group is cut.
        harness.feed(#"players.group(by: \.number) { (n: $0.count()) }"#)
        #expect(harness.output.text.contains("4 rows, 2 shown; .maxrows N, or .once FILE for all"))
    }

    /// Every mode keeps the first and the last (Bogaerts and Ortiz), leaves out
    /// the middle (Napoli, Pedroia) and marks the gap in its own shape.
    @Test(arguments: [
        ("csv", "2,1,Xander,Bogaerts", "⋮,⋮,⋮"),
        ("tsv", "2\t1\tXander\tBogaerts", "⋮\t⋮\t⋮"),
        ("markdown", "| 2 | 1 | Xander | Bogaerts |", "| ⋮ | ⋮ | ⋮ |"),
        ("json", "\"Bogaerts\"", "  },\n  ⋮\n  {\n"),
        ("ndjson", "\"Bogaerts\"", "}\n⋮\n{"),
        ("line", "Bogaerts", "\n\n⋮\n\n"),
        ("table", "Bogaerts", "│ ⋮"),
    ])
    func everyModeShowsTheFirstAndLastWithAGap(mode: String, first: String, gap: String) throws {
        let harness = try SessionHarness(displayLimit: 2)
        harness.feed(".mode \(mode)", "players")
        let text = harness.output.text
        #expect(text.contains(first), "\(text)")
        #expect(text.contains("Ortiz"), "\(text)")
        #expect(!text.contains("Napoli") && !text.contains("Pedroia"), "\(text)")
        #expect(text.contains(gap), "\(text)")
        #expect(text.contains("4 documents, 2 shown; .maxrows N, or .once FILE for all"), "\(text)")
        #expect(harness.errors.text.isEmpty, "\(harness.errors.text)")
    }

    @Test func aScriptGetsEveryItemInEveryMode() throws {
        for mode in ["csv", "json", "ndjson", "line", "markdown", "table"] {
            let harness = try SessionHarness(interactive: false, displayLimit: 2)
            harness.feed(".mode \(mode)", "players")
            #expect(["Bogaerts", "Napoli", "Pedroia", "Ortiz"].allSatisfy(harness.output.text.contains), "\(mode): \(harness.output.text)")
            #expect(!harness.output.text.contains("⋮"))
        }
    }
}
