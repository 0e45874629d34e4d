import MacroTesting
import SwiftSyntaxMacroExpansion
import Testing
@testable import DocStoreMacros

@Suite(.macros(["Document": MacroSpec(type: DocumentMacro.self, conformances: ["QueryableDocument"])]))
struct DocumentMacroTests {
    @Test func storedPropertiesOfEveryKind() {
        assertMacro {
            """
            @Document
            struct Player: Codable, Identifiable {
                var id: Int
                let firstName: String
                var nickname: String?
                var legacy: Int!
                var position: Position
                var tags: [String]
                var stats: Stats
                var games: [Game]
                var extra: [String: Int]
                var a, b: Double
                var `default`: Bool = false
                var observed: Int = 0 {
                    didSet { print(observed) }
                }
                var fullName: String { firstName }
                var computed: Int {
                    get { 1 }
                    set { }
                }
                static var league: String = "AL"
                lazy var cache: [Int] = []
                func method() {}
            }
            """
        } expansion: {
            #"""
            struct Player: Codable, Identifiable {
                var id: Int
                let firstName: String
                var nickname: String?
                var legacy: Int!
                var position: Position
                var tags: [String]
                var stats: Stats
                var games: [Game]
                var extra: [String: Int]
                var a, b: Double
                var `default`: Bool = false
                var observed: Int = 0 {
                    didSet { print(observed) }
                }
                var fullName: String { firstName }
                var computed: Int {
                    get { 1 }
                    set { }
                }
                static var league: String = "AL"
                lazy var cache: [Int] = []
                func method() {}
            }

            nonisolated extension Player: DocStore.QueryableDocument {
                nonisolated struct Fields: DocStore.DocumentFieldSet {
                    let _path: DocStore.FieldPath
                    init(_path: DocStore.FieldPath) {
                        self._path = _path
                    }
                    var id: DocStore.DocumentField<Int> {
                        DocStore.DocumentField(_path.appending("id"))
                    }
                    var firstName: DocStore.DocumentField<String> {
                        DocStore.DocumentField(_path.appending("firstName"))
                    }
                    var nickname: DocStore.DocumentField<String?> {
                        DocStore.DocumentField(_path.appending("nickname"))
                    }
                    var legacy: DocStore.DocumentField<Int?> {
                        DocStore.DocumentField(_path.appending("legacy"))
                    }
                    var position: DocStore.DocumentField<Position> {
                        DocStore.DocumentField(_path.appending("position"))
                    }
                    var tags: DocStore.DocumentField<[String]> {
                        DocStore.DocumentField(_path.appending("tags"))
                    }
                    var stats: DocStore.DocumentField<Stats> {
                        DocStore.DocumentField(_path.appending("stats"))
                    }
                    var games: DocStore.DocumentField<[Game]> {
                        DocStore.DocumentField(_path.appending("games"))
                    }
                    var extra: DocStore.DocumentField<[String: Int]> {
                        DocStore.DocumentField(_path.appending("extra"))
                    }
                    var a: DocStore.DocumentField<Double> {
                        DocStore.DocumentField(_path.appending("a"))
                    }
                    var b: DocStore.DocumentField<Double> {
                        DocStore.DocumentField(_path.appending("b"))
                    }
                    var `default`: DocStore.DocumentField<Bool> {
                        DocStore.DocumentField(_path.appending("default"))
                    }
                    var observed: DocStore.DocumentField<Int> {
                        DocStore.DocumentField(_path.appending("observed"))
                    }
                }
            }

            nonisolated extension Player {
                nonisolated static var _documentKeyPaths: [DocStore.DocumentKeyPath] {
                    [
                        DocStore.DocumentKeyPath(\Self.id, "id"),
                        DocStore.DocumentKeyPath(\Self.firstName, "firstName"),
                        DocStore.DocumentKeyPath(\Self.nickname, "nickname"),
                        DocStore.DocumentKeyPath(\Self.legacy, "legacy"),
                        DocStore.DocumentKeyPath(\Self.position, "position"),
                        DocStore.DocumentKeyPath(\Self.tags, "tags"),
                        DocStore.DocumentKeyPath(\Self.stats, "stats"),
                        DocStore.DocumentKeyPath(\Self.games, "games"),
                        DocStore.DocumentKeyPath(\Self.extra, "extra"),
                        DocStore.DocumentKeyPath(\Self.a, "a"),
                        DocStore.DocumentKeyPath(\Self.b, "b"),
                        DocStore.DocumentKeyPath(\Self.`default`, "default"),
                        DocStore.DocumentKeyPath(\Self.observed, "observed"),
                    ]
                }
            }
            """#
        }
    }

    @Test func codingKeysAreHonoured() {
        assertMacro {
            """
            @Document
            struct Player: Codable {
                var id: Int
                var firstName: String
                var cache: String? = nil
                var weird: Int

                enum CodingKeys: String, CodingKey {
                    case id = "_id", firstName = "first_name"
                    case weird = "odd \\"key\\""
                }
            }
            """
        } expansion: {
            #"""
            struct Player: Codable {
                var id: Int
                var firstName: String
                var cache: String? = nil
                var weird: Int

                enum CodingKeys: String, CodingKey {
                    case id = "_id", firstName = "first_name"
                    case weird = "odd \"key\""
                }
            }

            nonisolated extension Player: DocStore.QueryableDocument {
                nonisolated struct Fields: DocStore.DocumentFieldSet {
                    let _path: DocStore.FieldPath
                    init(_path: DocStore.FieldPath) {
                        self._path = _path
                    }
                    var id: DocStore.DocumentField<Int> {
                        DocStore.DocumentField(_path.appending("_id"))
                    }
                    var firstName: DocStore.DocumentField<String> {
                        DocStore.DocumentField(_path.appending("first_name"))
                    }
                    var weird: DocStore.DocumentField<Int> {
                        DocStore.DocumentField(_path.appending(#"odd "key""#))
                    }
                }
            }

            nonisolated extension Player {
                nonisolated static var _documentKeyPaths: [DocStore.DocumentKeyPath] {
                    [
                        DocStore.DocumentKeyPath(\Self.id, "_id"),
                        DocStore.DocumentKeyPath(\Self.firstName, "first_name"),
                        DocStore.DocumentKeyPath(\Self.weird, #"odd "key""#),
                    ]
                }
            }
            """#
        }
    }

    @Test func codingKeysWithoutRawValuesUseCaseNames() {
        assertMacro {
            """
            @Document
            struct Point: Codable {
                var x: Double
                var y: Double
                var label: String?
                enum CodingKeys: CodingKey {
                    case x, y
                }
            }
            """
        } expansion: {
            #"""
            struct Point: Codable {
                var x: Double
                var y: Double
                var label: String?
                enum CodingKeys: CodingKey {
                    case x, y
                }
            }

            nonisolated extension Point: DocStore.QueryableDocument {
                nonisolated struct Fields: DocStore.DocumentFieldSet {
                    let _path: DocStore.FieldPath
                    init(_path: DocStore.FieldPath) {
                        self._path = _path
                    }
                    var x: DocStore.DocumentField<Double> {
                        DocStore.DocumentField(_path.appending("x"))
                    }
                    var y: DocStore.DocumentField<Double> {
                        DocStore.DocumentField(_path.appending("y"))
                    }
                }
            }

            nonisolated extension Point {
                nonisolated static var _documentKeyPaths: [DocStore.DocumentKeyPath] {
                    [
                        DocStore.DocumentKeyPath(\Self.x, "x"),
                        DocStore.DocumentKeyPath(\Self.y, "y"),
                    ]
                }
            }
            """#
        }
    }

    @Test func accessLevelsFollowTheTypeAndProperties() {
        assertMacro {
            """
            @Document
            public struct Team: Codable, Sendable {
                public var id: Int
                var city: String
                private var secret: String
                package var league: String
            }
            """
        } expansion: {
            #"""
            public struct Team: Codable, Sendable {
                public var id: Int
                var city: String
                private var secret: String
                package var league: String
            }

            nonisolated extension Team: DocStore.QueryableDocument {
                public nonisolated struct Fields: DocStore.DocumentFieldSet {
                    public let _path: DocStore.FieldPath
                    public init(_path: DocStore.FieldPath) {
                        self._path = _path
                    }
                    public var id: DocStore.DocumentField<Int> {
                        DocStore.DocumentField(_path.appending("id"))
                    }
                    var city: DocStore.DocumentField<String> {
                        DocStore.DocumentField(_path.appending("city"))
                    }
                    fileprivate var secret: DocStore.DocumentField<String> {
                        DocStore.DocumentField(_path.appending("secret"))
                    }
                    package var league: DocStore.DocumentField<String> {
                        DocStore.DocumentField(_path.appending("league"))
                    }
                }
            }

            nonisolated extension Team {
                public nonisolated static var _documentKeyPaths: [DocStore.DocumentKeyPath] {
                    [
                        DocStore.DocumentKeyPath(\Self.id, "id"),
                        DocStore.DocumentKeyPath(\Self.city, "city"),
                        DocStore.DocumentKeyPath(\Self.secret, "secret"),
                        DocStore.DocumentKeyPath(\Self.league, "league"),
                    ]
                }
            }
            """#
        }
    }

    @Test func finalClassesAndGenericsAndQualifiedCodable() {
        assertMacro {
            """
            @Document
            final class Box<Content: Codable>: Swift.Codable {
                var content: Content
                var label: String
            }
            """
        } expansion: {
            #"""
            final class Box<Content: Codable>: Swift.Codable {
                var content: Content
                var label: String
            }

            nonisolated extension Box: DocStore.QueryableDocument {
                nonisolated struct Fields: DocStore.DocumentFieldSet {
                    let _path: DocStore.FieldPath
                    init(_path: DocStore.FieldPath) {
                        self._path = _path
                    }
                    var content: DocStore.DocumentField<Content> {
                        DocStore.DocumentField(_path.appending("content"))
                    }
                    var label: DocStore.DocumentField<String> {
                        DocStore.DocumentField(_path.appending("label"))
                    }
                }
            }

            nonisolated extension Box {
                nonisolated static var _documentKeyPaths: [DocStore.DocumentKeyPath] {
                    [
                        DocStore.DocumentKeyPath(\Self.content, "content"),
                        DocStore.DocumentKeyPath(\Self.label, "label"),
                    ]
                }
            }
            """#
        }
        assertMacro {
            """
            @Document
            struct Pair: Encodable & Decodable {
                var left: Int
            }
            """
        } expansion: {
            #"""
            struct Pair: Encodable & Decodable {
                var left: Int
            }

            nonisolated extension Pair: DocStore.QueryableDocument {
                nonisolated struct Fields: DocStore.DocumentFieldSet {
                    let _path: DocStore.FieldPath
                    init(_path: DocStore.FieldPath) {
                        self._path = _path
                    }
                    var left: DocStore.DocumentField<Int> {
                        DocStore.DocumentField(_path.appending("left"))
                    }
                }
            }

            nonisolated extension Pair {
                nonisolated static var _documentKeyPaths: [DocStore.DocumentKeyPath] {
                    [
                        DocStore.DocumentKeyPath(\Self.left, "left"),
                    ]
                }
            }
            """#
        }
    }

    @Test func notCodable() {
        assertMacro {
            """
            @Document
            struct Player: Identifiable {
                var id: Int
            }
            """
        } diagnostics: {
            """
            @Document
            struct Player: Identifiable {
                   ┬─────
                   ╰─ 🛑 @Document requires a Codable type: declare 'Codable' on the type itself (restating it is fine when another protocol implies it)
                      ✏️ Add 'Codable'
                var id: Int
            }
            """
        } fixes: {
            """
            @Document
            struct Player: Identifiable, Codable {
                var id: Int
            }
            """
        } expansion: {
            #"""
            struct Player: Identifiable, Codable {
                var id: Int
            }

            nonisolated extension Player: DocStore.QueryableDocument {
                nonisolated struct Fields: DocStore.DocumentFieldSet {
                    let _path: DocStore.FieldPath
                    init(_path: DocStore.FieldPath) {
                        self._path = _path
                    }
                    var id: DocStore.DocumentField<Int> {
                        DocStore.DocumentField(_path.appending("id"))
                    }
                }
            }

            nonisolated extension Player {
                nonisolated static var _documentKeyPaths: [DocStore.DocumentKeyPath] {
                    [
                        DocStore.DocumentKeyPath(\Self.id, "id"),
                    ]
                }
            }
            """#
        }
        assertMacro {
            """
            @Document
            struct Player {
                var id: Int
            }
            """
        } diagnostics: {
            """
            @Document
            struct Player {
                   ┬─────
                   ╰─ 🛑 @Document requires a Codable type: declare 'Codable' on the type itself (restating it is fine when another protocol implies it)
                      ✏️ Add 'Codable'
                var id: Int
            }
            """
        } fixes: {
            """
            @Document
            struct Player: Codable {
                var id: Int
            }
            """
        } expansion: {
            #"""
            struct Player: Codable {
                var id: Int
            }

            nonisolated extension Player: DocStore.QueryableDocument {
                nonisolated struct Fields: DocStore.DocumentFieldSet {
                    let _path: DocStore.FieldPath
                    init(_path: DocStore.FieldPath) {
                        self._path = _path
                    }
                    var id: DocStore.DocumentField<Int> {
                        DocStore.DocumentField(_path.appending("id"))
                    }
                }
            }

            nonisolated extension Player {
                nonisolated static var _documentKeyPaths: [DocStore.DocumentKeyPath] {
                    [
                        DocStore.DocumentKeyPath(\Self.id, "id"),
                    ]
                }
            }
            """#
        }
    }

    @Test func classNotFinal() {
        assertMacro {
            """
            @Document
            class Player: Codable {
                var id: Int
            }
            """
        } diagnostics: {
            """
            @Document
            class Player: Codable {
            ┬────
            ╰─ 🛑 @Document requires a class to be 'final': a subclass could store properties its fields don't know
               ✏️ Make the class 'final'
                var id: Int
            }
            """
        } fixes: {
            """
            @Document
            final class Player: Codable {
                var id: Int
            }
            """
        } expansion: {
            #"""
            final class Player: Codable {
                var id: Int
            }

            nonisolated extension Player: DocStore.QueryableDocument {
                nonisolated struct Fields: DocStore.DocumentFieldSet {
                    let _path: DocStore.FieldPath
                    init(_path: DocStore.FieldPath) {
                        self._path = _path
                    }
                    var id: DocStore.DocumentField<Int> {
                        DocStore.DocumentField(_path.appending("id"))
                    }
                }
            }

            nonisolated extension Player {
                nonisolated static var _documentKeyPaths: [DocStore.DocumentKeyPath] {
                    [
                        DocStore.DocumentKeyPath(\Self.id, "id"),
                    ]
                }
            }
            """#
        }
    }

    @Test func enumsActorsAndProtocolsAreRejected() {
        assertMacro {
            """
            @Document
            enum Position: String, Codable {
                case shortstop
            }
            """
        } diagnostics: {
            """
            @Document
            enum Position: String, Codable {
            ┬───
            ╰─ 🛑 @Document can't be applied to an enum: an enum is stored as a single value; use it as the type of a property of a @Document struct
                case shortstop
            }
            """
        }
        assertMacro {
            """
            @Document
            actor Scoreboard {
                var runs: Int
            }
            """
        } diagnostics: {
            """
            @Document
            actor Scoreboard {
            ┬────
            ╰─ 🛑 @Document can't be applied to an actor: an actor isn't a Codable value; store a struct
                var runs: Int
            }
            """
        }
        assertMacro {
            """
            @Document
            protocol Model {}
            """
        } diagnostics: {
            """
            @Document
            ┬────────
            ╰─ 🛑 @Document applies to a struct or a final class
            protocol Model {}
            """
        }
    }

    @Test func missingTypeAnnotations() {
        assertMacro {
            """
            @Document
            struct Player: Codable {
                var number = 0
                var average = -0.25
                var name = "Ortiz"
                var stats = Stats()
            }
            """
        } diagnostics: {
            """
            @Document
            struct Player: Codable {
                var number = 0
                    ┬─────
                    ╰─ 🛑 @Document needs the type of 'number' to be written out ('var number: Type')
                       ✏️ Add ': Int'
                var average = -0.25
                    ┬──────
                    ╰─ 🛑 @Document needs the type of 'average' to be written out ('var average: Type')
                       ✏️ Add ': Double'
                var name = "Ortiz"
                    ┬───
                    ╰─ 🛑 @Document needs the type of 'name' to be written out ('var name: Type')
                       ✏️ Add ': String'
                var stats = Stats()
                    ┬────
                    ╰─ 🛑 @Document needs the type of 'stats' to be written out ('var stats: Type')
            }
            """
        }
    }

    @Test func missingTypeFixIt() {
        assertMacro {
            """
            @Document
            struct Player: Codable {
                var number = 0
            }
            """
        } diagnostics: {
            """
            @Document
            struct Player: Codable {
                var number = 0
                    ┬─────
                    ╰─ 🛑 @Document needs the type of 'number' to be written out ('var number: Type')
                       ✏️ Add ': Int'
            }
            """
        } fixes: {
            """
            @Document
            struct Player: Codable {
                var number: Int = 0
            }
            """
        } expansion: {
            #"""
            struct Player: Codable {
                var number: Int = 0
            }

            nonisolated extension Player: DocStore.QueryableDocument {
                nonisolated struct Fields: DocStore.DocumentFieldSet {
                    let _path: DocStore.FieldPath
                    init(_path: DocStore.FieldPath) {
                        self._path = _path
                    }
                    var number: DocStore.DocumentField<Int> {
                        DocStore.DocumentField(_path.appending("number"))
                    }
                }
            }

            nonisolated extension Player {
                nonisolated static var _documentKeyPaths: [DocStore.DocumentKeyPath] {
                    [
                        DocStore.DocumentKeyPath(\Self.number, "number"),
                    ]
                }
            }
            """#
        }
    }

    @Test func tuplePatterns() {
        assertMacro {
            """
            @Document
            struct Player: Codable {
                var (x, y): (Int, Int)
            }
            """
        } diagnostics: {
            """
            @Document
            struct Player: Codable {
                var (x, y): (Int, Int)
                    ┬─────
                    ╰─ 🛑 @Document can't read a tuple pattern: declare each stored property on its own
            }
            """
        }
    }

    /// The key-path table for `#Predicate`: every coded stored property, private
    /// ones included, under its `CodingKeys` name; a property `CodingKeys` leaves
    /// out is not listed (its key path must not convert to a member never stored).
    @Test func keyPathTableFollowsCodingKeysAndAccess() {
        assertMacro {
            """
            @Document
            public struct Locker: Codable {
                public var id: Int
                private var combination: Int
                var cache: String?
                var label: String { "" }

                enum CodingKeys: String, CodingKey {
                    case id
                    case combination = "code"
                }
            }
            """
        } expansion: {
            #"""
            public struct Locker: Codable {
                public var id: Int
                private var combination: Int
                var cache: String?
                var label: String { "" }

                enum CodingKeys: String, CodingKey {
                    case id
                    case combination = "code"
                }
            }

            nonisolated extension Locker: DocStore.QueryableDocument {
                public nonisolated struct Fields: DocStore.DocumentFieldSet {
                    public let _path: DocStore.FieldPath
                    public init(_path: DocStore.FieldPath) {
                        self._path = _path
                    }
                    public var id: DocStore.DocumentField<Int> {
                        DocStore.DocumentField(_path.appending("id"))
                    }
                    fileprivate var combination: DocStore.DocumentField<Int> {
                        DocStore.DocumentField(_path.appending("code"))
                    }
                }
            }

            nonisolated extension Locker {
                public nonisolated static var _documentKeyPaths: [DocStore.DocumentKeyPath] {
                    [
                        DocStore.DocumentKeyPath(\Self.id, "id"),
                        DocStore.DocumentKeyPath(\Self.combination, "code"),
                    ]
                }
            }
            """#
        }
    }
}
