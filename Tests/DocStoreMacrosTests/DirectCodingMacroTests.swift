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
                    case name = "full \\"name\\"\\n"
                    case id = "β"
                }
            }
            """
        }
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
        }
        assertMacro {
            """
            @Document
            struct Decoded: Codable {
                var id: Int
                init(from decoder: any Decoder) throws { id = 1 }
            }
            """
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
        }
        assertMacro {
            """
            @Document
            final class Leaf: Node, Codable {
                let weight: Double
            }
            """
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
        }
    }
}
