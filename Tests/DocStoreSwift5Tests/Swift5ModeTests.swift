import DocStore
import Testing

// This target is built in Swift 5 language mode: `@Document`'s `nonisolated`
// output must still compile (with no warnings) and query as in Swift 6.

@Document
struct Note: Codable, Identifiable {
    var id: Int
    var title: String
    var priority: Int
}

@Test func typedQueryInSwift5Mode() throws {
    let store = try DocumentStore.inMemory()
    let notes = store.collection(Note.self)
    try notes.insert(contentsOf: [
        Note(id: 1, title: "low", priority: 1),
        Note(id: 2, title: "high", priority: 9),
        Note(id: 3, title: "mid", priority: 5),
    ])
    let found = try notes.filter { $0.priority >= 5 }.sorted { $0.priority.descending }.fetch()
    #expect(found.map(\.title) == ["high", "mid"])
}
