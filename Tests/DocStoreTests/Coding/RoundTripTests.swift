import Foundation
import Testing
@testable import DocStore

extension CodingTests {
    /// Property tests: random nested models survive encode → decode, and
    /// Foundation's JSONDecoder reads the same JSON to the same value.
    @Suite("Round trips") struct RoundTrips {
        @Test("decode(encode(x)) == x for random profiles", arguments: PropertySeeds.all)
        func randomProfiles(seed: UInt64) throws {
            var generator = CodingRandom(seed: seed)
            for iteration in 0..<60 {
                let profile = generator.profile()
                let bytes = try DocumentCodec.encode(profile)
                let decoded = try DocumentCodec.decode(CodingProfile.self, from: bytes)
                #expect(decoded == profile, "seed \(seed), iteration \(iteration): rerun with CODEC_SEED=\(seed)")
                // Encoding is deterministic apart from dictionary order: the
                // re-encoded value parses to an equal JSONValue.
                let again = try DocumentCodec.encode(decoded)
                #expect(try DocumentCodec.parse(again) == DocumentCodec.parse(bytes), "seed \(seed), iteration \(iteration)")
            }
        }

        @Test("Foundation's JSONDecoder reads our JSON to the same value", arguments: PropertySeeds.all)
        func foundationReadsOurJSON(seed: UInt64) throws {
            var generator = CodingRandom(seed: seed)
            let foundation = JSONDecoder()
            // Dates are the one convention Foundation does not share by default;
            // the rest (numbers, strings, base64, URL, UUID, Decimal, dictionaries,
            // enums) is checked against Foundation's own reading.
            foundation.dateDecodingStrategy = .custom { decoder in
                let text = try decoder.singleValueContainer().decode(String.self)
                return try DocumentCodec.decode(Date.self, from: DocumentCodec.encode(text))
            }
            for iteration in 0..<40 {
                let profile = generator.profile()
                let bytes = try DocumentCodec.encode(profile)
                let theirs = try foundation.decode(CodingProfile.self, from: Data(bytes))
                #expect(theirs == profile, "seed \(seed), iteration \(iteration): rerun with CODEC_SEED=\(seed)")
            }
        }

        @Test("We read Foundation's JSONEncoder output (dates as ISO text)", arguments: PropertySeeds.all)
        func weReadFoundationJSON(seed: UInt64) throws {
            var generator = CodingRandom(seed: seed)
            let foundation = JSONEncoder()
            // Whole seconds; Foundation's formatter switches to the Julian calendar
            // before 1582-10-15, where ISO 8601 (and this codec) stay Gregorian.
            foundation.dateEncodingStrategy = .iso8601
            for iteration in 0..<40 {
                var profile = generator.profile()
                setDates(of: &profile, seconds: Int64(-12_000_000_000 + Int64(iteration) * 5_000_000_003))
                let data = try foundation.encode(profile)
                let ours = try data.withUnsafeBytes { (raw) throws(DocumentCodingError) -> CodingProfile in try DocumentCodec.decode(CodingProfile.self, from: raw) }
                #expect(ours == profile, "seed \(seed), iteration \(iteration): rerun with CODEC_SEED=\(seed)")
            }
        }

        private func setDates(of profile: inout CodingProfile, seconds: Int64) {
            profile.born = Date(timeIntervalSinceReferenceDate: Double(seconds))
            profile.children = profile.children.map { child in
                var child = child
                setDates(of: &child, seconds: seconds + 1)
                return child
            }
        }

        @Test("the workload's CodingPlayer encodes compactly in declaration order")
        func playerText() throws {
            let player = CodingPlayer(id: 42, firstName: "First42", lastName: "Last718", number: 2, teamId: 12,
                                position: "Third Base", battingAverage: 0.154, nickname: "Nick42", tags: ["rookie", "allstar"])
            #expect(try encodeText(player) == #"{"id":42,"firstName":"First42","lastName":"Last718","number":2,"teamId":12,"position":"Third Base","battingAverage":0.154,"nickname":"Nick42","tags":["rookie","allstar"]}"#)
            var anonymous = player
            anonymous.nickname = nil
            anonymous.tags = []
            #expect(try encodeText(anonymous) == #"{"id":42,"firstName":"First42","lastName":"Last718","number":2,"teamId":12,"position":"Third Base","battingAverage":0.154,"tags":[]}"#)
            #expect(try DocumentCodec.decode(CodingPlayer.self, from: encodeText(anonymous)) == anonymous)
        }

        @Test("optionals: nil is absent, null and missing both decode to nil, array nils are null")
        func optionals() throws {
            struct Model: Codable, Equatable { var a: Int?; var b: [String?] }
            #expect(try encodeText(Model(a: nil, b: [nil, "x"])) == #"{"b":[null,"x"]}"#)
            #expect(try DocumentCodec.decode(Model.self, from: #"{"a":null,"b":[]}"#) == Model(a: nil, b: []))
            #expect(try DocumentCodec.decode(Model.self, from: #"{"b":[null]}"#) == Model(a: nil, b: [nil]))
        }

