import Foundation
import Testing
@testable import DocStore

/// The parent suite of the codec's tests.
@Suite("Coding") struct CodingTests {}

/// The codec tests' name for the suite-wide seeded generator.
typealias CodingRandom = SeededGenerator

/// Seeds for property tests: a fixed set, plus `CODEC_SEED` from the
/// environment to replay a failure printed by an earlier run.
enum PropertySeeds {
    static var all: [UInt64] {
        if let text = ProcessInfo.processInfo.environment["CODEC_SEED"], let seed = UInt64(text) { return [seed] }
        return [1, 2, 3, 42, 0xC0DEC, 20_261_121]
    }
}

func encodeText<T: Encodable>(_ value: T) throws -> String {
    String(decoding: try DocumentCodec.encode(value), as: UTF8.self)
}

/// Runs `body` and returns the codec error it threw, or records a failure
/// (nothing thrown, or another error type).
func codingError(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) -> DocumentCodingError? {
    do {
        try body()
        Issue.record("expected a DocumentCodingError", sourceLocation: sourceLocation)
        return nil
    } catch let error as DocumentCodingError {
        return error
    } catch {
        Issue.record("expected a DocumentCodingError, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

// MARK: Random values

extension CodingRandom {
    mutating func chance(_ probability: Double) -> Bool { Double.random(in: 0..<1, using: &self) < probability }

    mutating func pick<T>(_ choices: [T]) -> T { choices[Int.random(in: 0..<choices.count, using: &self)] }

    /// Strings meant to break writers: escapes, control characters, NUL,
    /// non-ASCII, astral emoji, combining marks, and sometimes 10 kB.
    mutating func hostileString() -> String {
        let pieces = ["a", "Z", " ", "\"", "\\", "/", "\n", "\r", "\t", "\u{0}", "\u{1}", "\u{1F}", "\u{7F}",
                      "é", "ß", "日本", "\u{2028}", "\u{FEFF}", "😀", "👩‍👩‍👧", "e\u{301}", "\u{10FFFF}", "{", "}", "[", ",", ":"]
        if chance(0.02) {
            return String(repeating: pick(pieces) + "x", count: 5_000)
        }
        var text = ""
        for _ in 0..<Int.random(in: 0...12, using: &self) { text += pick(pieces) }
        return text
    }

    /// Doubles across the whole range, with the edge values every codec gets wrong.
    mutating func edgyDouble() -> Double {
        let specials: [Double] = [0, -0.0, 1, -1, 0.1, 0.154, 1e-300, -1e-300, 1e300, .greatestFiniteMagnitude,
                                  -.greatestFiniteMagnitude, .leastNormalMagnitude, .leastNonzeroMagnitude,
                                  -.leastNonzeroMagnitude, Double.leastNormalMagnitude.nextDown, 9007199254740992, 1e16, 1e-5,
                                  123456789.123456789, 0.30000000000000004]
        if chance(0.4) { return pick(specials) }
        return Double(bitPattern: next())._finiteOr(Double.random(in: -1e6...1e6, using: &self))
    }

    mutating func edgyInt64() -> Int64 {
        if chance(0.3) { return pick([Int64.min, Int64.max, 0, -1, 1, Int64(Int32.max) + 1]) }
        return Int64(bitPattern: next()) >> Int64.random(in: 0...62, using: &self)
    }
}

extension Double {
    fileprivate func _finiteOr(_ fallback: Double) -> Double { isFinite ? self : fallback }
}
