import Foundation
import Testing
@_spi(Backends) @testable import DocStore

/// The respelling that keeps reals reals in jsonb: every real written with an
/// exponent comes out written in full, with a point, and reads back as the
/// same `Double`; nothing else in the text changes.
@Suite("jsonb number spelling")
struct JSONBNumberSpellingTests {
    private func respelled(_ text: String) -> String? {
        JSONBNumberSpelling.respelled(Array(text.utf8)).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func numbersWithAnExponentAreWrittenOut() {
        let cases = [("1e+16", "10000000000000000.0"), ("1e16", "10000000000000000.0"), ("-1E+2", "-100.0"), ("1.5e-07", "0.00000015"),
                     ("2.5E3", "2500.0"), ("1.25e1", "12.5"), ("0.5e-3", "0.0005"), ("-0.0e5", "-0.0"), ("1230e-1", "123.0"),
                     ("12.34e-1", "1.234"), ("9.87654321e2", "987.654321")]
        for (written, expected) in cases {
            #expect(respelled("[" + written + "]") == "[" + expected + "]", "\(written)")
        }
    }

    @Test func textWithoutExponentsIsLeftAlone() {
        for text in [#"{"a":1,"b":2.5,"c":"1e5","d":[-0.0,100]}"#, #"{"1e5":"x\"2e3","e":true}"#, #""9e9 \\\"8e8""#, "{}", ""] {
            #expect(respelled(text) == nil, "\(text)")
        }
    }

    /// Strings (escaped quotes and backslashes included) and member names are
    /// copied byte for byte around the numbers that change.
    @Test func onlyNumbersChangeAroundStrings() {
        let text = #"{"s":"say \"1e5\" \\","1e2":1e2,"t":["\\",3E-1,{"u":"e5"}],"v":-4e0}"#
        #expect(respelled(text) == #"{"s":"say \"1e5\" \\","1e2":100.0,"t":["\\",0.3,{"u":"e5"}],"v":-4.0}"#)
    }

    /// Exponents past what `numeric` takes, or that would be a gigabyte
    /// written out, stay as written (for the server to judge).
    @Test func hugeExponentsAreLeftAsWritten() {
        #expect(respelled("[1e-999999999]") == nil)
        #expect(respelled("[1e99999999999999999999]") == nil)
        #expect(respelled("[1e401]") == nil)
        #expect(respelled("[1e400]")?.count == 405)
    }

    /// Random doubles of every magnitude, as the store's writer spells them:
    /// written out, each reads back as the same `Double`, with a point and
    /// without an exponent.
    @Test func everyDoubleReadsBackTheSame() throws {
        var rng = SeededGenerator(seed: 1e16.bitPattern)
        var doubles: [Double] = [1e16, -1e300, .greatestFiniteMagnitude, .leastNonzeroMagnitude, .leastNormalMagnitude, 1e-7, 123456789.0,
                                 9007199254740993.0, 0.1, -2.5e-7]
        while doubles.count < 5_000 {
            let double = Double(bitPattern: rng.next())
            if double.isFinite { doubles.append(double) }
        }
        let text = DocumentCodec.serialize(.array(doubles.map(JSONValue.double)))
        let written = try #require(JSONBNumberSpelling.respelled(text))
        #expect(!written.contains(UInt8(ascii: "e")) && !written.contains(UInt8(ascii: "E")))
        guard case .array(let read) = try written.withUnsafeBytes({ try DocumentCodec.parse($0) }) else {
            Issue.record("not an array"); return
        }
        #expect(read.count == doubles.count)
        for (double, value) in zip(doubles, read) {
            guard case .double(let back) = value else { Issue.record("\(double) read back as \(value)"); continue }
            #expect(back == double, "\(double) read back as \(back)")
        }
    }
}
