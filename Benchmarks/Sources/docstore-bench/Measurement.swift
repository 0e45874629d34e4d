import Foundation

/// One workload's figures for one way, printed in WORKLOAD.md's line format:
/// `W1 insert n=100000 seconds=0.512 rate=195312`.
struct Measurement {
    /// `W1`…`W7`, `W4i`.
    var id: String
    /// `insert`, `get`, `scan`, `index`, `indexed`, `all`, `update`, `commit`.
    var name: String
    var count: Int
    var seconds: Double
    var checksum: Int?

    var rate: Double { Double(count) / max(seconds, 1e-9) }
    /// Seconds per document (or per commit): what ratios compare.
    var secondsPerItem: Double { max(seconds, 1e-9) / Double(max(count, 1)) }

    var line: String {
        "\(id) \(name) n=\(count) seconds=\(String(format: "%.3f", seconds)) rate=\(Int(rate.rounded(.down)))"
    }
}

/// What a workload's `seconds` measure.
enum TimeMode: String, Sendable {
    /// Wall time on the monotonic clock: what WORKLOAD.md reports, the default.
    case wall
    /// CPU time of the whole process, all threads, user + system
    /// (CLOCK_PROCESS_CPUTIME_ID). With WAL and synchronous=NORMAL no commit waits
    /// for the disk, so every workload is CPU-bound and this excludes only the time
    /// other processes take the cores: stable ratios on a shared machine.
    case cpu
}

enum Clock {
    /// Runs `body` once and returns its result with the elapsed wall time on the
    /// monotonic clock.
    static func time<T>(_ body: () throws -> T) rethrows -> (T, Double) {
        try time(.wall, body)
    }

    /// Runs `body` once and returns its result with the elapsed time in `mode`.
    static func time<T>(_ mode: TimeMode, _ body: () throws -> T) rethrows -> (T, Double) {
        switch mode {
        case .wall:
            let clock = ContinuousClock()
            let start = clock.now
            let result = try body()
            let elapsed = start.duration(to: clock.now)
            return (result, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
        case .cpu:
            let start = processCPUSeconds()
            let result = try body()
            return (result, processCPUSeconds() - start)
        }
    }

    static func processCPUSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) * 1e-9
    }
}

enum Output {
    /// Workload lines and `# way` headers: the only things on stdout.
    static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    /// Everything else.
    static func note(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
