import Foundation
import Testing
@testable import DocStore

@Suite("The key/value area")
struct KeyValueAreaTests {
    struct Settings: Codable, Equatable {
        var theme: String
        var fontSize: Double
        var recent: [String]
    }

    @Test func typedValuesRoundTripUnderStringKeys() throws {
        let store = try DocumentStore.inMemory()
        let settings = Settings(theme: "dark", fontSize: 13.5, recent: ["a", "b"])
        try store.values.set(settings, forKey: "settings")
        try store.values.set(3, forKey: "launches")
        let loaded: Settings? = try store.values.get("settings")
        #expect(loaded == settings)
        #expect(try store.values.get("launches", as: Int.self) == 3)
        #expect(try store.values.get("missing", as: Int.self) == nil)
        try store.values.set(4, forKey: "launches")
        #expect(try store.values.get("launches", as: Int.self) == 4)
        #expect(try store.values.keys() == ["launches", "settings"])
        #expect(try store.values.remove("launches"))
        #expect(try !store.values.remove("launches"))
    }

    @Test func aValueOfAnotherTypeFailsNamingTheKey() throws {
        let store = try DocumentStore.inMemory()
        try store.values.set("text", forKey: "launches")
        let error = try #require(throws: DocStoreError.self) { try store.values.get("launches", as: Int.self) }
        #expect("\(error)".contains("\"launches\""))
    }
}
