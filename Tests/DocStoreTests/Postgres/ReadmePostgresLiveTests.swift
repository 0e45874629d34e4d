import DocStorePostgres
import Foundation
import Synchronization
import Testing
@testable import DocStore

// README-POSTGRES-LIVE-BEGIN
func leaders(url: String) async throws -> [[String]] {
    let store = try await PostgresDocumentStore(url: url)
    let riders = store.collection(Rider.self, named: "riders")
    var seen: [[String]] = []
    for try await top in riders.filter({ $0.wins >= 5 }).sorted(by: { $0.wins.descending }).values() {
        seen.append(top.map(\.name))        // at once, then after each commit that changed it,
        if seen.count == 2 { break }        // made by any process (LISTEN/NOTIFY, no polling)
    }
    await store.close()
    return seen
}

func logChanges(of riders: PostgresCollection<Rider>) async throws {
    for try await change in try await riders.changes() {  // one change set per commit
        print("+\(change.inserted) ~\(change.updated) -\(change.deleted)")
    }
}
// README-POSTGRES-LIVE-END

extension PostgresTests {
    @Suite("README: live queries on PostgreSQL")
    struct ReadmePostgresLiveTests {
        @Test func theSectionIsTheCompiledCode() throws {
            let readme = try String(contentsOf: ReadmeUsageTests.repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
            let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
            let compiled = try #require(section(of: source, from: "// README-POSTGRES-LIVE-BEGIN\n", to: "// README-POSTGRES-LIVE-END"))
            let shown = try #require(section(of: readme, from: "<!-- postgres-live -->\n```swift\n", to: "```"))
            #expect(shown == compiled)
        }

        /// Another store's commits reach the example's loop; each result it
        /// records is one the collection really had.
        @Test func theCodeRuns() async throws {
            let server = try #require(PostgresTestServer.current)
            let url = try await PostgresTestServer.freshDatabaseURL(server)
            let writer = try await PostgresDocumentStore(url: url)
            let riders = writer.collection(Rider.self, named: "riders")
            try await riders.insert(contentsOf: [
                Rider(id: 1, name: "Ana", team: "Blue", wins: 4),
                Rider(id: 2, name: "Bo", team: "Red", wins: 9),
            ])
            let ended = Ended()
            let watching = Task {
                defer { ended.flag.store(true, ordering: .releasing) }
                return try await leaders(url: url)
            }
            // Ana's wins go 4 → 7 → 4 … until the loop has seen a change (it may
            // start listening after the first commits: each later one changes the result).
            var wins = 4, commits = 0
            do {
                while !ended.flag.load(ordering: .acquiring), commits < 300 {
                    wins = wins == 4 ? 7 : 4
                    try await riders.update(Rider(id: 1, name: "Ana", team: "Blue", wins: wins))
                    commits += 1
                    try await Task.sleep(for: .milliseconds(100))
                }
            } catch {
                watching.cancel()
                await writer.close()
                throw error
            }
            watching.cancel()  // only when it never saw a change: the loop then ends with an error
            let seen = try await watching.value
            await writer.close()
            #expect(seen.count == 2)
            #expect(Set(seen) == [["Bo"], ["Bo", "Ana"]])
        }

        private final class Ended: Sendable {
            let flag = Atomic(false)
        }

        private func section(of text: String, from start: String, to end: String) -> String? {
            guard let lower = text.range(of: start), let upper = text.range(of: end, range: lower.upperBound..<text.endIndex) else {
                return nil
            }
            return String(text[lower.upperBound..<upper.lowerBound])
        }
    }
}
