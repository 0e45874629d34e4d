import Foundation
import Testing
@testable import DocStore

// Compile-time health: this target builds with
// `-Xfrontend -warn-long-expression-type-checking` (Package.swift: 1 500 ms), so a
// filter block that makes the type checker crawl shows up as a warning here.

extension DSLTests {
    @Suite("Compile-time health")
    struct CompileTimeTests {
        @Test func aLongRealisticFilterBlockTypeChecksFast() throws {
            let store = try DocumentStore.inMemory()
            let players = store.collection(Ballplayer.self, named: "players")
            let teams = store.collection(Team.self)
            let minimumAverage: Double? = 0.25
            let excludedTags = ["injured", "suspended"]
            let since = Date(timeIntervalSinceReferenceDate: 0)
            let onlyStarters = true

            let query = players
                .filter {
                    $0.teamId.in(teams.filter { $0.city == "Boston" || $0.abbreviation.hasPrefix("B") })
                    $0.number >= 10 && $0.number < 60
                    $0.nickname != nil
                    AnyOf {
                        $0.position == .shortstop
                        $0.position.in([.firstBase, .secondBase])
                        $0.lastName.hasPrefix("Ped")
                        $0.lastName.contains("ort", caseInsensitive: true)
                    }
                    if let minimumAverage {
                        $0.stats.battingAverage >= minimumAverage
                    }
                    $0.stats.homeRuns > 20
                    $0.agent.name.hasSuffix("Boras") || $0.agent == nil
                    for tag in excludedTags {
                        Not { $0.tags.contains(tag) }
                    }
                    if onlyStarters {
                        $0.stats.games > 100
                    } else {
                        $0.stats.games >= 0
                    }
                    $0.tags.count <= 5
                    !$0.tags.isEmpty
                    $0.games.any { $0.opponent == "NYY"; $0.runs >= 2 }
                    $0.extra["rings"] >= 1
                    $0.debut >= since
                    $0.bats != .left
                }
                .sorted { $0.lastName; $0.stats.battingAverage.descending; $0.number }
                .limit(10)
            guard case .and(let lines) = try query.documentQuery().condition else {
                Issue.record("expected an AND of the lines")
                return
            }
            #expect(lines.count == 17)
        }
    }
}
