import Dispatch
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
                lane.submit {
                    let count = order.withLock { $0.append(job); return $0.count }
                    if count == 5_000 { done.resume() }
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
                lane.submit {
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
                    if done == total { finished.resume() }
                }
            }
        }
        let final = counts.withLock { $0 }
        #expect(final.done == total)
        #expect(final.most == 1, "one thread at a time, though the queue is concurrent")
    }

    /// Jobs submitted after the lane went idle start it again.
    @Test func anIdleLaneStartsAgain() async {
        let lane = WorkLane(queue: DispatchQueue(label: "test", attributes: .concurrent), width: 2)
        for round in 0..<50 {
            let ran = await withCheckedContinuation { (ran: CheckedContinuation<Int, Never>) in
                lane.submit { ran.resume(returning: round) }
            }
            #expect(ran == round)
        }
    }
}
