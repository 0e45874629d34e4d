import Foundation
import Testing
@testable import DocStore

extension CodingTests {
    @Suite("Numbers") struct Numbers {
        @Test("fixed-width integer extremes are exact")
        func integerExtremes() throws {
            #expect(try encodeText([Int64.min, Int64.max]) == "[-9223372036854775808,9223372036854775807]")
            #expect(try encodeText(UInt64.max) == "18446744073709551615")
            #expect(try DocumentCodec.decode(UInt64.self, from: "18446744073709551615") == .max)
            #expect(try DocumentCodec.decode(Int64.self, from: "-9223372036854775808") == .min)
            #expect(try DocumentCodec.decode([Int8].self, from: "[-128,127]") == [-128, 127])
            #expect(try DocumentCodec.decode(UInt8.self, from: "255") == 255)
        }

        @Test("random integers of every width round-trip", arguments: PropertySeeds.all)
        func randomIntegers(seed: UInt64) throws {
            struct All: Codable, Equatable {
                var a: Int8, b: Int16, c: Int32, d: Int64, e: Int, f: UInt8, g: UInt16, h: UInt32, i: UInt64, j: UInt
            }
            var r = CodingRandom(seed: seed)
            for _ in 0..<200 {
                let value = All(a: .random(in: .min ... .max, using: &r), b: .random(in: .min ... .max, using: &r),
                                c: .random(in: .min ... .max, using: &r), d: .random(in: .min ... .max, using: &r),
                                e: .random(in: .min ... .max, using: &r), f: .random(in: .min ... .max, using: &r),
                                g: .random(in: .min ... .max, using: &r), h: .random(in: .min ... .max, using: &r),
                                i: .random(in: .min ... .max, using: &r), j: .random(in: .min ... .max, using: &r))
                #expect(try DocumentCodec.decode(All.self, from: DocumentCodec.encode(value)) == value, "seed \(seed)")
            }
        }

        @Test("integral reals decode as integers; fractions and overflow are type mismatches")
        func integersFromReals() throws {
            #expect(try DocumentCodec.decode(Int.self, from: "3.0") == 3)
            #expect(try DocumentCodec.decode(Int.self, from: "1e3") == 1000)
            #expect(try DocumentCodec.decode(Int.self, from: "-2.50e1") == -25)
            #expect(try DocumentCodec.decode(Int.self, from: "-0.0") == 0)
            #expect(try DocumentCodec.decode(UInt64.self, from: "1.8446744073709551615e19") == .max)
            let fraction = codingError { _ = try DocumentCodec.decode([Int].self, from: "[1, 2.5]") }
            #expect(fraction?.kind == .typeMismatch)
            #expect(fraction?.codingPath == "[1]")
            #expect(fraction?.reason == "expected Int, found number 2.5, which is not an integer")
            #expect(codingError { _ = try DocumentCodec.decode(Int8.self, from: "128") }?.kind == .typeMismatch)
            #expect(codingError { _ = try DocumentCodec.decode(UInt.self, from: "-1") }?.kind == .typeMismatch)
            #expect(codingError { _ = try DocumentCodec.decode(Int64.self, from: "9223372036854775808") }?.kind == .typeMismatch)
            #expect(codingError { _ = try DocumentCodec.decode(Int.self, from: "1e30") }?.kind == .typeMismatch)
        }

        @Test("doubles: shortest text, integral values keep .0, valid exponents")
        func doubleText() throws {
            #expect(try encodeText([3.0, 0.1, -0.0, 1e-5, 1e16, .leastNonzeroMagnitude]) == "[3.0,0.1,-0.0,1e-05,1e+16,5e-324]")
            #expect(try encodeText(Double.greatestFiniteMagnitude) == "1.7976931348623157e+308")
            #expect(try encodeText(Float(0.1)) == "0.1")
            // Every one of these is valid JSON per Foundation's strict parser too.
            let text = try DocumentCodec.encode([3.0, 1e-5, 1e16, .leastNonzeroMagnitude, -0.0])
            #expect((try JSONSerialization.jsonObject(with: Data(text)) as? [Double])?.count == 5)
        }

        @Test("random doubles round-trip bit for bit", arguments: PropertySeeds.all)
        func randomDoubles(seed: UInt64) throws {
            var r = CodingRandom(seed: seed)
            for _ in 0..<2_000 {
                let value = r.edgyDouble()
                let decoded = try DocumentCodec.decode(Double.self, from: DocumentCodec.encode(value))
                #expect(decoded.bitPattern == value.bitPattern, "\(value), seed \(seed)")
                let float = Float(bitPattern: UInt32(truncatingIfNeeded: r.next()))
                if float.isFinite {
                    let decodedFloat = try DocumentCodec.decode(Float.self, from: DocumentCodec.encode(float))
                    #expect(decodedFloat.bitPattern == float.bitPattern, "\(float), seed \(seed)")
                }
            }
        }

        @Test("doubles decode from JSON integers and long texts, correctly rounded")
        func doubleParsing() throws {
            #expect(try DocumentCodec.decode(Double.self, from: "42") == 42)
            #expect(try DocumentCodec.decode(Double.self, from: "9007199254740993") == 9007199254740992)
            #expect(try DocumentCodec.decode(Double.self, from: "0.1") == 0.1)
            #expect(try DocumentCodec.decode(Double.self, from: "2.2250738585072011e-308") == Double.leastNormalMagnitude.nextDown)
            #expect(try DocumentCodec.decode(Double.self, from: "123456789012345678901234567890") == 123456789012345678901234567890.0)
            #expect(try DocumentCodec.decode(Double.self, from: "1e-400") == 0)
        }

        @Test("NaN and infinities throw unsupportedValue naming the path")
        func nonFinite() {
            struct CodingStats: Encodable { var battingAverage: Double; var ratio: Float }
            struct Team: Encodable { var stats: CodingStats; var history: [Double] }
            let nan = codingError { _ = try DocumentCodec.encode(Team(stats: CodingStats(battingAverage: .nan, ratio: 1), history: [])) }
            #expect(nan?.kind == .unsupportedValue)
            #expect(nan?.codingPath == "stats.battingAverage")
            #expect(nan?.description == "at stats.battingAverage: Double.nan cannot be stored in JSON")
            let infinity = codingError { _ = try DocumentCodec.encode(Team(stats: CodingStats(battingAverage: 1, ratio: -.infinity), history: [])) }
            #expect(infinity?.codingPath == "stats.ratio")
            #expect(infinity?.reason == "-Float.infinity cannot be stored in JSON")
            let element = codingError { _ = try DocumentCodec.encode(Team(stats: CodingStats(battingAverage: 1, ratio: 1), history: [1, 2, .infinity])) }
            #expect(element?.codingPath == "history[2]")
            #expect(codingError { _ = try DocumentCodec.encode(Double.nan) }?.codingPath == "")
        }
    }
}
