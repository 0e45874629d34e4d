import Foundation
import Testing
import DocStore

// The README's "Async, live queries and change sets" example is this code,
// character for character (the test below compares them).

// README-LIVE-BEGIN
func followTheRoster(store: DocumentStore) async throws -> (before: [Int], after: [Int], change: CollectionChanges<Player>?) {
    let players = store.collection(Player.self)
    try await players.insert(Player(id: 5, firstName: "Rafael", lastName: "Devers", number: 11, teamId: 1,
                                    position: .thirdBase, tags: []))     // runs off Swift's cooperative pool

    // The roster now, then again after each commit that changes it.
    let roster = players.filter { $0.teamId == 1 }.sorted { $0.number }
    var rosters = roster.values().makeAsyncIterator()
    let before = try await rosters.next() ?? []

    // Per commit: the keys it inserted, updated and deleted (net), and the documents.
    var changes = players.changes(includingDocuments: true).makeAsyncIterator()

    try await store.write { tx in                                      // one commit...
        let players = tx.collection(Player.self)
        try players.update(5) { $0.number = 1 }
        try players.delete(4)
    }
    let after = try await rosters.next() ?? []                         // ...one new roster
    let change = try await changes.next()                              // updated [5], deleted [4]

    // Any value read from a query: a count, an aggregate, the first document.
    let counts = roster.observe { try $0.count() }
    for try await count in counts where count == after.count { break }

    store.otherProcessPollingInterval = .milliseconds(250)             // see other processes' commits too
    return (before.map(\.id), after.map(\.id), change)
}
// README-LIVE-END

@Suite("README: async and live queries")
struct ReadmeLiveTests {
    @Test func theLiveSectionIsTheCompiledCode() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let compiled = try #require(section(of: source, from: "// README-LIVE-BEGIN\n", to: "// README-LIVE-END"))
        let shown = try #require(section(of: readme, from: "<!-- live -->\n```swift\n", to: "```"))
        #expect(shown == compiled)
    }

    @Test func theLiveCodeRuns() async throws {
        let (path, directory) = try temporaryStorePath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try DocumentStore(path: path)
        try await store.collection(Player.self).insert(contentsOf: [
            Player(id: 3, firstName: "Dustin", lastName: "Pedroia", number: 15, teamId: 1, position: .secondBase, tags: []),
            Player(id: 4, firstName: "Xander", lastName: "Bogaerts", number: 2, teamId: 1, position: .shortstop, tags: []),
        ])
        let (before, after, change) = try await followTheRoster(store: store)
        #expect(before == [4, 5, 3])
        #expect(after == [5, 3])
        #expect(change?.updated == [.integer(5)])
        #expect(change?.deleted == [.integer(4)])
        #expect(change?.documents[.integer(5)]?.number == 1)
        #expect(store.otherProcessPollingInterval == .milliseconds(250))
    }

    private func section(of text: String, from start: String, to end: String) -> String? {
        guard let startRange = text.range(of: start),
              let endRange = text.range(of: end, range: startRange.upperBound..<text.endIndex) else { return nil }
        return String(text[startRange.upperBound..<endRange.lowerBound])
    }
}
