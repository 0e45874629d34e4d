import Foundation
import Testing
@testable import DocStore

extension CodingTests {
    @Suite("Dates") struct Dates {
        @Test("fixed-width UTC text with nine fractional digits")
        func format() throws {
            #expect(try encodeText(Date(timeIntervalSinceReferenceDate: 0)) == #""2001-01-01T00:00:00.000000000Z""#)
            #expect(try encodeText(Date(timeIntervalSince1970: 0)) == #""1970-01-01T00:00:00.000000000Z""#)
            #expect(try encodeText(Date(timeIntervalSince1970: 1_795_231_873.5)) == #""2026-11-21T03:31:13.500000000Z""#)
            #expect(try encodeText(Date(timeIntervalSinceReferenceDate: -0.25)) == #""2000-12-31T23:59:59.750000000Z""#)
            #expect(try encodeText(Date(timeIntervalSinceReferenceDate: ISO8601Date.minimumSeconds.asDouble)) == #""0001-01-01T00:00:00.000000000Z""#)
            #expect(try encodeText(Date(timeIntervalSinceReferenceDate: ISO8601Date.endSeconds.asDouble - 1)) == #""9999-12-31T23:59:59.000000000Z""#)
        }

        @Test("random dates in 0001...9999 round-trip bit for bit and keep text order", arguments: PropertySeeds.all)
        func exactRoundTrip(seed: UInt64) throws {
            var r = CodingRandom(seed: seed)
            var previous: (Double, String)?
            for _ in 0..<3_000 {
                let date = r.date()
                let text = try encodeText(date)
                let decoded = try DocumentCodec.decode(Date.self, from: text)
                let expected = date.timeIntervalSinceReferenceDate
                // -0.0 has no text of its own; it comes back as +0.0 (an equal Date).
                #expect(decoded.timeIntervalSinceReferenceDate.bitPattern == (expected == 0 ? 0 : expected).bitPattern,
                        "\(expected) -> \(text), seed \(seed)")
                // Text order is time order for dates at least 1 ns apart.
                if let (otherTime, otherText) = previous, text.utf8.count == 32, otherText.utf8.count == 32,
                   abs(otherTime - expected) >= 1e-9 {
                    #expect((otherTime < expected) == (otherText < text), "\(otherText) vs \(text), seed \(seed)")
                }
                previous = (expected, text)
            }
        }

        @Test("sub-nanosecond dates near 2001-01-01 get extra digits and stay exact")
        func subNanosecond() throws {
            for interval in [1e-10, -1e-10, 1.5e-9, 1e-300, 123.0000000001, -7.1234567891234, -Double.leastNonzeroMagnitude] {
                let date = Date(timeIntervalSinceReferenceDate: interval)
                let text = try encodeText(date)
                #expect(text.utf8.count > 32, "\(text)")
                #expect(try DocumentCodec.decode(Date.self, from: text).timeIntervalSinceReferenceDate.bitPattern == interval.bitPattern, "\(interval) -> \(text)")
            }
            #expect(try encodeText(Date(timeIntervalSinceReferenceDate: 1e-10)) == #""2001-01-01T00:00:00.0000000001Z""#)
            #expect(try encodeText(Date(timeIntervalSinceReferenceDate: -1e-10)) == #""2000-12-31T23:59:59.9999999999Z""#)
        }

        @Test("dates outside 0001...9999 throw unsupportedValue naming the path")
        func outOfRange() {
            struct Event: Encodable { var at: Date }
            let early = codingError { _ = try DocumentCodec.encode([Event(at: Date(timeIntervalSinceReferenceDate: ISO8601Date.minimumSeconds.asDouble - 0.5))]) }
            #expect(early?.kind == .unsupportedValue)
            #expect(early?.codingPath == "[0].at")
            #expect(codingError { _ = try DocumentCodec.encode(Date.distantFuture.addingTimeInterval(1e12)) }?.kind == .unsupportedValue)
            #expect(codingError { _ = try DocumentCodec.encode(Date(timeIntervalSinceReferenceDate: .nan)) }?.kind == .unsupportedValue)
        }

        @Test("common ISO 8601 variants decode", arguments: [
            ("2026-11-21T03:31:13Z", 1_795_231_873.0),
            ("2026-11-21T03:31:13.5Z", 1_795_231_873.5),
            ("2026-11-21t03:31:13.250z", 1_795_231_873.25),
            ("2026-11-21 03:31:13Z", 1_795_231_873.0),
            ("2026-11-21T05:31:13+02:00", 1_795_231_873.0),
            ("2026-11-20T22:01:13.000-05:30", 1_795_231_873.0),
            ("2024-02-29T00:00:00Z", 1_709_164_800.0),
        ])
        func variants(text: String, unixTime: Double) throws {
            let date = try DocumentCodec.decode(Date.self, from: "\"\(text)\"")
            #expect(date.timeIntervalSince1970 == unixTime)
        }

        @Test("malformed dates are invalidValue naming the path", arguments: [
            "2026-11-21", "2026-11-21T03:31:13", "2026-13-01T00:00:00Z", "2025-02-29T00:00:00Z",
            "2026-11-21T24:00:00Z", "2026-11-21T03:31:60Z", "2026-11-21T03:31:13.Z", "0000-01-01T00:00:00Z",
            "2026-11-21T03:31:13+0200", "26-11-21T03:31:13Z", "2026-11-21T03:31:13Zjunk",
        ])
        func malformed(text: String) {
            struct Event: Decodable { var at: Date }
            let error = codingError { _ = try DocumentCodec.decode(Event.self, from: "{\"at\":\"\(text)\"}") }
            #expect(error?.kind == .invalidValue)
            #expect(error?.codingPath == "at")
        }
    }
}
