import Foundation
import Synchronization
import Testing

/// Iterates a live sequence in a task of its own and keeps what it yields, so
/// a test can wait (with a generous limit) for the next value, or see that
/// none came. The iteration ends with ``stop()`` (cancelling the task ends the
/// observation) or when the sequence ends.
final class LiveRecorder<Value: Sendable>: Sendable {
    private struct State {
        var values: [Value] = []
        var error: (any Error)?
        var finished = false
    }

    private let state = Mutex(State())
    private let task = Mutex<Task<Void, Never>?>(nil)

    init<Sequence: AsyncSequence & Sendable>(_ sequence: Sequence) where Sequence.Element == Value {
        let task = Task { [weak self] in
            do {
                for try await value in sequence { self?.state.withLock { $0.values.append(value) } }
            } catch {
                self?.state.withLock { $0.error = error }
            }
            self?.state.withLock { $0.finished = true }
        }
        self.task.withLock { $0 = task }
    }

    deinit { stop() }

    /// Every value yielded so far.
    var values: [Value] { state.withLock { $0.values } }
    /// The error that ended the sequence, if one did.
    var error: (any Error)? { state.withLock { $0.error } }
    var isFinished: Bool { state.withLock { $0.finished } }

    /// Waits until `count` values have been yielded; the values, or an error
    /// naming what was awaited.
    @discardableResult
    func waitFor(_ count: Int, _ what: String, within limit: Duration = .seconds(30)) async throws -> [Value] {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            let (values, finished, error) = state.withLock { ($0.values, $0.finished, $0.error) }
            if values.count >= count { return values }
            if finished { throw LiveTestError("the sequence ended before \(what) (\(error.map { "\($0)" } ?? "no error"))") }
            try await Task.sleep(for: .milliseconds(5))
        }
        throw LiveTestError("no \(what) within \(limit) (\(values.count) values so far)")
    }

    /// Waits until the sequence ends.
    func waitForEnd(_ what: String, within limit: Duration = .seconds(30)) async throws {
        let deadline = ContinuousClock.now + limit
        while !isFinished {
            if ContinuousClock.now > deadline { throw LiveTestError("\(what): the sequence didn't end within \(limit)") }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Ends the observation.
    func stop() {
        task.withLock { $0 }?.cancel()
    }
}

struct LiveTestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Polls `condition` until it holds (a test's generous wait, never a timing assertion).
func eventually(_ what: String, within limit: Duration = .seconds(30), _ condition: () async throws -> Bool) async throws {
    let deadline = ContinuousClock.now + limit
    while try await !condition() {
        if ContinuousClock.now > deadline { throw LiveTestError("\(what) didn't happen within \(limit)") }
        try await Task.sleep(for: .milliseconds(10))
    }
}
