import Dispatch
import Foundation
import Synchronization
import Testing
@testable import DocStore

/// The lane that runs async point reads: every job runs once, in submission order
/// per thread, never more than `width` at a time, and not far ahead of the
/// tasks it resumes.
///
/// The deadlines are long (five minutes) because the lane runs on GCD's threads,
/// which the rest of the suite keeps busy: in one full run a job waited 16 s to
/// start, and on a slower machine two tests passed their two-minute deadlines
/// (each passes in 0.1 s alone). A lane that stalls still fails, later.
@Suite("Work lane")
struct WorkLaneTests {
    @Test func aLaneOfWidthOneRunsEveryJobOnceInOrder() async {
        let lane = WorkLane(queue: DispatchQueue(label: "test", attributes: .concurrent), width: 1)
        let order = Mutex<[Int]>([])
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            for job in 0..<5_000 {
                lane.submit { () -> WorkLane.Completion? in
                    let count = order.withLock { $0.append(job); return $0.count }
                    guard count == 5_000 else { return nil }
                    return { done.resume() }
                }
            }
        }
        #expect(order.withLock { $0 } == Array(0..<5_000))
    }

    @Test func noMoreThanWidthJobsRunAtOnce() async {
        let lane = WorkLane(queue: DispatchQueue(label: "test", attributes: .concurrent), width: 1)
        struct Counts { var running = 0, most = 0, done = 0 }
        let counts = Mutex(Counts())
        let total = 3_000
        await withCheckedContinuation { (finished: CheckedContinuation<Void, Never>) in
            for _ in 0..<total {
                lane.submit { () -> WorkLane.Completion? in
                    counts.withLock { $0.running += 1; $0.most = max($0.most, $0.running) }
                    // A few microseconds of work, so that drains overlap.
                    var x = 0
                    for i in 0..<200 { x &+= i }
                    counts.withLock { $0.most += x == 0 ? 1 : 0 }  // keeps the loop
                    let done = counts.withLock { counts -> Int in
                        counts.running -= 1
                        counts.done += 1
                        return counts.done
                    }
                    guard done == total else { return nil }
                    return { finished.resume() }
                }
            }
        }
        let final = counts.withLock { $0 }
        #expect(final.done == total)
        #expect(final.most == 1, "one thread at a time, though the queue is concurrent")
    }

    /// Jobs queued while the lane is busy run as one batch, then their completions:
    /// the tasks they resume wake together.
    @Test func queuedJobsRunBeforeTheirCompletions() async {
        let lane = WorkLane(queue: DispatchQueue(label: "test", attributes: .concurrent), width: 1)
        let log = Mutex<[String]>([])
        let blocker = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            // Waiting for the first job to start needs a Dispatch thread while
            // it blocks one: on a thread of its own (see `runOnOwnThread`), so that
            // this test, which awaits, holds none meanwhile.
            Thread.detachNewThread {
                lane.submit { () -> WorkLane.Completion? in
                    started.signal()
                    blocker.wait()
                    return nil
                }
                started.wait()
                for job in 1...3 {
                    lane.submit { () -> WorkLane.Completion? in
                        log.withLock { $0.append("job \(job)") }
                        return {
                            log.withLock { $0.append("resume \(job)") }
                            if job == 3 { done.resume() }
                        }
                    }
                }
                blocker.signal()
            }
        }
        #expect(log.withLock { $0 } == ["job 1", "job 2", "job 3", "resume 1", "resume 2", "resume 3"])
    }

    /// The lane keeps pace with the pool: it stops while `pendingLimit`
    /// resumed tasks haven't run (never resuming more than a batch past the
    /// limit ahead of them), starts again as they run, and runs every job once.
    @Test func theLaneStopsUntilResumedTasksRun() async throws {
        let limit = 4, total = 200
        let lane = WorkLane(queue: DispatchQueue(label: "test", attributes: .concurrent), width: 1, pendingLimit: limit,
                            patience: .seconds(600))
        let resumed = Mutex<[Int]>([])
        for job in 0..<total {
            lane.submit { () -> WorkLane.Completion? in { resumed.withLock { $0.append(job) } } }
        }
        var acknowledged = 0
        var stops: [Int] = []
        let deadline = ContinuousClock.now + .seconds(300)
        while acknowledged < total {
            // Until the count holds still (the lane stopped or is done).
            var count = resumed.withLock { $0.count }
            while true {
                try await Task.sleep(for: .milliseconds(20))
                let now = resumed.withLock { $0.count }
                if now == count { break }
                count = now
            }
            try #require(ContinuousClock.now < deadline, "the lane stalled at \(count) of \(total) jobs")
            #expect(count - acknowledged <= limit - 1 + WorkLane.batchSize, "resumed ahead of the pool: \(count - acknowledged)")
            if count > acknowledged { stops.append(count) }
            // The resumed tasks run.
            for _ in acknowledged..<count { lane.completionRan() }
            acknowledged = count
        }
        #expect(resumed.withLock { $0 } == Array(0..<total))
        #expect(stops.count >= total / (limit - 1 + WorkLane.batchSize), "the lane stopped for the pool: \(stops)")
    }

    /// Resumed tasks that never run (a pool its callers block) delay the
    /// lane's other jobs by its patience per batch, never for good: the tasks
    /// of other executors (the main actor) still get their reads.
    @Test func aPoolThatNeverCatchesUpDelaysReadsButDoesNotStopThem() async throws {
        let total = 200
        let lane = WorkLane(queue: DispatchQueue(label: "test", attributes: .concurrent), width: 1, pendingLimit: 4,
                            patience: .milliseconds(5))
        let resumed = Mutex(0)
        for _ in 0..<total {
            lane.submit { () -> WorkLane.Completion? in { resumed.withLock { $0 += 1 } } }
        }
        let deadline = ContinuousClock.now + .seconds(300)
        while resumed.withLock({ $0 }) < total, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(resumed.withLock { $0 } == total, "every job ran, though no resumed task said it runs")
    }

    /// A job submitted while the pool is behind and the lane idle (its last
    /// drain ended with the queue empty) still runs, after the lane's patience.
    @Test func aJobSubmittedToAnIdleLaneBehindThePoolStillRuns() async throws {
        let lane = WorkLane(queue: DispatchQueue(label: "test", attributes: .concurrent), width: 1, pendingLimit: 1,
                            patience: .milliseconds(5))
        let ran = Mutex<[String]>([])
        // Resumed, and its task never says it runs: the pool stays behind.
        lane.submit { () -> WorkLane.Completion? in { ran.withLock { $0.append("first") } } }
        let deadline = ContinuousClock.now + .seconds(300)
        while ran.withLock({ $0 }).isEmpty, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        try await Task.sleep(for: .milliseconds(20))  // the drain has ended
        lane.submit { () -> WorkLane.Completion? in { ran.withLock { $0.append("second") } } }
        while ran.withLock({ $0 }).count < 2, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(ran.withLock { $0 } == ["first", "second"])
    }

    /// Many tasks awaiting the lane at once, each saying when it runs, with a
    /// limit of 2: the lane stops and starts again thousands of times and no
    /// task is left waiting.
    @Test func stoppingForThePoolNeverStrandsATask() async throws {
        let lane = WorkLane(queue: DispatchQueue(label: "test", attributes: .concurrent), width: 2, pendingLimit: 2)
        // In a task of its own: a stranded task can't be cancelled, and the
        // test must fail rather than hang.
        let work = Task.detached {
            var ran = 0
            for _ in 0..<10 {
                ran += await withTaskGroup(of: Int.self) { group in
                    for _ in 0..<1_000 {
                        group.addTask {
                            await withUnsafeContinuation { (resume: UnsafeContinuation<Void, Never>) in
                                lane.submit { () -> WorkLane.Completion? in { resume.resume() } }
                            }
                            lane.completionRan()
                            return 1
                        }
                    }
                    return await group.reduce(0, +)
                }
            }
            return ran
        }
        let finished = Mutex<Int?>(nil)
        Task.detached { let ran = await work.value; finished.withLock { $0 = ran } }
        let deadline = ContinuousClock.now + .seconds(300)
        while finished.withLock({ $0 }) == nil, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(finished.withLock { $0 } == 10_000, "10 000 tasks, all resumed within five minutes")
    }

    /// Jobs submitted after the lane went idle start it again.
    @Test func anIdleLaneStartsAgain() async {
        let lane = WorkLane(queue: DispatchQueue(label: "test", attributes: .concurrent), width: 2)
        for round in 0..<50 {
            let ran = await withCheckedContinuation { (ran: CheckedContinuation<Int, Never>) in
                lane.submit { () -> WorkLane.Completion? in { ran.resume(returning: round) } }
            }
            #expect(ran == round)
        }
    }
}

