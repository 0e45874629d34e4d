import Testing
@testable import DocStore

extension CodingTests {
    /// The word-at-a-time scan that lets `JSONWriter` copy clean strings whole.
    @Suite("Escape scan, eight bytes at a time")
    struct JSONWriterScanTests {
        static func needsEscape(_ byte: UInt8) -> Bool {
            byte < 0x20 || byte == 0x22 || byte == 0x5C
        }

        @Test(arguments: PropertySeeds.all)
        func theScanStopsAtTheWordOfTheFirstByteToEscape(seed: UInt64) {
            var rng = SeededGenerator(seed: seed)
            // Bytes around the tests' edges: 0x1F/0x20, 0x21/0x22/0x23, 0x5B/0x5C/0x5D, 0x7F/0x80, 0xFF.
            let pool: [UInt8] = [0x00, 0x01, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x41, 0x5B, 0x5C, 0x5D, 0x7F, 0x80, 0xC3, 0xA9, 0xFF]
            for _ in 0..<5_000 {
                let length = Int.random(in: 0...40, using: &rng)
                // Mostly clean bytes, so that the first special byte lands anywhere.
                let bytes = (0..<length).map { _ -> UInt8 in
                    Int.random(in: 0..<10, using: &rng) == 0 ? pool.randomElement(using: &rng) ?? 0 : UInt8.random(in: 0x23...0x5B, using: &rng)
                }
                let first = bytes.firstIndex(where: Self.needsEscape) ?? length
                let scanned = bytes.withUnsafeBufferPointer { JSONWriter.firstWordNeedingEscape(in: $0) }
                // Everything before the result is clean, and the result is the start
                // of the word holding the first special byte, or of the short tail.
                #expect(scanned <= first, "\(bytes)")
                #expect(scanned % 8 == 0)
                #expect(scanned == min(first - first % 8, length - length % 8), "\(bytes)")
            }
        }
    }
}