        @Test("unknown fields are ignored, keys in any order are found")
        func unknownFields() throws {
            let text = #"{"tags":["a"],"extra":{"deep":[1,2,{"x":null}]},"id":1,"firstName":"F","lastName":"L","number":3,"#
                + #""teamId":4,"position":"P","battingAverage":3,"nickname":null,"more":"x"}"#
            let player = try DocumentCodec.decode(CodingPlayer.self, from: text)
            #expect(player == CodingPlayer(id: 1, firstName: "F", lastName: "L", number: 3, teamId: 4, position: "P",
                                     battingAverage: 3.0, nickname: nil, tags: ["a"]))
        }

        @Test("dictionaries: String and Int keys are objects, others are pair arrays")
        func dictionaries() throws {
            #expect(try encodeText(["a": 1]) == #"{"a":1}"#)
            #expect(try encodeText([7: "x"]) == #"{"7":"x"}"#)
            #expect(try encodeText([1.5: "x"]) == #"[1.5,"x"]"#)
            #expect(try DocumentCodec.decode([Int: String].self, from: #"{"7":"x","-3":"y"}"#) == [7: "x", -3: "y"])
            #expect(try DocumentCodec.decode([Double: String].self, from: #"[1.5,"x"]"#) == [1.5: "x"])
        }

        @Test("enums with raw values and associated values")
        func enums() throws {
            #expect(try encodeText(CodingPosition.firstBase) == #""first base""#)
            #expect(try encodeText(CodingAward.mvp(year: 2024)) == #"{"mvp":{"year":2024}}"#)
            for award in [CodingAward.mvp(year: 1), .allStar(2, "x"), .rookieOfTheYear, .note(nil), .note("n")] {
                #expect(try DocumentCodec.decode(CodingAward.self, from: DocumentCodec.encode(award)) == award)
            }
        }

        @Test("top-level scalars and arrays")
        func topLevel() throws {
            #expect(try encodeText("x") == #""x""#)
            #expect(try encodeText(3) == "3")
            #expect(try encodeText([1, 2]) == "[1,2]")
            #expect(try encodeText(Optional<Int>.none) == "null")
            #expect(try DocumentCodec.decode(Int?.self, from: "null") == nil)
            #expect(try DocumentCodec.decode([Int].self, from: " [ 1 , 2 ] ") == [1, 2])
        }

        @Test("hostile strings round-trip byte for byte, and escapes are minimal")
        func strings() throws {
            let text = "q\"b\\s/n\nt\t\u{0}\u{1F}\u{7F}é😀👩‍👩‍👧\u{2028}"
            #expect(try encodeText(text) == "\"q\\\"b\\\\s/n\\nt\\t\\u0000\\u001f\u{7F}é😀👩‍👩‍👧\u{2028}\"")
            #expect(try DocumentCodec.decode(String.self, from: DocumentCodec.encode(text)) == text)
            let big = String(repeating: "ab\"c😀", count: 2_000)
            #expect(try DocumentCodec.decode(String.self, from: DocumentCodec.encode(big)) == big)
            #expect(try DocumentCodec.decode(String.self, from: #""\ud83d\ude00 \u00e9 \/""#) == "😀 é /")
        }

        @Test("Data, URL, UUID conventions")
        func foundationTypes() throws {
            #expect(try encodeText(Data([0, 1, 2, 250])) == #""AAEC+g==""#)
            #expect(try DocumentCodec.decode(Data.self, from: #""AAEC+g==""#) == Data([0, 1, 2, 250]))
            let url = try #require(URL(string: "https://example.com/a%20b?q=1#f"))
            #expect(try encodeText(url) == #""https://example.com/a%20b?q=1#f""#)
            #expect(try DocumentCodec.decode(URL.self, from: DocumentCodec.encode(url)) == url)
            let uuid = try #require(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
            #expect(try encodeText(uuid) == #""E621E1F8-C36C-495A-93FC-0C247A3E6E5F""#)
            #expect(try DocumentCodec.decode(UUID.self, from: #""e621e1f8-c36c-495a-93fc-0c247a3e6e5f""#) == uuid)
        }

        @Test("Decimal keeps its exact digits")
        func decimals() throws {
            let value = try #require(Decimal(string: "12345678901234567890.123456789"))
            #expect(try encodeText(value) == "12345678901234567890.123456789")
            #expect(try DocumentCodec.decode(Decimal.self, from: "12345678901234567890.123456789") == value)
            #expect(try DocumentCodec.decode(Decimal.self, from: "0.1") == Decimal(string: "0.1"))
            #expect(try DocumentCodec.decode(Decimal.self, from: "-1.5e-7") == Decimal(string: "-0.00000015"))
            #expect(codingError { _ = try DocumentCodec.encode(Decimal.nan) }?.kind == .unsupportedValue)
        }

        @Test("JSONValue bridges: encodeValue and decode(from: JSONValue)")
        func jsonValueBridge() throws {
            let player = CodingPlayer(id: 1, firstName: "F", lastName: "L", number: 3, teamId: 4, position: "P",
                                battingAverage: 0.5, nickname: nil, tags: ["a"])
            let value = try DocumentCodec.encodeValue(player)
            #expect(value["battingAverage"] == .double(0.5))
            #expect(value["nickname"] == nil)
            #expect(value["tags"] == ["a"])
            #expect(try DocumentCodec.decode(CodingPlayer.self, from: value) == player)
            // Exact: beyond Int64, the digits themselves (never the nearest Double).
            #expect(try DocumentCodec.encodeValue(UInt64.max) == .exactNumber(try #require(JSONNumberLiteral("18446744073709551615"))))
            #expect(try DocumentCodec.encodeValue(UInt64.max) != .double(18446744073709551615.0))
            #expect(try DocumentCodec.encodeValue(Int64.min) == .integer(.min))
        }
    }
}
