import Foundation
import Testing
@testable import DocStore

/// A label that is `Codable` but not a `@Document`: its key paths can't be named.
struct ShelfLabel: Codable, Equatable {
    var text: String
}

@Document
struct Roster: Codable, Identifiable {
    var id: Int
    var tags: Set<String>
}

@Document
struct Shelf: Codable, Identifiable {
    var id: Int
    var label: ShelfLabel
}

extension PredicateTests {
    /// Expressions with no DocStore equivalent throw, naming the expression and the
    /// field; they never convert to a query that matches something else.
    @Suite("#Predicate: unsupported expressions")
    struct PredicateErrorTests {
        /// The conversion error for `predicate`, which must throw one.
        func error<Model: QueryableDocument>(
            _ predicate: Predicate<Model>, sourceLocation: SourceLocation = #_sourceLocation
        ) throws -> PredicateConversionError {
            try #require(throws: PredicateConversionError.self, sourceLocation: sourceLocation) {
                try Condition(predicate)
            }
        }

        @Test func arithmeticOnAField() throws {
            let error = try error(#Predicate<Ballplayer> { $0.number + 1 > 10 })
            #expect(error.expressionKind == "PredicateExpressions.Arithmetic")
            #expect(error.errorDescription?.contains("Arithmetic on a document field has no DocStore equivalent; compute the value") == true)
            #expect(error.expression.contains("\\Ballplayer.number"))
        }

        @Test func aComputedProperty() throws {
            let error = try error(#Predicate<Ballplayer> { $0.fullName == "David Ortiz" })
            #expect(error.expressionKind == "PredicateExpressions.KeyPath")
            #expect(error.field == .root)
            #expect(error.reason.hasPrefix("a computed property (of type String) is not a stored property of Ballplayer (computed, static, lazy"))
        }

        @Test func aPropertyCodingKeysLeaveOut() throws {
            let error = try error(#Predicate<Renamed> { $0.cache == nil })
            #expect(error.reason.hasPrefix("\\Renamed.cache is not a stored property of Renamed"))
        }

        @Test func twoFieldsCompared() throws {
            let error = try error(#Predicate<Ballplayer> { $0.number > $0.teamId })
            #expect(error.expressionKind == "PredicateExpressions.Comparison")
            #expect(error.field == path("number"))
            #expect(error.reason.hasPrefix("both sides depend on the document"))
        }

        @Test func aForcedUnwrap() throws {
            let error = try error(#Predicate<Ballplayer> { $0.nickname! == "Big Papi" })
            #expect(error.expressionKind == "PredicateExpressions.ForcedUnwrap")
            #expect(error.reason.contains("use `??`"))
        }

        @Test func aStringsCount() throws {
            let error = try error(#Predicate<Ballplayer> { $0.lastName.count > 5 })
            #expect(error.field == path("lastName"))
            #expect(error.reason.hasPrefix("a computed property (of type Int) has no DocStore equivalent on a stored String"))
        }

        @Test func aNestedTypeWithoutDocument() throws {
            let error = try error(#Predicate<Shelf> { $0.label.text == "A" })
            #expect(error.field == path("label"))
            #expect(error.reason.contains("on a stored ShelfLabel (a nested model's properties need @Document"))
        }

        @Test func aModelWithoutKeyPaths() throws {
            let error = try error(#Predicate<Team> { $0.city == "Boston" })
            #expect(error.reason.contains("Team lists no key paths (declare it with @Document)"))
        }

        @Test func anElementTestReadingTheDocument() throws {
            let error = try error(#Predicate<Ballplayer> { player in player.games.contains { $0.runs > player.number } })
            #expect(error.reason.contains("refers to something other than its element"))
        }

        @Test func wholeDocumentsCompared() throws {
            let agent = Agent(name: "Scott Boras")
            let nested = try error(#Predicate<Ballplayer> { $0.agent == agent })
            #expect(nested.reason.contains("a nested document is compared as a whole"))
            let games = [Game(opponent: "NYY", runs: 1)]
            let array = try error(#Predicate<Ballplayer> { $0.games == games })
            #expect(array.reason.contains("an array of arrays or documents is compared as a whole"))
        }

        /// A set is stored in an order of its own: equality with one has no element-wise test.
        @Test func aSetComparedAsAWhole() throws {
            let wanted: Set = ["captain", "slugger"]
            let error = try error(#Predicate<Roster> { $0.tags == wanted })
            #expect(error.field == path("tags"))
            #expect(error.reason.hasPrefix("a Set<String> is compared as a whole"))
            // Its elements are tested as an array's.
            #expect(try Condition(#Predicate<Roster> { $0.tags.contains("captain") }) == .arrayContains(path("tags"), .string("captain")))
        }

        @Test func anIndexSubscript() throws {
            let error = try error(#Predicate<Ballplayer> { $0.tags[0] == "captain" })
            #expect(error.expressionKind == "PredicateExpressions.CollectionIndexSubscript")
            #expect(error.reason.contains("index an array with `first`"))
        }

        @Test func aConditionalChoosingValues() throws {
            let error = try error(#Predicate<Ballplayer> { ($0.number > 10 ? 1 : 2) == 1 })
            #expect(error.expressionKind == "PredicateExpressions.Conditional")
        }

        /// A query with an unconvertible predicate throws when it runs, and a delete
        /// with one deletes nothing.
        @Test func theQueryThrowsAndDeletesNothing() throws {
            let store = try DocumentStore.inMemory()
            let players = store.collection(Ballplayer.self, named: "players")
            try players.insert(contentsOf: sampleBallplayers)
            let query = players.filter(#Predicate { $0.number * 2 > 10 })
            let thrown = try #require(throws: DocStoreError.self) { try query.fetch() }
            guard case let .invalidQuery(collection, _, reason) = thrown else {
                Issue.record("expected invalidQuery, got \(thrown)")
                return
            }
            #expect(collection == "players")
            #expect(reason.hasPrefix("#Predicate: Arithmetic on a document field has no DocStore equivalent"))
            #expect(thrown.localizedDescription.hasPrefix("invalid query on collection \"players\": #Predicate: Arithmetic"))
            #expect(throws: DocStoreError.self) { try query.delete() }
            #expect(throws: DocStoreError.self) { try players.filter(#Predicate { $0.number > $0.teamId }).count() }
            #expect(try players.count() == sampleBallplayers.count)
        }
    }
}
