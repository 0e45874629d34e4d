import Dispatch
@_spi(Benchmarks) import DocStore
import Foundation

/// Issue 10's benchmarks: live queries and the async API, DocStore only, each on a
/// fresh database file. Always wall time (what an observer waits is wall time).
/// Their lines (`L1`…`L4`) go on stdout after the last way's, under `# live docstore`;
/// the ratios and targets on stderr.
struct LiveBenchmark {
    let n: Int
    let directory: URL
    /// L1 and L3 run this many times, interleaved with their baselines; the fastest
    /// of each is kept.
    var rounds = 1

    /// L2: commits, each followed by the observer's new result.
    static let latencyCommits = 10_000
    /// L3: concurrent tasks (and sync calls) per batch, and batches.
    static let concurrentGets = 1000
    static let getBatches = 250
    /// L4: documents written to the other collection, one commit each.
    static let unrelatedWrites = 10_000

    struct Results {
        var insert: Measurement
        var insertObserved: Measurement
        var observerResult: Measurement
        var latency: Measurement
        var latencyMedian: Double
        var latencyP99: Double
        var latencyBeforeReturn: Int
        var getSync: Measurement
        var syncTicks: Int
        var syncExpectedTicks: Int
        var getAsync: Measurement
        var ticks: Int
        var expectedTicks: Int
        var maxTickLateness: Double
        /// A second ticker in the same async run, at 60 Hz (an app's frame).
        var frames: Int
        var expectedFrames: Int
        var maxFrameLateness: Double
        /// The control: the sync gets, each hopped to GCD from its task.
        var getHop: Measurement
        var hopTicks: Int
        var hopExpectedTicks: Int
        var hopFrames: Int
        var hopExpectedFrames: Int
        /// The floor: the same tasks with no database at all (see ``AsyncWay/noDatabase``).
        var floorTicks: Int
        var floorExpectedTicks: Int
        var floorSeconds: Double
        /// Process CPU time (all threads, user + system) of the fastest sync and
        /// async rounds: on a shared machine, what the hops cost regardless of what
        /// other processes take from the cores.
        var syncCPU: Double
        var asyncCPU: Double
        var unrelated: Measurement
        var unrelatedFetches: Int
        var controlFetches: Int
    }

    func run() throws -> Results {
        let players = Workload.players(n)
        var plain: Measurement?
        var observed: (returned: Measurement, delivered: Measurement)?
        var sync: (Measurement, ticks: Int, expected: Int, cpu: Double)?
        var asyncBest: (Measurement, ticks: Int, expected: Int, late: Double, cpu: Double, frames: (Int, Int, Double))?
        var hopBest: (Measurement, ticks: Int, expected: Int, late: Double, cpu: Double, frames: (Int, Int, Double))?
        var floorBest: (Measurement, ticks: Int, expected: Int, late: Double, cpu: Double, frames: (Int, Int, Double))?
        var syncCPU = Double.infinity, asyncCPU = Double.infinity
        for _ in 1...rounds {
            let p = try insertPlain(players)
            if plain == nil || p.seconds < plain!.seconds { plain = p }
            let o = try insertObserved(players)
            if observed == nil || o.returned.seconds < observed!.returned.seconds { observed = o }
        }
        let latency = try commitLatency()
        try withStore("gets") { store in
            let collection = store.collection(Player.self)
            try collection.insert(contentsOf: players)
            let keys = Array(Workload.lookupKeys(n).prefix(Self.concurrentGets))
            for _ in 1...rounds {
                let s = try getSync(collection, keys: keys)
                if sync == nil || s.0.seconds < sync!.0.seconds { sync = s }
                syncCPU = min(syncCPU, s.cpu)
                let a = try getAsync(collection, keys: keys)
                if asyncBest == nil || a.0.seconds < asyncBest!.0.seconds { asyncBest = a }
                asyncCPU = min(asyncCPU, a.cpu)
                let h = try getAsync(collection, keys: keys, way: .gcdHop)
                if hopBest == nil || h.0.seconds < hopBest!.0.seconds { hopBest = h }
                let f = try getAsync(collection, keys: keys, way: .noDatabase)
                if floorBest == nil || f.0.seconds < floorBest!.0.seconds { floorBest = f }
            }
        }
        if sync!.0.checksum != asyncBest!.0.checksum || sync!.0.checksum != hopBest!.0.checksum {
            Output.note("CHECK FAILED: L3 async checksums differ from sync")
        }
        let unrelated = try unrelatedWrites()
        return Results(insert: plain!, insertObserved: observed!.returned, observerResult: observed!.delivered,
                       latency: latency.measurement, latencyMedian: latency.median, latencyP99: latency.p99,
                       latencyBeforeReturn: latency.beforeReturn,
                       getSync: sync!.0, syncTicks: sync!.ticks, syncExpectedTicks: sync!.expected, getAsync: asyncBest!.0, ticks: asyncBest!.ticks, expectedTicks: asyncBest!.expected,
                       maxTickLateness: asyncBest!.late, frames: asyncBest!.frames.0, expectedFrames: asyncBest!.frames.1,
                       maxFrameLateness: asyncBest!.frames.2, getHop: hopBest!.0, hopTicks: hopBest!.ticks,
                       hopExpectedTicks: hopBest!.expected, hopFrames: hopBest!.frames.0, hopExpectedFrames: hopBest!.frames.1,
                       floorTicks: floorBest!.ticks, floorExpectedTicks: floorBest!.expected, floorSeconds: floorBest!.0.seconds, syncCPU: syncCPU, asyncCPU: asyncCPU,
                       unrelated: unrelated.measurement, unrelatedFetches: unrelated.fetches, controlFetches: unrelated.control)
    }

