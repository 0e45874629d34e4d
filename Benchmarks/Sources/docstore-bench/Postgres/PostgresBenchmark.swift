import Foundation
import Synchronization

/// `docstore-bench --postgres URL [N] [--rounds R]`: W1–W9 on a PostgreSQL
/// server, DocStore's `PostgresDocumentStore` against hand-written jsonb SQL
/// through postgres-nio, each way of each round on a fresh database of the same
/// server, rounds interleaved. Every workload is timed twice at once: wall time
/// (the server's work included) and the CPU time of this client process (all
/// its threads, NIO's event loops included). Workload lines on stdout (with
/// `cpu=`), the ratio table and the ≤ 1.3x targets on stderr.
enum PostgresBenchmark {
    static let ways: [any PostgresBenchmarkWay.Type] = [PostgresDocStoreWay.self, PostgresNIOWay.self]
    /// Issue 13's target: DocStore's time at most this multiple of the SQL by hand.
    static let target = 1.3

    struct Options {
        var url = ""
        var n = 100_000
        var rounds = 1
        var ways = PostgresBenchmark.ways
    }

    static let usage = """
        usage: docstore-bench --postgres URL [N] [--rounds R] [--ways docstore,postgres-nio]
               docstore-bench --postgres-memory URL [N...]   (peak memory of forEach and fetch; default 100000 1000000)
          URL   a server whose role may create databases: postgres://user@/postgres?host=/socket/dir
                (Benchmarks/scripts/postgres-bench.sh starts a private one)
        """

    /// Reads the arguments after `--postgres`.
    static func options(_ arguments: ArraySlice<String>) throws -> Options {
        var options = Options()
        var rest = arguments
        guard let url = rest.popFirst() else { throw BenchmarkError(usage) }
        options.url = url
        while let argument = rest.popFirst() {
            switch argument {
            case "--rounds":
                guard let value = rest.popFirst().flatMap(Int.init), value >= 1 else { throw BenchmarkError(usage) }
                options.rounds = value
            case "--ways":
                guard let value = rest.popFirst() else { throw BenchmarkError(usage) }
                options.ways = try value.split(separator: ",").map { name in
                    guard let way = ways.first(where: { $0.name == name }) else { throw BenchmarkError(usage) }
                    return way
                }
            default:
                guard let value = Int(argument), value >= 10 else { throw BenchmarkError(usage) }
                options.n = value
            }
        }
        return options
    }

    /// Runs async work from the benchmark's synchronous main thread and waits for
    /// it (the work runs on the cooperative pool; this thread is not one of its).
    static func wait(_ work: @escaping @Sendable () async throws -> Void) throws {
        let done = DispatchSemaphore(value: 0)
        let failure = Mutex<(any Error)?>(nil)
        Task {
            do { try await work() } catch { failure.withLock { $0 = error } }
            done.signal()
        }
        done.wait()
        if let error = failure.withLock({ $0 }) { throw error }
    }

    static func run(_ options: Options) async throws {
        let players = Workload.players(options.n)
        let keys = Workload.lookupKeys(options.n)
        let extra = (options.n + 1...options.n + Workload.commitCount).map(Workload.player)
        // For each way, each workload's fastest round: by wall time, and by CPU time.
        var fastestWall: [[TimedStep]] = Array(repeating: [], count: options.ways.count)
        var fastestCPU: [[TimedStep]] = Array(repeating: [], count: options.ways.count)
        for round in 1...options.rounds {
            for (index, way) in options.ways.enumerated() {
                let steps = try await PostgresBenchServer.withFreshDatabase(options.url, named: "docstore_bench_\(way.name.replacingOccurrences(of: "-", with: "_"))") { url in
                    try await runWay(way, url: url, players: players, keys: keys, extra: extra)
                }
                if options.rounds == 1 { print(way.name, steps) }
                fastestWall[index] = keepFastest(fastestWall[index], steps, by: \.wall)
                fastestCPU[index] = keepFastest(fastestCPU[index], steps, by: \.cpu)
            }
            if options.rounds > 1 { Output.note("round \(round) of \(options.rounds) done") }
        }
        if options.rounds > 1 {
            for (index, way) in options.ways.enumerated() { print(way.name, fastestWall[index]) }
        }
        let names = options.ways.map { $0.name }
        Output.note("")
        Output.note("docstore-bench --postgres N=\(options.n), rounds=\(options.rounds), \(ProcessInfo.processInfo.activeProcessorCount) cores, the server on the same machine")
        Output.note(PostgresReport(names: names, wall: fastestWall, cpu: fastestCPU).text())
    }

    /// One workload's result for one way: wall and client CPU seconds.
    struct TimedStep {
        var id: String
        var name: String
        var result: StepResult
        var wall: Double
        var cpu: Double

        var line: String {
            let rate = Double(result.count) / max(wall, 1e-9)
            return "\(id) \(name) n=\(result.count) seconds=\(String(format: "%.3f", wall)) rate=\(Int(rate.rounded(.down))) cpu=\(String(format: "%.3f", cpu))"
        }
    }

    static func keepFastest(_ best: [TimedStep], _ new: [TimedStep], by time: KeyPath<TimedStep, Double>) -> [TimedStep] {
        guard best.count == new.count else { return new }
        return zip(best, new).map { $0[keyPath: time] <= $1[keyPath: time] ? $0 : $1 }
    }

