import Synchronization

import Dispatch

/// How a wait of ``AsyncBridge`` stops waiting: a ``Check`` asked while the
/// work runs long, and ``Leaving`` for work that doesn't end when cancelled.
extension AsyncBridge {
    /// Waits for `semaphore`, signalled when `task`'s call ends, or leaves
    /// the call 3 s after ctrl-C or 1 s after `stuck` found why it waits
    /// (``Leaving``), throwing. ctrl-C doesn't cancel the call: its caller
    /// says what ctrl-C does (an import rolls back between batches).
    static func waitOut(_ semaphore: DispatchSemaphore, task: Task<Void, Never>, stuck: Check?) throws {
        let watch = stuck.map { CheckRun($0, task: task) }
        defer { watch?.end() }
        var leaving = Leaving()
        while semaphore.wait(timeout: .now() + .milliseconds(100)) == .timedOut {
            if leaving.isDue(interruption: .terminal, watch: watch, task: task, cancelling: false) { throw watch?.reason ?? leftRunning }
        }
    }

    /// What ctrl-C says when it left work that had not ended seconds later.
    static var leftRunning: Interruption.Interrupted {
        Interruption.Interrupted("interrupted, but the server has not answered: the statement may still be running there, and a write in it may yet be committed or not; look before running it again")
    }

    /// When a wait stops waiting for work it cancelled. Work waiting for a
    /// server that doesn't answer (stopped with SIGSTOP, a network partition)
    /// doesn't heed cancellation: it is left to end on its own 3 s after
    /// ctrl-C, or 1 s after a ``Check`` found why it waits; ctrl-C gave
    /// nothing back for minutes (helper-57).
    struct Leaving {
        private var at: ContinuousClock.Instant?

        /// Called at each of the waiting thread's ticks: cancels `task` on
        /// ctrl-C, asks `watch` when it is time; true once the work is to be left.
        mutating func isDue(interruption: Interruption?, watch: CheckRun?, task: Task<Void, Never>, cancelling: Bool = true) -> Bool {
            if interruption?.isRequested == true {
                if cancelling { task.cancel() }
                if at == nil { at = .now + .seconds(3) }
            }
            watch?.tick()
            if watch?.reason != nil, at == nil { at = .now + .seconds(1) }
            return at.map { ContinuousClock.now >= $0 } ?? false
        }
    }

    /// A question asked while work runs long: why it can't go on, or nil.
    struct Check: Sendable {
        /// How long the work runs before the first time (asked as the work
        /// starts), and between two times.
        var first: @Sendable () -> Duration, interval: Duration
        var ask: @Sendable () async -> (any Error)?
    }

    /// A ``Check`` asked for one wait, from the waiting thread's ticks.
    final class CheckRun: Sendable {
        private let check: Check
        private let task: Task<Void, Never>
        private let clock = ContinuousClock()
        private struct State {
            var next: ContinuousClock.Instant
            var asking: Task<Void, Never>?
            var reason: (any Error)?
        }
        private let state: Mutex<State>

        init(_ check: Check, task: Task<Void, Never>) {
            self.check = check
            self.task = task
            state = Mutex(State(next: ContinuousClock.now + check.first()))
        }

        var reason: (any Error)? { state.withLock { $0.reason } }

        /// Asks the check when it is time and it isn't being asked already.
        func tick() {
            let now = clock.now
            state.withLock { state in
                guard state.asking == nil, state.reason == nil, now >= state.next else { return }
                state.asking = Task { [self, check, task] in
                    let reason = await check.ask()
                    self.state.withLock { state in
                        state.asking = nil
                        state.next = ContinuousClock.now + check.interval
                        if let reason, state.reason == nil { state.reason = reason }
                    }
                    if reason != nil { task.cancel() }
                }
            }
        }

        func end() {
            state.withLock { $0.asking }?.cancel()
        }
    }
}