    // MARK: L1: W1 with and without a live query on the collection

    func insertPlain(_ players: [Player]) throws -> Measurement {
        try withStore("insert") { store in
            let collection = store.collection(Player.self)
            let (_, seconds) = try Clock.time { try collection.insert(contentsOf: players) }
            return Measurement(id: "L1", name: "insert", count: players.count, seconds: seconds)
        }
    }

    /// W1 while a consumer task iterates `players.filter { $0.teamId == 1 }.values()`:
    /// the time until the insert returns, and until the consumer has the new result.
    func insertObserved(_ players: [Player]) throws -> (returned: Measurement, delivered: Measurement) {
        try withStore("insert-observed") { store in
            let collection = store.collection(Player.self)
            let probe = Probe()
            let consumer = probe.consume(collection.filter({ $0.teamId == 1 }).values()) { $0.count }
            defer { consumer.cancel(); probe.waitFinished() }
            _ = try probe.wait(for: 0)  // the first result: the observer is registered
            let expected = players.count { $0.teamId == 1 }
            let start = Monotonic.now
            try collection.insert(contentsOf: players)
            let returned = Monotonic.now
            let delivered = try probe.wait(for: expected)
            return (Measurement(id: "L1o", name: "insert-observed", count: players.count, seconds: Monotonic.seconds(start, returned)),
                    Measurement(id: "L1r", name: "observer-result", count: players.count, seconds: Monotonic.seconds(start, delivered)))
        }
    }

    // MARK: L2: commit → observer latency

    /// 300 players; the observer watches team 1 (10 documents); each commit saves
    /// player 1 with a new number, and the next commit waits for the consumer to
    /// have it. Latency: from the commit's return to the consumer's receipt.
    func commitLatency() throws -> (measurement: Measurement, median: Double, p99: Double, beforeReturn: Int) {
        try withStore("latency") { store in
            let collection = store.collection(Player.self)
            try collection.insert(contentsOf: Workload.players(300))
            let probe = Probe()
            let consumer = probe.consume(collection.filter({ $0.teamId == 1 }).values()) { result in
                result.first { $0.id == 1 }?.number ?? -1
            }
            defer { consumer.cancel(); probe.waitFinished() }
            var player = Workload.player(1)
            _ = try probe.wait(for: player.number)
            var latencies: [Double] = []
            latencies.reserveCapacity(Self.latencyCommits)
            var beforeReturn = 0
            let start = Monotonic.now
            for i in 1...Self.latencyCommits {
                player.number = 1_000_000 + i
                try collection.save(player)
                let committed = Monotonic.now
                let delivered = try probe.wait(for: player.number)
                if delivered < committed { beforeReturn += 1 }
                latencies.append(delivered < committed ? 0 : Monotonic.seconds(committed, delivered))
            }
            let seconds = Monotonic.seconds(start, Monotonic.now)
            latencies.sort()
            let median = latencies[latencies.count / 2]
            let p99 = latencies[min(latencies.count - 1, latencies.count * 99 / 100)]
            return (Measurement(id: "L2", name: "commit-latency", count: Self.latencyCommits, seconds: seconds),
                    median, p99, beforeReturn)
        }
    }

