@_spi(Benchmarks) import DocStore
import Foundation

/// The codec alone: µs per document to encode and to decode the workload's
/// document, DocStore's internal codec (through its `@_spi(Benchmarks)` entry
/// points, exactly what the store calls: the code `@Document` generates for
/// `Player`), the same codec through `Player`'s `Codable` conformance (what the
/// store ran before generated coding), Foundation's JSONEncoder and
/// JSONDecoder (one of each, reused: their best case), with the raw C peer's
/// hand-written encoder and libjansson decoder as the practical limit.
enum CodecBenchmark {
    static let documentCount = 1000

    struct Row {
        var name: String
        var microseconds: Double
    }

    /// The fastest of `repeats` runs, each over all documents enough times to last
    /// about 0.1 s, in µs per document.
    static func measure(repeats: Int = 5, _ body: () throws -> Int) rethrows -> Double {
        var best = Double.infinity
        var passes = 1
        var sink = 0
        for _ in 0..<repeats {
            while true {
                let (_, seconds) = try Clock.time {
                    for _ in 0..<passes { sink &+= try body() }
                }
                if seconds < 0.1 { passes *= 2; continue }
                best = min(best, seconds * 1e6 / Double(passes * documentCount))
                break
            }
        }
        if sink == 42 { Output.note("") }  // keeps the work observable
        return best
    }

    static func run() throws -> String {
        let players = (1...documentCount).map(Workload.player)
        let stored = try players.map { try BenchmarkCodec.encode($0) }  // the bytes DocStore stores
        guard try players.allSatisfy({ try BenchmarkCodec.encodeThroughCodable($0) == BenchmarkCodec.encode($0) }) else {
            throw BenchmarkError("generated coding and Codable wrote different bytes")
        }
        let encoder = JSONEncoder()
        let decoder = JSONDecoder()
        let storedData = stored.map { Data($0) }
        var buffer: [UInt8] = []
        buffer.reserveCapacity(512)

        let encodeRows = [
            Row(name: "DocStore codec", microseconds: try measure {
                var total = 0
                for p in players { total &+= try BenchmarkCodec.encode(p).count }
                return total
            }),
            Row(name: "DocStore via Codable", microseconds: try measure {
                var total = 0
                for p in players { total &+= try BenchmarkCodec.encodeThroughCodable(p).count }
                return total
            }),
            Row(name: "Foundation JSONEncoder", microseconds: try measure {
                var total = 0
                for p in players { total &+= try encoder.encode(p).count }
                return total
            }),
            Row(name: "hand-written (sqlite-c)", microseconds: measure {
                var total = 0
                for p in players {
                    buffer.removeAll(keepingCapacity: true)
                    HandJSON.encode(p, into: &buffer)
                    total &+= buffer.count
                }
                return total
            }),
        ]
        let decodeRows = [
            Row(name: "DocStore codec", microseconds: try measure {
                var total = 0
                for bytes in stored {
                    total &+= try bytes.withUnsafeBytes { try BenchmarkCodec.decode(Player.self, from: $0).checksum }
                }
                return total
            }),
            Row(name: "DocStore via Codable", microseconds: try measure {
                var total = 0
                for bytes in stored {
                    total &+= try bytes.withUnsafeBytes { try BenchmarkCodec.decodeThroughCodable(Player.self, from: $0).checksum }
                }
                return total
            }),
            Row(name: "Foundation JSONDecoder", microseconds: try measure {
                var total = 0
                for data in storedData { total &+= try decoder.decode(Player.self, from: data).checksum }
                return total
            }),
            Row(name: "libjansson (sqlite-c)", microseconds: try measure {
                var total = 0
                for bytes in stored { total &+= try bytes.withUnsafeBytes { try HandJSON.decode($0).checksum } }
                return total
            }),
        ]

        var lines = ["codec micro-benchmark: µs per document (the workload's documents 1...\(documentCount); fastest of 5 runs):"]
        for (title, rows) in [("encode", encodeRows), ("decode", decodeRows)] {
            let docstore = rows[0].microseconds
            for row in rows {
                let ratio = row.name == rows[0].name ? "" : String(format: "   DocStore / this: %.2fx", docstore / row.microseconds)
                lines.append("  " + (title + " " + row.name).padding(toLength: 32, withPad: " ", startingAt: 0)
                    + String(format: "%7.2f µs", row.microseconds) + ratio)
            }
        }
        return lines.joined(separator: "\n")
    }
}
