import Foundation
@testable import DocStore

/// A scouting note: the model of the search tests.
@Document
struct ScoutingNote: Codable, Identifiable, Equatable {
    var id: Int
    var player: String
    var text: String
    var year: Int
}

/// The same with string keys (a `WITHOUT ROWID` collection).
@Document
struct KeyedNote: Codable, Identifiable, Equatable {
    var id: String
    var text: String
}

let sampleNotes = [
    ScoutingNote(id: 1, player: "Ortiz", text: "Hit a home run to right field, then another.", year: 2004),
    ScoutingNote(id: 2, player: "Pedroia", text: "Ran home on a wild pitch; quick runner.", year: 2008),
    ScoutingNote(id: 3, player: "Ramírez", text: "HOME RUN! Résumé: powerful swing, café-au-lait bat.", year: 2004),
    ScoutingNote(id: 4, player: "Varitek", text: "Calls a good game behind the plate.", year: 2007),
    ScoutingNote(id: 5, player: "Damon", text: "Runs hard; a home-run hitter in his prime.", year: 2005),
]

/// A store with the sample notes and a search index on their text.
func indexedNotes() throws -> (DocumentStore, DocumentCollection<ScoutingNote>) {
    let store = try DocumentStore.inMemory()
    let notes = store.collection(ScoutingNote.self, named: "notes")
    try notes.insert(contentsOf: sampleNotes)
    try notes.createSearchIndex(on: \.text)
    return (store, notes)
}