    // MARK: L3: point reads from 1000 concurrent tasks vs 2 threads

    /// `concurrentGets` sync `get` calls split over 2 threads, `getBatches` times.
    /// The same ticker runs meanwhile, as a control: it shares the cores with the
    /// two threads but not the cooperative pool, so what it misses here is the
    /// machine's doing (other processes), not the pool's.
    func getSync(_ collection: DocumentCollection<Player>, keys: [Int]) throws -> (Measurement, ticks: Int, expected: Int, cpu: Double) {
        let ticker = Ticker()
        let tickerTask = Task.detached { await ticker.run() }
        defer { ticker.stop(); tickerTask.cancel() }
        ticker.waitForFirstTick()
        let start = ContinuousClock.now
        let cpuStart = Clock.processCPUSeconds()
        let lock = NSLock()
        nonisolated(unsafe) var sum = 0
        nonisolated(unsafe) var failure: (any Error)?
        let (_, seconds) = Clock.time {
            for _ in 0..<Self.getBatches {
                DispatchQueue.concurrentPerform(iterations: 2) { thread in
                    var local = 0
                    do {
                        for j in stride(from: thread, to: keys.count, by: 2) {
                            guard let player = try collection.get(keys[j]) else { throw BenchmarkError("L3: no document \(keys[j])") }
                            local &+= player.checksum
                        }
                    } catch {
                        lock.withLock { failure = error }
                    }
                    lock.withLock { sum &+= local }
                }
            }
        }
        let cpu = Clock.processCPUSeconds() - cpuStart
        let (ticks, expected, _) = ticker.count(from: start, to: start + .seconds(seconds))
        if let failure { throw failure }
        return (Measurement(id: "L3s", name: "get-2-threads", count: keys.count * Self.getBatches, seconds: seconds, checksum: sum),
                ticks, expected, cpu)
    }

    /// `concurrentGets` child tasks each awaiting `get(key)`, `getBatches` times,
    /// while a ticker task on the same cooperative pool tries to fire every 1 ms.
    ///
    /// `way` says what each task awaits (see ``AsyncWay``).
    func getAsync(_ collection: DocumentCollection<Player>, keys: [Int], way: AsyncWay = .docstore) throws
        -> (Measurement, ticks: Int, expected: Int, late: Double, cpu: Double, frames: (Int, Int, Double))
    {
        let ticker = Ticker()
        let tickerTask = Task.detached { await ticker.run() }
        let frameTicker = Ticker(period: Self.frame)
        let frameTask = Task.detached { await frameTicker.run() }
        defer { ticker.stop(); tickerTask.cancel(); frameTicker.stop(); frameTask.cancel() }
        ticker.waitForFirstTick()
        frameTicker.waitForFirstTick()
        let start = ContinuousClock.now
        let cpuStart = Clock.processCPUSeconds()
        let sum = try blocking {
            var sum = 0
            for _ in 0..<Self.getBatches {
                sum &+= try await withThrowingTaskGroup(of: Int.self) { group in
                    for key in keys {
                        group.addTask {
                            let found: Player? = switch way {
                            case .docstore: try await collection.get(key)
                            case .gcdHop:
                                try await withCheckedThrowingContinuation { continuation in
                                    Self.hopQueue.async { continuation.resume(with: Result { try collection.get(key) }) }
                                }
                            case .noDatabase:
                                await withUnsafeContinuation { continuation in continuation.resume(returning: Self.stand) }
                            }
                            guard let player = found else { throw BenchmarkError("L3: no document \(key)") }
                            return player.checksum
                        }
                    }
                    var sum = 0
                    for try await checksum in group { sum &+= checksum }
                    return sum
                }
            }
            return sum
        }
        let end = ContinuousClock.now
        let cpu = Clock.processCPUSeconds() - cpuStart
        let (ticks, expected, late) = ticker.count(from: start, to: end)
        let frames = frameTicker.count(from: start, to: end)
        let seconds = Monotonic.seconds(start.duration(to: end))
        let count = keys.count * Self.getBatches
        let measurement = switch way {
        case .docstore: Measurement(id: "L3a", name: "get-async-tasks", count: count, seconds: seconds, checksum: sum)
        case .gcdHop: Measurement(id: "L3h", name: "get-gcd-hop", count: count, seconds: seconds, checksum: sum)
        case .noDatabase: Measurement(id: "L3n", name: "no-database-tasks", count: count, seconds: seconds, checksum: sum)
        }
        return (measurement, ticks, expected, late, cpu, frames)
    }

