import Foundation

/// Runs `body` on a thread of its own and waits for it to end.
///
/// For work a synchronous test blocks on. On Linux, Swift concurrency and
/// Dispatch's global queues share a few worker threads (about as many as
/// cores, two here), and tests running in parallel hold them while they wait:
/// work a waiting test sent to `DispatchQueue.global()` could start only once
/// another test let its thread go, so under a full run's load the test stalled
/// with the others, past its time limit.
func runOnOwnThread(_ body: @escaping @Sendable () -> Void) {
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
        body()
        done.signal()
    }
    done.wait()
}
