import Dispatch
import Foundation
import Synchronization
import Testing
@testable import DocStore

/// The lane that runs async point reads: every job runs once, in submission order
/// per thread, and never more than `width` at a time.
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
        #expect(log.withLock { $0 } == ["job 1", "job 2", "job 3", "resume 1", "resume 2", "resume 3"])
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
