import DocStore
import Testing

// GRDB's auto-increment idiom in an app target: `id` is nil until inserted.

/// For use off the main actor.
@Document
nonisolated struct Song: Codable, Identifiable, Sendable, Equatable {
    var id: Int64?
    var title: String
}

/// Main-actor isolated, conformances included, as an app writes it by default.
@Document
struct Draft: Codable, Identifiable {
    var id: Int?
    var text: String
}

@Test func optionalIdModelGetsItsKeyOffTheMainActor() async throws {
    let songs = try DocumentStore.inMemory().collection(Song.self)
    let inserted = try await Task.detached {
        var song = Song(id: nil, title: "Sweet Caroline")
        try songs.insert(&song)
        return (song, try songs.inserted(contentsOf: [Song(id: nil, title: "Tessie")]))
    }.value
    #expect(inserted.0 == Song(id: 1, title: "Sweet Caroline"))
    #expect(inserted.1 == [Song(id: 2, title: "Tessie")])
    #expect(try await songs.filter { $0.title == "Tessie" }.fetch().map(\.id) == [2])
}

@Test func mainActorOptionalIdModelGetsItsKey() throws {
    let drafts = try DocumentStore.inMemory().collection(Draft.self)
    var draft = Draft(id: nil, text: "hello")
    try drafts.save(&draft)
    #expect(draft.id == 1)
    #expect(try drafts.get(1)?.text == "hello")
}