    static let hopQueue = DispatchQueue(label: "docstore-bench.hop", attributes: .concurrent)

    /// What each of L3's tasks awaits.
    enum AsyncWay {
        /// `await collection.get(key)`: L3a.
        case docstore
        /// The control `L3h`: the sync `get` in a continuation resumed from a
        /// concurrent GCD queue, the usual way to call a sync API from async code
        /// without blocking the pool (and what DocStore's async reads did before
        /// the lane). The ticker's share there tells what any hop off the pool
        /// leaves it, DocStore's lane or not.
        case gcdHop
        /// The floor `L3n`: a continuation resumed at once, on the task's own
        /// thread, with no database and no other thread: the same tasks, each
        /// suspending and running again once, as in L3a. What the ticker misses
        /// here, the flood of tasks costs it whatever they await.
        case noDatabase
    }

    /// L3n's stand-in for a document read (its checksum is not compared).
    static let stand: Player? = Workload.player(1)

    /// A 60 Hz frame, the period of the second ticker.
    static let frame = Duration.microseconds(16_667)

    // MARK: L4: writes to another collection

    /// An observer on `players` (team 1 of 300) while 10 000 documents are inserted
    /// into collection `others`, one commit each: the live-query fetches they cause.
    /// Then one write to a team-1 player, which must cost exactly one.
    func unrelatedWrites() throws -> (measurement: Measurement, fetches: Int, control: Int) {
        try withStore("unrelated") { store in
            let collection = store.collection(Player.self)
            let others = store.collection(Player.self, named: "others")
            try collection.insert(contentsOf: Workload.players(300))
            try others.insert(Workload.player(1))  // the collection exists before observing
            let probe = Probe()
            let consumer = probe.consume(collection.filter({ $0.teamId == 1 }).values()) { $0.count }
            defer { consumer.cancel(); probe.waitFinished() }
            _ = try probe.wait(for: 10)
            store.benchmarkWaitForObservers()
            let before = store.benchmarkLiveQueryFetches
            let documents = (2...Self.unrelatedWrites + 1).map(Workload.player)
            let (_, seconds) = try Clock.time {
                for document in documents { try others.insert(document) }
            }
            store.benchmarkWaitForObservers()
            let fetches = store.benchmarkLiveQueryFetches - before
            try collection.insert(Workload.player(301))  // 301 % 30 == 1: joins team 1
            _ = try probe.wait(for: 11)
            store.benchmarkWaitForObservers()
            let control = store.benchmarkLiveQueryFetches - before - fetches
            return (Measurement(id: "L4", name: "unrelated-writes", count: documents.count, seconds: seconds), fetches, control)
        }
    }

    // MARK: Report

    static func lines(_ r: Results) -> [String] {
        [
            r.insert.line,
            r.insertObserved.line,
            r.observerResult.line,
            r.latency.line + " median_us=\(Int((r.latencyMedian * 1e6).rounded())) p99_us=\(Int((r.latencyP99 * 1e6).rounded()))",
            r.getSync.line + " ticks=\(r.syncTicks) expected_ticks=\(r.syncExpectedTicks)",
            r.getAsync.line + " ticks=\(r.ticks) expected_ticks=\(r.expectedTicks) frames=\(r.frames) expected_frames=\(r.expectedFrames)",
            r.getHop.line + " ticks=\(r.hopTicks) expected_ticks=\(r.hopExpectedTicks) frames=\(r.hopFrames) expected_frames=\(r.hopExpectedFrames)",
            "L3n no-database-tasks seconds=\(String(format: "%.3f", r.floorSeconds)) ticks=\(r.floorTicks) expected_ticks=\(r.floorExpectedTicks)",
            r.unrelated.line + " fetches=\(r.unrelatedFetches)",
        ]
    }

