import Foundation
import Testing
@testable import DocStore

extension CodingTests {
    /// Decoding errors say where: the path a Swift programmer would write.
    @Suite("Decoding errors") struct DecodingErrors {
        struct CodingStats: Codable { var battingAverage: Double; var games: Int }
        struct Member: Codable { var name: String; var stats: CodingStats; var tags: [String] }

        @Test("a renamed field is keyNotFound at its path")
        func renamedField() {
            let error = codingError {
                _ = try DocumentCodec.decode(Member.self, from: #"{"name":"a","stats":{"battingAvg":0.3,"games":1},"tags":[]}"#)
            }
            #expect(error?.kind == .keyNotFound)
            #expect(error?.codingPath == "stats.battingAverage")
            #expect(error?.description == #"at stats.battingAverage: no value for key "battingAverage""#)
        }

        @Test("a wrong type names the path and what was found")
        func typeMismatch() {
            let error = codingError {
                _ = try DocumentCodec.decode(Member.self, from: #"{"name":"a","stats":{"battingAverage":"abc","games":1},"tags":[]}"#)
            }
            #expect(error?.kind == .typeMismatch)
            #expect(error?.codingPath == "stats.battingAverage")
            #expect(error?.description == #"at stats.battingAverage: expected Double, found string "abc""#)
        }

        @Test("array elements are named by index")
        func arrayElement() {
            let error = codingError {
                _ = try DocumentCodec.decode(Member.self, from: #"{"name":"a","stats":{"battingAverage":1,"games":1},"tags":["x","y",3]}"#)
            }
            #expect(error?.codingPath == "tags[2]")
            #expect(error?.reason == "expected String, found number 3")
            let nested = codingError { _ = try DocumentCodec.decode([[Member]].self, from: #"[[],[{"name":1}]]"#) }
            #expect(nested?.codingPath == "[1][0].name")
        }

        @Test("null for a non-optional is valueNotFound")
        func nullValue() {
            let error = codingError { _ = try DocumentCodec.decode(CodingStats.self, from: #"{"battingAverage":null,"games":1}"#) }
            #expect(error?.kind == .valueNotFound)
            #expect(error?.codingPath == "battingAverage")
            #expect(codingError { _ = try DocumentCodec.decode(CodingStats.self, from: "[]") }?.kind == .typeMismatch)
            #expect(codingError { _ = try DocumentCodec.decode([Int].self, from: "{}") }?.reason == "expected array, found object")
        }

        @Test("invalid URLs, base64 and UUIDs name the path")
        func invalidFoundationValues() {
            struct Links: Codable { var home: URL; var photo: Data; var id: UUID }
            let url = codingError { _ = try DocumentCodec.decode(Links.self, from: #"{"home":"","photo":"","id":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F"}"#) }
            #expect(url?.kind == .invalidValue)
            #expect(url?.codingPath == "home")
            let photo = codingError { _ = try DocumentCodec.decode(Links.self, from: #"{"home":"https://a.b","photo":"!!","id":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F"}"#) }
            #expect(photo?.codingPath == "photo")
            let id = codingError { _ = try DocumentCodec.decode(Links.self, from: #"{"home":"https://a.b","photo":"","id":"nope"}"#) }
            #expect(id?.kind == .invalidValue)
            #expect(id?.codingPath == "id")
        }

        @Test("errors thrown by a model's own init(from:) keep their path")
        func customErrors() {
            struct Even: Decodable {
                init(from decoder: any Decoder) throws {
                    let value = try decoder.singleValueContainer().decode(Int.self)
                    if value % 2 != 0 {
                        throw DecodingError.dataCorruptedError(in: try decoder.singleValueContainer(), debugDescription: "odd")
                    }
                }
            }
            struct Holder: Decodable { var numbers: [Even] }
            let error = codingError { _ = try DocumentCodec.decode(Holder.self, from: #"{"numbers":[2,3]}"#) }
            #expect(error?.kind == .invalidValue)
            #expect(error?.codingPath == "numbers[1]")
            #expect(error?.reason == "odd")
        }

        @Test("invalid JSON is reported with line and column")
        func invalidJSONInDecode() {
            let error = codingError { _ = try DocumentCodec.decode(CodingStats.self, from: "{\n  \"battingAverage\": 1,\n  \"games\": 01\n}") }
            #expect(error?.kind == .invalidJSON(line: 3, column: 12))
            #expect(error?.description == "invalid JSON at line 3, column 12: numbers cannot have leading zeros")
        }
    }
}
