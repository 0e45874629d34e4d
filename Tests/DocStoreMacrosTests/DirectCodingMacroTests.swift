import MacroTesting
import SwiftSyntaxMacroExpansion
import Testing
@testable import DocStoreMacros

/// `@Document`'s generated coding, as the compiler requests it: all three
/// conformances. (DocumentMacroTests requests `QueryableDocument` alone, so its
/// expansions show the `Fields` half only.)
@Suite(.macros([
    "Document": MacroSpec(type: DocumentMacro.self,
                          conformances: ["QueryableDocument", "DirectJSONEncodable", "DirectJSONDecodable"]),
]))
struct DirectCodingMacroTests {
    @Test func membersInDeclarationOrderWithTheirTypes() {
        assertMacro {
            """
            @Document
            public struct Player: Codable {
                public var id: Int
                var nickname: String?
                var legacy: Int!
                var tags: [String]
                var byName: [String: Int]
                var `default`: Bool = false
                let version: Int = 2
                let league: String
                var fullName: String { "x" }
                static var count = 0
            }
            """
        } expansion: {
            #"""
            public struct Player: Codable {
                public var id: Int
                var nickname: String?
                var legacy: Int!
                var tags: [String]
                var byName: [String: Int]
                var `default`: Bool = false
                let version: Int = 2
                let league: String
                var fullName: String { "x" }
                static var count = 0
            }

            nonisolated extension Player: DocStore.QueryableDocument {
                public nonisolated struct Fields: DocStore.DocumentFieldSet {
                    public let _path: DocStore.FieldPath
                    public init(_path: DocStore.FieldPath) {
                        self._path = _path
                    }
                    public var id: DocStore.DocumentField<Int> {
                        DocStore.DocumentField(_path.appending("id"))
                    }
                    var nickname: DocStore.DocumentField<String?> {
                        DocStore.DocumentField(_path.appending("nickname"))
                    }
                    var legacy: DocStore.DocumentField<Int?> {
                        DocStore.DocumentField(_path.appending("legacy"))
                    }
                    var tags: DocStore.DocumentField<[String]> {
                        DocStore.DocumentField(_path.appending("tags"))
                    }
                    var byName: DocStore.DocumentField<[String: Int]> {
                        DocStore.DocumentField(_path.appending("byName"))
                    }
                    var `default`: DocStore.DocumentField<Bool> {
                        DocStore.DocumentField(_path.appending("default"))
                    }
                    var version: DocStore.DocumentField<Int> {
                        DocStore.DocumentField(_path.appending("version"))
                    }
                    var league: DocStore.DocumentField<String> {
                        DocStore.DocumentField(_path.appending("league"))
                    }
                }
            }

            nonisolated extension Player {
                public nonisolated static var _documentKeyPaths: [DocStore.DocumentKeyPath] {
                    [
                        DocStore.DocumentKeyPath(\Self.id, "id"),
                        DocStore.DocumentKeyPath(\Self.nickname, "nickname"),
                        DocStore.DocumentKeyPath(\Self.legacy, "legacy"),
                        DocStore.DocumentKeyPath(\Self.tags, "tags"),
                        DocStore.DocumentKeyPath(\Self.byName, "byName"),
                        DocStore.DocumentKeyPath(\Self.`default`, "default"),
                        DocStore.DocumentKeyPath(\Self.version, "version"),
                        DocStore.DocumentKeyPath(\Self.league, "league"),
                    ]
                }
            }

            nonisolated extension Player: DocStore.DirectJSONEncodable {
                public nonisolated func _encodeDirectJSON(to object: DocStore.DirectJSONObjectEncoder) throws {
                    try object.encode(self.id, forKey: "id", json: "\"id\":")
                    try object.encode(self.nickname, forKey: "nickname", json: "\"nickname\":")
                    try object.encode(self.legacy, forKey: "legacy", json: "\"legacy\":")
                    try object.encode(self.tags, forKey: "tags", json: "\"tags\":")
                    try object.encode(self.byName, forKey: "byName", json: "\"byName\":")
                    try object.encode(self.`default`, forKey: "default", json: "\"default\":")
                    try object.encode(self.version, forKey: "version", json: "\"version\":")
                    try object.encode(self.league, forKey: "league", json: "\"league\":")
                }
            }

            nonisolated extension Player: DocStore.DirectJSONDecodable {
                public nonisolated init(_directJSON object: DocStore.DirectJSONObjectDecoder) throws {
                    self.id = try object.decode(Int.self, forKey: "id")
                    self.nickname = try object.decode(String?.self, forKey: "nickname")
                    self.legacy = try object.decode(Int?.self, forKey: "legacy")
                    self.tags = try object.decode([String].self, forKey: "tags")
                    self.byName = try object.decode([String: Int].self, forKey: "byName")
                    self.`default` = try object.decode(Bool.self, forKey: "default")
                    self.league = try object.decode(String.self, forKey: "league")
                }
            }
            """#
        }
    }

    @Test func codingKeysOrderAndEscapedNames() {
        assertMacro {
            """
            @Document
            struct Player: Codable {
                var id: Int
                var name: String
                var cache: Int = 0
                enum CodingKeys: String, CodingKey {
                    case name = "full \\"name\\" \\\\"
                    case id = "β"
                }
            }
            """
        } expansion: {
            #"""
            struct Player: Codable {
                var id: Int
                var name: String
                var cache: Int = 0
                enum CodingKeys: String, CodingKey {
                    case name = "full \"name\" \\"
                    case id = "β"
                }
            }

            nonisolated extension Player: DocStore.QueryableDocument {
                nonisolated struct Fields: DocStore.DocumentFieldSet {
                    let _path: DocStore.FieldPath
                    init(_path: DocStore.FieldPath) {
                        self._path = _path
                    }
                    var id: DocStore.DocumentField<Int> {
                        DocStore.DocumentField(_path.appending("β"))
                    }
                    var name: DocStore.DocumentField<String> {
                        DocStore.DocumentField(_path.appending(#"full "name" \"#))
                    }
                }
            }

            nonisolated extension Player {
                nonisolated static var _documentKeyPaths: [DocStore.DocumentKeyPath] {
                    [
                        DocStore.DocumentKeyPath(\Self.id, "β"),
                        DocStore.DocumentKeyPath(\Self.name, #"full "name" \"#),
                    ]
                }
            }

            nonisolated extension Player: DocStore.DirectJSONEncodable {
                nonisolated func _encodeDirectJSON(to object: DocStore.DirectJSONObjectEncoder) throws {
                    try object.encode(self.name, forKey: "full \"name\" \\", json: "\"full \\\"name\\\" \\\\\":")
                    try object.encode(self.id, forKey: "β", json: "\"β\":")
                }
            }

            nonisolated extension Player: DocStore.DirectJSONDecodable {
                nonisolated init(_directJSON object: DocStore.DirectJSONObjectDecoder) throws {
                    self.name = try object.decode(String.self, forKey: "full \"name\" \\")
                    self.id = try object.decode(Int.self, forKey: "β")
                }
            }
            """#
        }
    }

    @Test func memberNamesAreEscapedAsDocStoreWritesJSON() {
        #expect(DirectCoding.jsonMemberPrefix("id") == #""id":"#)
        #expect(DirectCoding.jsonMemberPrefix("a\"b\\c\n\r\t\u{8}\u{C}\u{1}\u{1F}é") == #""a\"b\\c\n\r\t\b\f\u0001\u001fé":"#)
        #expect(DirectCoding.swiftLiteral("a\"b\\\n\0\u{7F}é") == #""a\"b\\\n\0\u{7f}é""#)
    }

    @Test func handWrittenDirectionsKeepCodable() {
        assertMacro {
            """
            @Document
            struct Encoded: Codable {
                var id: Int
                func encode(to encoder: any Encoder) throws {}
            }
            """
        } expansion: {
            #"""
            struct Encoded: Codable {
                var id: Int
                func encode(to encoder: any Encoder) throws {}
            }

            nonisolated extension Encoded: DocStore.QueryableDocument {
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

            nonisolated extension Encoded {
                nonisolated static var _documentKeyPaths: [DocStore.DocumentKeyPath] {
                    [
                        DocStore.DocumentKeyPath(\Self.id, "id"),
                    ]
                }
            }

            nonisolated extension Encoded: DocStore.DirectJSONDecodable {
                nonisolated init(_directJSON object: DocStore.DirectJSONObjectDecoder) throws {
                    self.id = try object.decode(Int.self, forKey: "id")
                }
            }
            """#
        }
        assertMacro {
            """
            @Document
            struct Decoded: Codable {
                var id: Int
                init(from decoder: any Decoder) throws { id = 1 }
            }
            """
        } expansion: {
            #"""
            struct Decoded: Codable {
                var id: Int
                init(from decoder: any Decoder) throws { id = 1 }
            }

            nonisolated extension Decoded: DocStore.QueryableDocument {
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

            nonisolated extension Decoded {
                nonisolated static var _documentKeyPaths: [DocStore.DocumentKeyPath] {
                    [
                        DocStore.DocumentKeyPath(\Self.id, "id"),
                    ]
                }
            }

            nonisolated extension Decoded: DocStore.DirectJSONEncodable {
                nonisolated func _encodeDirectJSON(to object: DocStore.DirectJSONObjectEncoder) throws {
                    try object.encode(self.id, forKey: "id", json: "\"id\":")
                }
            }
            """#
        }
    }

    @Test func classesGetEncodingOnlyAndNothingWithASuperclass() {
        assertMacro {
            """
            @Document
            final class Node: Codable, Sendable {
                let name: String
            }
            """
        } expansion: {
            #"""
            final class Node: Codable, Sendable {
                let name: String
            }

            nonisolated extension Node: DocStore.QueryableDocument {
                nonisolated struct Fields: DocStore.DocumentFieldSet {
                    let _path: DocStore.FieldPath
                    init(_path: DocStore.FieldPath) {
                        self._path = _path
                    }
                    var name: DocStore.DocumentField<String> {
                        DocStore.DocumentField(_path.appending("name"))
                    }
                }
            }

            nonisolated extension Node {
                nonisolated static var _documentKeyPaths: [DocStore.DocumentKeyPath] {
                    [
                        DocStore.DocumentKeyPath(\Self.name, "name"),
                    ]
                }
            }

            nonisolated extension Node: DocStore.DirectJSONEncodable {
                nonisolated func _encodeDirectJSON(to object: DocStore.DirectJSONObjectEncoder) throws {
                    try object.encode(self.name, forKey: "name", json: "\"name\":")
                }
            }
            """#
        }
        assertMacro {
            """
            @Document
            final class Leaf: Node, Codable {
                let weight: Double
            }
            """
        } expansion: {
            #"""
            final class Leaf: Node, Codable {
                let weight: Double
            }

            nonisolated extension Leaf: DocStore.QueryableDocument {
                nonisolated struct Fields: DocStore.DocumentFieldSet {
                    let _path: DocStore.FieldPath
                    init(_path: DocStore.FieldPath) {
                        self._path = _path
                    }
                    var weight: DocStore.DocumentField<Double> {
                        DocStore.DocumentField(_path.appending("weight"))
                    }
                }
            }

            nonisolated extension Leaf {
                nonisolated static var _documentKeyPaths: [DocStore.DocumentKeyPath] {
                    [
                        DocStore.DocumentKeyPath(\Self.weight, "weight"),
                    ]
                }
            }
            """#
        }
    }

    @Test func nothingWhenTheMacroCantTellWhatSynthesisDoes() {
        assertMacro {
            """
            @Document
            struct Wrapped: Codable {
                @Clamped var level: Int
            }
            """
        } expansion: {
            #"""
            struct Wrapped: Codable {
                @Clamped var level: Int
            }

            nonisolated extension Wrapped: DocStore.QueryableDocument {
                nonisolated struct Fields: DocStore.DocumentFieldSet {
                    let _path: DocStore.FieldPath
                    init(_path: DocStore.FieldPath) {
                        self._path = _path
                    }
                    var level: DocStore.DocumentField<Int> {
                        DocStore.DocumentField(_path.appending("level"))
                    }
                }
            }

            nonisolated extension Wrapped {
                nonisolated static var _documentKeyPaths: [DocStore.DocumentKeyPath] {
                    [
                        DocStore.DocumentKeyPath(\Self.level, "level"),
                    ]
                }
            }
            """#
        }
        assertMacro {
            """
            @Document
            struct Keyed: Codable {
                var id: Int
                struct CodingKeys: CodingKey {
                    var stringValue: String
                    init?(stringValue: String) { self.stringValue = stringValue }
                    var intValue: Int? { nil }
                    init?(intValue: Int) { nil }
                }
            }
            """
        } expansion: {
            #"""
            struct Keyed: Codable {
                var id: Int
                struct CodingKeys: CodingKey {
                    var stringValue: String
                    init?(stringValue: String) { self.stringValue = stringValue }
                    var intValue: Int? { nil }
                    init?(intValue: Int) { nil }
                }
            }

            nonisolated extension Keyed: DocStore.QueryableDocument {
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

            nonisolated extension Keyed {
                nonisolated static var _documentKeyPaths: [DocStore.DocumentKeyPath] {
                    [
                        DocStore.DocumentKeyPath(\Self.id, "id"),
                    ]
                }
            }
            """#
        }
    }
}