/// A batch of async point reads shares one read transaction on one connection.
@Suite("Point-read batches")
struct PointReadBatchTests {
    @Test func readsInABatchSeeOneSnapshotAndLaterReadsSeeNewCommits() throws {
        let (path, directory) = try temporaryStorePath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try DocumentStore(path: path)
        let docs = store.collection(named: "docs")
        try docs.insert(["id": 1, "n": 1])
        let pointReader = try #require(store.pointReader)
        var seen: [JSONValue?] = []
        pointReader.inBatch {
            seen.append(try? docs.get(1)?["n"])
            // Committed by the writer between two reads of the batch.
            _ = try? docs.save(["id": 1, "n": 2])
            seen.append(try? docs.get(1)?["n"])
        }
        #expect(seen == [1, 1], "the batch's reads share the snapshot its first read began")
        #expect(try docs.get(1)?["n"] == 2, "a read after the batch sees the commit")
        // The batch's connection went back to the pool outside any transaction:
        // the next batch sees the commit too.
        var next: JSONValue?
        pointReader.inBatch { next = try? docs.get(1)?["n"] }
        #expect(next == 2)
    }

    @Test func aBatchWithoutReadsOpensNothingAndOtherStoresReadAsUsual() throws {
        let (pathA, directoryA) = try temporaryStorePath()
        let (pathB, directoryB) = try temporaryStorePath()
        defer {
            try? FileManager.default.removeItem(at: directoryA)
            try? FileManager.default.removeItem(at: directoryB)
        }
        let storeA = try DocumentStore(path: pathA)
        let storeB = try DocumentStore(path: pathB)
        let a = storeA.collection(named: "docs"), b = storeB.collection(named: "docs")
        try a.insert(["id": 1, "n": 1])
        try b.insert(["id": 1, "n": 1])
        var seen: [JSONValue?] = []
        try #require(storeA.pointReader).inBatch {
            seen.append(try? b.get(1)?["n"])
            _ = try? b.save(["id": 1, "n": 2])
            // Store B's reads aren't part of store A's batch: they see B's commit.
            seen.append(try? b.get(1)?["n"])
        }
        #expect(seen == [1, 2])
        try #require(storeA.pointReader).inBatch {}
        #expect(try a.get(1)?["n"] == 1)
    }
}
