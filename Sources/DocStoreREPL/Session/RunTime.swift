import Foundation

/// A moment's wall clock and the process's CPU times, for `.timer on`.
struct RunTime {
    var real: ContinuousClock.Instant
    /// CPU seconds in user code and in the kernel, since the process started.
    var user: Double
    var system: Double

    static func now() -> RunTime {
        var usage = rusage()
        #if canImport(Glibc)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)  // An enum in glibc's headers.
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        return RunTime(real: .now, user: seconds(usage.ru_utime), system: seconds(usage.ru_stime))
    }

    private static func seconds(_ time: timeval) -> Double {
        Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000
    }

    /// "Run Time: real 0.012 user 0.010000 sys 0.001000": sqlite3's line, so
    /// that scripts reading one read the other.
    func report(since start: RunTime) -> String {
        let (seconds, attoseconds) = (real - start.real).components
        let real = Double(seconds) + Double(attoseconds) / 1e18
        return String(format: "Run Time: real %.3f user %.6f sys %.6f", real, user - start.user, system - start.system)
    }
}