    static func summary(_ r: Results) -> String {
        func f(_ value: Double, _ digits: Int = 3) -> String { String(format: "%.\(digits)f", value) }
        var lines = ["live queries and the async API (issue 10), wall time:"]
        lines.append("  L1 W1 insert of \(r.insert.count): \(f(r.insert.seconds)) s without an observer; with a live query on team 1 "
            + "the insert returns after \(f(r.insertObserved.seconds)) s and the observer has its new result after "
            + "\(f(r.observerResult.seconds)) s (\(f((r.observerResult.seconds - r.insertObserved.seconds) * 1000, 1)) ms after the return)")
        lines.append("  L2 commit → observer over \(r.latency.count) commits: median \(f(r.latencyMedian * 1e6, 0)) µs, "
            + "p99 \(f(r.latencyP99 * 1e6, 0)) µs (\(r.latencyBeforeReturn) delivered before the commit returned, counted as 0)")
        lines.append("  L3 \(concurrentGets) gets × \(getBatches) batches: \(Int(r.getSync.rate)) gets/s sync from 2 threads, "
            + "\(Int(r.getAsync.rate)) gets/s from \(concurrentGets) concurrent tasks; ticker: \(r.ticks) of \(r.expectedTicks) "
            + "1 ms ticks, latest \(f(r.maxTickLateness * 1000, 2)) ms late (control, during the sync run: "
            + "\(r.syncTicks) of \(r.syncExpectedTicks)); a 60 Hz ticker beside it: \(r.frames) of \(r.expectedFrames) frames, latest "
            + "\(f(r.maxFrameLateness * 1000, 2)) ms late; CPU time \(f(r.syncCPU)) s sync, \(f(r.asyncCPU)) s async")
        lines.append("  L3h control, the same sync gets each hopped to a GCD queue from its task: \(Int(r.getHop.rate)) gets/s; "
            + "1 ms ticker: \(r.hopTicks) of \(r.hopExpectedTicks) ticks; 60 Hz ticker: \(r.hopFrames) of \(r.hopExpectedFrames) frames")
        lines.append("  L3n floor, the same tasks awaiting a continuation resumed at once (no database, no other thread): "
            + "\(f(r.floorSeconds)) s; 1 ms ticker: \(r.floorTicks) of \(r.floorExpectedTicks) ticks")
        lines.append("  L4 \(r.unrelated.count) commits to another collection: \(r.unrelatedFetches) live-query fetches; "
            + "then one write to an observed document: \(r.controlFetches) fetch (control, should be 1)")
        lines.append("")
        lines.append("targets (issue 10):")
        func check(_ label: String, _ value: Double, _ relation: String, _ limit: Double, _ met: Bool) {
            lines.append("  \(label): \(f(value, 2)) \(relation) \(limit) \(met ? "met" : "MISSED")")
        }
        let insertRatio = r.insertObserved.seconds / r.insert.seconds
        check("L1 insert observed / not observed", insertRatio, "≤", 1.1, insertRatio <= 1.1)
        let getRatio = r.getAsync.seconds / r.getSync.seconds
        check("L3 async tasks / 2 threads (time)", getRatio, "≤", 1.3, getRatio <= 1.3)
        let cpuRatio = r.asyncCPU / r.syncCPU
        check("L3 async tasks / 2 threads (CPU time)", cpuRatio, "≤", 1.3, cpuRatio <= 1.3)
        let tickShare = Double(r.ticks) / Double(max(r.expectedTicks, 1))
        check("L3 ticker ticks / expected (1 ms ticker)", tickShare, "≥", 0.9, tickShare >= 0.9)
        let floorShare = Double(r.floorTicks) / Double(max(r.floorExpectedTicks, 1))
        lines.append("    (not a target: the same tasks with no database keep \(f(floorShare, 2)) of the 1 ms ticks, L3n)")
        let frameShare = Double(r.frames) / Double(max(r.expectedFrames, 1))
        check("L3 60 Hz ticker frames / expected", frameShare, "≥", 0.99, frameShare >= 0.99)
        check("L4 re-fetches for another collection's writes", Double(r.unrelatedFetches), "=", 0, r.unrelatedFetches == 0)
        return lines.joined(separator: "\n")
    }

