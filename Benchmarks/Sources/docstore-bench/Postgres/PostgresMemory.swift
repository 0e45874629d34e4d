import DocStore
import DocStorePostgres
import Foundation

/// Peak resident memory of reading every document of a PostgreSQL collection,
/// at N = 100 000 and 1 000 000, each read in a fresh child process (this
/// binary re-executed), so that neither the parent's heap nor the populating
/// step counts:
///
///     docstore-bench --postgres-memory URL [N...]     the parent: populates, measures, reports
///     docstore-bench --postgres-read URL KIND         a child: reads `players`, prints count= before_kib= peak_kib=
///
/// KIND `forEach` streams (each document decoded and dropped); `fetch` returns
/// them all in one array, whose own size is the floor of its peak.
enum PostgresMemory {
    static let kinds = ["forEach", "fetch"]

    /// Parent: for each size, a fresh database filled with documents 1...n
    /// through DocStore (untimed), then one child per kind.
    static func run(url: String, sizes: [Int]) async throws {
        var lines = ["peak memory reading every document of a PostgreSQL collection, each in a fresh process:"]
        var peaks: [String: [Int]] = [:]
        for n in sizes {
            try await PostgresBenchServer.withFreshDatabase(url, named: "docstore_bench_memory") { url in
                try await populate(url: url, n: n)
                for kind in kinds {
                    let (before, peak) = try PeakMemory.measureChild(["--postgres-read", url, kind], n: n)
                    Output.line("P5 \(kind) n=\(n) before_kib=\(before) peak_kib=\(peak)")
                    lines.append("  \(kind) N=\(n): peak \(peak) KiB (\(before) KiB after opening the store), "
                        + "\(String(format: "%.0f", Double((peak - before) * 1024) / Double(n))) bytes a document above that")
                    peaks[kind, default: []].append(peak)
                }
            }
        }
        if sizes.count == 2 {
            for kind in kinds {
                guard let figures = peaks[kind], figures.count == 2 else { continue }
                lines.append("  \(kind): ratio N=\(sizes[1]) / N=\(sizes[0]): \(String(format: "%.2f", Double(figures[1]) / Double(figures[0])))")
            }
        }
        Output.note(lines.joined(separator: "\n"))
    }

    static func populate(url: String, n: Int) async throws {
        let store = try await PostgresDocumentStore(url: url)
        do {
            let players = store.collection(Player.self, named: "players")
            for start in stride(from: 1, through: n, by: 10_000) {
                try await players.insert(contentsOf: (start...min(start + 9_999, n)).map(Workload.player))
            }
        } catch {
            await store.close()
            throw error
        }
        await store.close()
    }

    /// Child: reads every document of `players` one way; prints `count= before_kib= peak_kib=`.
    static func read(url: String, kind: String) async throws {
        let store = try await PostgresDocumentStore(url: url)
        let players = store.collection(Player.self, named: "players")
        _ = try await players.get(1)  // connected, the collection known: what "before" includes
        let before = PeakMemory.peakKiB()
        var result = StepResult()
        switch kind {
        case "forEach":
            try await players.forEach { result.add($0) }
        case "fetch":
            for player in try await players.all() { result.add(player) }
        default:
            throw BenchmarkError("unknown kind \(kind): forEach or fetch")
        }
        let peak = PeakMemory.peakKiB()
        await store.close()
        Output.line("count=\(result.count) before_kib=\(before) peak_kib=\(peak)")
    }
}
