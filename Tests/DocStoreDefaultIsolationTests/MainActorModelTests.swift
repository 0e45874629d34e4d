import DocStore
import Testing

/// A model as an app writes it without thinking about isolation: main-actor
/// isolated, like everything else in this target, and so are its `Codable` and
/// `Identifiable` conformances (`InferIsolatedConformances`).
@Document
struct Memo: Codable, Identifiable {
    var id: Int
    var text: String
    var pinned: Bool
}

@Test func mainActorModelIsQueriedOnTheMainActor() throws {
    let store = try DocumentStore.inMemory()
    let memos = store.collection(Memo.self)
    try memos.insert(contentsOf: [
        Memo(id: 1, text: "groceries", pinned: true),
        Memo(id: 2, text: "taxes", pinned: false),
        Memo(id: 3, text: "birthday", pinned: true),
    ])
    try memos.createIndex(on: \.pinned)
    let pinned = try memos.filter { $0.pinned == true }.sorted { $0.text }.fetch()
    #expect(pinned.map(\.id) == [3, 1])
}