    // MARK: Helpers

    func withStore<T>(_ name: String, _ body: (DocumentStore) throws -> T) throws -> T {
        let path = directory.appendingPathComponent("live-\(name).sqlite").path
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        let store = try DocumentStore(path: path)
        defer { try? store.close() }
        return try body(store)
    }
}

/// Runs `body` on Swift's cooperative pool and blocks the calling thread until it ends.
func blocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    let box = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        do { box.result = .success(try await body()) } catch { box.result = .failure(error) }
        done.signal()
    }
    done.wait()
    return try box.result!.get()
}

final class ResultBox<T>: @unchecked Sendable {
    var result: Result<T, any Error>?
}

enum Monotonic {
    static var now: UInt64 { DispatchTime.now().uptimeNanoseconds }
    static func seconds(_ from: UInt64, _ to: UInt64) -> Double { Double(to &- from) * 1e-9 }
    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }
}

/// What a consumer task saw last, for the thread that waits for it.
final class Probe: @unchecked Sendable {
    private let condition = NSCondition()
    private var value = Int.min
    private var deliveredAt: UInt64 = 0
    private var finished = false
    private var error: (any Error)?

    /// A task iterating `sequence`, reporting `value(element)` for each element.
    func consume<Element: Sendable>(_ sequence: LiveSequence<Element>,
                                    _ value: @escaping @Sendable (Element) -> Int) -> Task<Void, Never> {
        Task.detached { [self] in
            do {
                for try await element in sequence { deliver(value(element)) }
                end(nil)
            } catch {
                end(error)
            }
        }
    }

    func deliver(_ newValue: Int) {
        let now = Monotonic.now
        condition.withLock {
            value = newValue
            deliveredAt = now
            condition.broadcast()
        }
    }

    func end(_ error: (any Error)?) {
        condition.withLock {
            finished = true
            self.error = error
            condition.broadcast()
        }
    }

    /// Waits until the consumer received `expected`; returns when it did.
    func wait(for expected: Int) throws -> UInt64 {
        try condition.withLock {
            while value != expected && !finished { condition.wait() }
            if value != expected {
                throw error ?? BenchmarkError("live query ended before yielding \(expected) (last \(value))")
            }
            return deliveredAt
        }
    }

    func waitFinished() {
        condition.withLock { while !finished { condition.wait() } }
    }
}

/// A task that sleeps until each next period (1 ms unless given) and notes when it woke. A tick
/// that wakes late doesn't make up the ones it missed.
final class Ticker: @unchecked Sendable {
    private let period: Duration
    private let condition = NSCondition()
    private var fires: [(deadline: ContinuousClock.Instant, fired: ContinuousClock.Instant)] = []
    private var stopped = false

    init(period: Duration = .milliseconds(1)) { self.period = period }

    func run() async {
        var deadline = ContinuousClock.now
        while !condition.withLock({ stopped }) {
            deadline += period
            let now = ContinuousClock.now
            while deadline < now { deadline += period }
            try? await Task.sleep(until: deadline, tolerance: .zero, clock: .continuous)
            let fired = ContinuousClock.now
            condition.withLock {
                fires.append((deadline, fired))
                condition.broadcast()
            }
        }
    }

    func waitForFirstTick() {
        condition.withLock { while fires.isEmpty { condition.wait() } }
    }

    func stop() { condition.withLock { stopped = true } }

    /// Ticks whose deadline fell in `start...end`, the milliseconds in it, and the
    /// latest of those ticks' lateness in seconds.
    func count(from start: ContinuousClock.Instant, to end: ContinuousClock.Instant) -> (Int, Int, Double) {
        condition.withLock {
            let window = fires.filter { $0.deadline > start && $0.deadline <= end }
            let late = window.map { Monotonic.seconds($0.deadline.duration(to: $0.fired)) }.max() ?? 0
            let expected = Int(Monotonic.seconds(start.duration(to: end)) / Monotonic.seconds(period))
            return (window.count, expected, late)
        }
    }
}
