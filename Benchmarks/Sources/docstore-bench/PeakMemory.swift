import DocStore
import Foundation

/// Peak resident memory of DocStore's streaming W5 (`forEach`), each measurement in
/// a fresh child process (this binary re-executed with a flag), so that neither the
/// parent's heap nor the populating step counts:
///
///     docstore-bench --populate PATH N      fills a store with documents 1...N
///     docstore-bench --stream-all PATH      forEach over it; prints its peak memory
enum PeakMemory {
    static let sizes = [100_000, 1_000_000]

    /// The process's peak resident set so far, in KiB (VmHWM).
    static func peakKiB() -> Int {
        if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
           let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
           let value = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") {
            return value
        }
        var usage = rusage()
        #if os(Linux)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return Int(usage.ru_maxrss)  // KiB on Linux
        #else
        getrusage(RUSAGE_SELF, &usage)
        return Int(usage.ru_maxrss) / 1024  // bytes on Darwin
        #endif
    }

    /// Child: fills a new store with documents 1...n, in transactions of 10 000.
    static func populate(path: String, n: Int) throws {
        let store = try DocumentStore(path: path)
        let players = store.collection(Player.self)
        var start = 1
        while start <= n {
            let end = min(start + 9_999, n)
            try players.insert(contentsOf: (start...end).lazy.map(Workload.player))
            start = end + 1
        }
    }

    /// Child: streams every document and prints `count= before_kib= peak_kib=`.
    static func streamAll(path: String) throws {
        let store = try DocumentStore(path: path)
        let players = store.collection(Player.self)
        let before = peakKiB()
        var result = StepResult()
        try players.forEach { result.add($0) }
        let peak = peakKiB()
        Output.line("count=\(result.count) before_kib=\(before) peak_kib=\(peak)")
    }

    /// Child: W8's group over every document; prints `count= before_kib= peak_kib=`
    /// (count: the documents grouped).
    static func groupAll(path: String) throws {
        let store = try DocumentStore(path: path)
        let players = store.collection(Player.self)
        let before = peakKiB()
        let rows = try players.query
            .group(by: \.teamId) { (count: $0.count(), total: $0.sum(\.number), best: $0.max(\.battingAverage)) }
            .fetch()
        let peak = peakKiB()
        Output.line("count=\(rows.reduce(0) { $0 + $1.count }) before_kib=\(before) peak_kib=\(peak)")
    }

    struct Figure {
        var n: Int
        var beforeKiB: Int
        var peakKiB: Int
        var groupBeforeKiB = 0
        var groupPeakKiB = 0
    }

    /// Parent: both sizes, each populated and measured in its own child processes.
    static func measure(in directory: URL) throws -> [Figure] {
        var figures: [Figure] = []
        for n in sizes {
            let path = directory.appendingPathComponent("memory-\(n).sqlite").path
            defer {
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            }
            _ = try runChild(["--populate", path, String(n)])
            let (before, peak) = try measureChild(["--stream-all", path], n: n)
            let (groupBefore, groupPeak) = try measureChild(["--group-all", path], n: n)
            figures.append(Figure(n: n, beforeKiB: before, peakKiB: peak, groupBeforeKiB: groupBefore, groupPeakKiB: groupPeak))
        }
        return figures
    }

    /// Runs a measuring child; its `before_kib` and `peak_kib`, once its count is checked.
    static func measureChild(_ arguments: [String], n: Int) throws -> (before: Int, peak: Int) {
        let output = try runChild(arguments)
        var fields: [String: Int] = [:]
        for pair in output.split(whereSeparator: \.isWhitespace) {
            let parts = pair.split(separator: "=")
            if parts.count == 2, let value = Int(parts[1]) { fields[String(parts[0])] = value }
        }
        guard fields["count"] == n, let before = fields["before_kib"], let peak = fields["peak_kib"] else {
            throw BenchmarkError("\(arguments[0]) printed \(output)")
        }
        return (before, peak)
    }

    static func runChild(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executablePath())
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchmarkError("child \(arguments.joined(separator: " ")) exited with \(process.terminationStatus)")
        }
        return String(decoding: data, as: UTF8.self)
    }

    static func executablePath() -> String {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return path }
        return Bundle.main.executablePath ?? CommandLine.arguments[0]
    }

    static func report(_ figures: [Figure]) -> (String, Double?) {
        var lines = ["peak memory of DocStore's streaming W5 (forEach), each in a fresh process:"]
        for f in figures {
            lines.append("  N=\(f.n): peak \(f.peakKiB) KiB (\(f.beforeKiB) KiB after opening the store, before forEach)")
        }
        var ratio: Double?
        if figures.count == 2 {
            ratio = Double(figures[1].peakKiB) / Double(figures[0].peakKiB)
            lines.append("  ratio N=\(figures[1].n) / N=\(figures[0].n): \(String(format: "%.2f", ratio!)) (target ≤ 1.2)")
        }
        lines.append("peak memory of DocStore's W8 (group by teamId, 30 rows), each in a fresh process:")
        for f in figures {
            lines.append("  N=\(f.n): peak \(f.groupPeakKiB) KiB (\(f.groupBeforeKiB) KiB after opening the store)")
        }
        if figures.count == 2 {
            let groupRatio = Double(figures[1].groupPeakKiB) / Double(figures[0].groupPeakKiB)
            lines.append("  ratio N=\(figures[1].n) / N=\(figures[0].n): \(String(format: "%.2f", groupRatio)) (issue 11's target ≤ 1.2)")
        }
        return (lines.joined(separator: "\n"), ratio)
    }
}