    static func print(_ name: String, _ steps: [TimedStep]) {
        Output.line("# way \(name) (postgresql)")
        for step in steps { Output.line(step.line) }
    }

    /// W1…W9 for one way on the empty database at `url`.
    static func runWay(_ type: any PostgresBenchmarkWay.Type, url: String, players: [Player], keys: [Int],
                       extra: [Player]) async throws -> [TimedStep] {
        let way = try await type.open(url: url)
        var steps: [TimedStep] = []
        func record(_ id: String, _ name: String, _ body: () async throws -> StepResult) async throws {
            let wallStart = ContinuousClock.now
            let cpuStart = Clock.processCPUSeconds()
            let result = try await body()
            let cpu = Clock.processCPUSeconds() - cpuStart
            let elapsed = wallStart.duration(to: .now)
            let wall = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            steps.append(TimedStep(id: id, name: name, result: result, wall: wall, cpu: cpu))
        }
        do {
            let n = players.count
            try await record("W1", "insert") { try await way.insertAll(players) }
            try await record("W2", "get") { try await way.get(keys: keys) }
            try await record("W3", "scan") { try await way.scan(teams: Workload.scanTeams, minimumNumber: Workload.scanMinimumNumber) }
            try await record("W4i", "index") { try await way.createTeamIndex(); return StepResult(count: n) }
            try await record("W4", "indexed") { try await way.indexed(teams: Workload.indexedTeams) }
            try await record("W5", "all") { try await way.all() }
            try await record("W6", "update") { try await way.update(keys: 1...max(n / 10, 1)) }
            try await record("W7", "commit") { try await way.insertEach(extra) }
            try await record("W8", "group") { try await way.group(rounds: Workload.groupRounds) }
            try await way.insertTeams(Workload.teams)
            try await record("W9", "join") { try await way.join(teams: Workload.joinedTeams) }
        } catch {
            await way.close()
            throw error
        }
        await way.close()
        return steps
    }
}

/// The ratio table of the PostgreSQL benchmark: rates, and DocStore's time over
/// the peer's in wall time and in client CPU time; then the targets.
struct PostgresReport {
    let names: [String]
    let wall: [[PostgresBenchmark.TimedStep]]
    let cpu: [[PostgresBenchmark.TimedStep]]

    func step(_ steps: [[PostgresBenchmark.TimedStep]], _ way: String, _ id: String) -> PostgresBenchmark.TimedStep? {
        names.firstIndex(of: way).flatMap { index in steps[index].first { $0.id == id } }
    }

    /// DocStore's time per item over the peer's, by `time`.
    func ratio(_ id: String, _ steps: [[PostgresBenchmark.TimedStep]], _ time: KeyPath<PostgresBenchmark.TimedStep, Double>) -> Double? {
        guard let docstore = step(steps, PostgresDocStoreWay.name, id), let peer = step(steps, PostgresNIOWay.name, id) else { return nil }
        let perItem = { (s: PostgresBenchmark.TimedStep) in max(s[keyPath: time], 1e-9) / Double(max(s.result.count, 1)) }
        return perItem(docstore) / perItem(peer)
    }

    func text() -> String {
        func pad(_ text: String, _ width: Int) -> String { String(repeating: " ", count: max(0, width - text.count)) + text }
        var lines = ["rates (docs/s, wall; W7 commits/s), client CPU ms, and DocStore's time over postgres-nio's:"]
        var header = "workload    "
        for name in names { header += pad(name, 14) + pad("cpu ms", 9) }
        header += pad("wall ratio", 12) + pad("cpu ratio", 11)
        lines.append(header)
        for (id, name) in Report.order {
            var line = (id + " " + name).padding(toLength: 12, withPad: " ", startingAt: 0)
            for way in names {
                line += pad(step(wall, way, id).map { String(Int(Double($0.result.count) / max($0.wall, 1e-9))) } ?? "-", 14)
                line += pad(step(cpu, way, id).map { String(format: "%.0f", $0.cpu * 1000) } ?? "-", 9)
            }
            line += pad(ratio(id, wall, \.wall).map { String(format: "%.2fx", $0) } ?? "-", 12)
            line += pad(ratio(id, cpu, \.cpu).map { String(format: "%.2fx", $0) } ?? "-", 11)
            lines.append(line)
        }
        for (id, name) in Report.order {
            let all = names.compactMap { way in step(wall, way, id).map { (way, $0.result) } }
            guard let (referenceName, reference) = all.first else { continue }
            for (way, result) in all.dropFirst() where result.count != reference.count || result.checksum != reference.checksum {
                lines.append("CHECK FAILED: \(id) \(name): \(way) n=\(result.count) checksum=\(result.checksum), "
                    + "\(referenceName) n=\(reference.count) checksum=\(reference.checksum)")
            }
        }
        lines.append("")
        lines.append("targets (issue 13): DocStore ≤ \(PostgresBenchmark.target)x postgres-nio by hand, wall time")
        for (id, name) in Report.order {
            guard let value = ratio(id, wall, \.wall) else { continue }
            let cpuText = ratio(id, cpu, \.cpu).map { String(format: " (client CPU %.2fx)", $0) } ?? ""
            lines.append("  \(id) \(name): \(String(format: "%.2f", value)) ≤ \(PostgresBenchmark.target) \(value <= PostgresBenchmark.target ? "met" : "MISSED")\(cpuText)")
        }
        return lines.joined(separator: "\n")
    }
}
