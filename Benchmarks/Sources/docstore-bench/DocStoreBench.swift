import Foundation

/// `docstore-bench N`: the standard workload (../shared/bench/WORKLOAD.md) four
/// ways in one run, then issue 10's live-query and async measurements (DocStore
/// only); workload lines on stdout, the ratio table, the targets, W5's peak memory
/// and the codec micro-benchmark on stderr.
@main
struct DocStoreBench {
    static let usage = """
        usage: docstore-bench [N] [--rounds R] [--ways docstore,sqlite-c,grdb-records,grdb-json]
                              [--clock wall|cpu] [--no-memory] [--no-codec] [--codec-only]
                              [--no-live] [--live-only] [--no-search] [--search-only] [--migration] [--migration-only]
          N             documents (default 100000)
          --rounds R    run every way R times, interleaved, and keep each workload's fastest (default 1)
          --ways        which ways to run, in order (default: all four)
          --clock cpu   report the process's CPU time instead of wall time (stable on a shared machine)
          --no-memory   skip W5's peak memory at N = 100000 and 1000000 (child processes)
          --no-codec    skip the codec micro-benchmark
          --codec-only  run only the codec micro-benchmark
          --no-live     skip issue 10's live-query and async measurements (L1…L4, after the ways)
          --live-only   run only those
          --no-search   skip W10, full-text search (issue 14: DocStore against FTS5 by hand, and a scan)
          --search-only run only W10
          --migration   also run issue 14's migrations (M1 rename, M1s the same in SQL, M2 convert)
                        at N = 100000 and 1000000, each in a child process (time and peak memory)
          --migration-only  run only those
        docstore-bench --postgres URL [N] [--rounds R]: W1–W9 on PostgreSQL (issue 13; see Benchmarks/README.md)
        """

    static func main() {
        do {
            try run(Array(CommandLine.arguments.dropFirst()))
        } catch {
            Output.note("docstore-bench: \(error)")
            exit(1)
        }
    }

    static func run(_ arguments: [String]) throws {
        // Child processes of the peak-memory measurement.
        if arguments.first == "--populate", arguments.count == 3, let n = Int(arguments[2]) {
            return try PeakMemory.populate(path: arguments[1], n: n)
        }
        if arguments.first == "--stream-all", arguments.count == 2 {
            return try PeakMemory.streamAll(path: arguments[1])
        }
        if arguments.first == "--migrate", arguments.count == 3 {
            return try MigrationBenchmark.migrate(path: arguments[1], kind: arguments[2])
        }
        if arguments.first == "--group-all", arguments.count == 2 {
            return try PeakMemory.groupAll(path: arguments[1])
        }

        // Issue 13: W1–W9 on PostgreSQL, DocStore against SQL by hand.
        if arguments.first == "--postgres" {
            let options = try PostgresBenchmark.options(arguments.dropFirst())
            return try PostgresBenchmark.wait { try await PostgresBenchmark.run(options) }
        }
        if arguments.first == "--postgres-memory", arguments.count >= 2 {
            let url = arguments[1]
            let sizes = try arguments.dropFirst(2).map { argument in
                guard let n = Int(argument), n >= 10 else { throw BenchmarkError(PostgresBenchmark.usage) }
                return n
            }
            return try PostgresBenchmark.wait { try await PostgresMemory.run(url: url, sizes: sizes.isEmpty ? PeakMemory.sizes : sizes) }
        }
        if arguments.first == "--postgres-read", arguments.count == 3 {
            let (url, kind) = (arguments[1], arguments[2])
            return try PostgresBenchmark.wait { try await PostgresMemory.read(url: url, kind: kind) }
        }

        var n = 100_000
        var rounds = 1
        var timeMode = TimeMode.wall
        var ways = Runner.allWays
        var memory = true
        var codec = true
        var workload = true
        var live = true
        var search = true
        var migration = false
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--rounds":
                guard let value = rest.popFirst().flatMap(Int.init), value >= 1 else { throw BenchmarkError(usage) }
                rounds = value
            case "--ways":
                guard let value = rest.popFirst() else { throw BenchmarkError(usage) }
                ways = try value.split(separator: ",").map { name in
                    guard let way = Runner.allWays.first(where: { $0.name == name }) else { throw BenchmarkError(usage) }
                    return way
                }
            case "--clock":
                guard let value = rest.popFirst().flatMap(TimeMode.init(rawValue:)) else { throw BenchmarkError(usage) }
                timeMode = value
            case "--no-memory": memory = false
            case "--no-codec": codec = false
            case "--codec-only": workload = false; memory = false; live = false; search = false
            case "--no-live": live = false
            case "--live-only": workload = false; memory = false; codec = false; search = false
            case "--no-search": search = false
            case "--search-only": workload = false; memory = false; codec = false; live = false
            case "--migration": migration = true
            case "--migration-only": migration = true; workload = false; memory = false; codec = false; live = false; search = false
            case "-h", "--help": Output.note(usage); return
            default:
                guard let value = Int(argument), value >= 10 else { throw BenchmarkError(usage) }
                n = value
            }
        }

        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("docstore-bench-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        var report: Report?
        if workload {
            let results = try Runner(n: n, directory: directory, timeMode: timeMode).runAll(ways: ways, rounds: rounds)
            report = Report(ways: results)
            Output.note("")
            Output.note("docstore-bench N=\(n), rounds=\(rounds), \(timeMode) time, \(ProcessInfo.processInfo.activeProcessorCount) cores")
            Output.note(report!.table())
            for problem in report!.mismatches() { Output.note("CHECK FAILED: " + problem) }
            if ways.contains(where: { $0.name == DocStoreWay.name }) {
                Output.note("")
                Output.note(try DocStoreWay.explainQueries())
                Output.note("sqlite-c and grdb-json: SELECT body FROM players WHERE \(SQLiteCWay.teamId) = ? [AND \(SQLiteCWay.number) >= ?] ORDER BY key; "
                    + "index on (\(SQLiteCWay.teamId))")
            }
        }
        // Issue 10: after the last way's lines, on stdout under `# live docstore`.
        var liveResults: LiveBenchmark.Results?
        if live && (!workload || ways.contains(where: { $0.name == DocStoreWay.name })) {
            let results = try LiveBenchmark(n: n, directory: directory, rounds: rounds).run()
            Output.line("# live \(DocStoreWay.name)")
            for line in LiveBenchmark.lines(results) { Output.line(line) }
            liveResults = results
        }
        // Issue 14: W10 after those, on stdout under `# search docstore` / `# search sqlite-c`.
        var searchResult: SearchBenchmark.Result?
        if search {
            let result = try SearchBenchmark.run(n: n, directory: directory, timeMode: timeMode)
            for line in result.lines { Output.line(line) }
            searchResult = result
        }
        if migration {
            Output.line("# migration \(DocStoreWay.name)")
            let figures = try MigrationBenchmark.run(in: directory)
            Output.note("")
            Output.note(MigrationBenchmark.summary(figures))
        }
        var memoryRatio: Double?
        if memory {
            let (text, ratio) = PeakMemory.report(try PeakMemory.measure(in: directory))
            memoryRatio = ratio
            Output.note("")
            Output.note(text)
        }
        if let report {
            Output.note("")
            Output.note(report.targets(memoryRatio: memoryRatio))
        }
        if let liveResults {
            Output.note("")
            Output.note(LiveBenchmark.summary(liveResults))
        }
        if let searchResult {
            Output.note("")
            Output.note(SearchBenchmark.summary(searchResult))
        }
        if codec {
            Output.note("")
            Output.note(try CodecBenchmark.run())
        }
    }
}
