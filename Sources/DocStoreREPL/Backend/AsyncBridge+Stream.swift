import Dispatch
import Synchronization

extension AsyncBridge {
    /// Runs `produce` as a task and hands each element it yields to `consume`
    /// on this thread, as they come, holding at most `capacity` at once: a
    /// query of a million documents prints in the memory of a few hundred,
    /// where collecting them first held them all.
    ///
    /// `produce`'s `yield` waits while `capacity` elements wait for
    /// `consume` (that blocks the task's thread, which this thread always
    /// frees: it consumes on its own, never through the task pool). When
    /// `consume` throws, or ctrl-C (`interruption`) or `stuck` stops the
    /// work, the task is cancelled, its `yield` throws, and this waits for
    /// it to end before throwing.
    static func forEach<Element: Sendable>(
        interruption: Interruption? = nil, stuck: Check? = nil, capacity: Int = 256,
        produce: @escaping @Sendable (_ yield: (Element) throws -> Void) async throws -> Void,
        consume: (Element) throws -> Void
    ) throws {
        let handoff = Handoff<Element>(capacity: capacity)
        let task = Task {
            do {
                try await produce { try handoff.put($0) }
                handoff.end(.success(()))
            } catch {
                handoff.end(.failure(error))
            }
        }
        let watch = stuck.map { CheckRun($0, task: task) }
        defer { watch?.end() }
        func stop() {
            handoff.stop()
            task.cancel()
            handoff.waitForEnd()
        }
        var leaving = Leaving()
        while true {
            guard let next = handoff.take(timeout: .milliseconds(100)) else {
                if leaving.isDue(interruption: interruption, watch: watch, task: task) {
                    handoff.stop()
                    throw watch?.reason ?? leftRunning
                }
                continue
            }
            switch next {
            case .element(let element):
                do { try consume(element) } catch {
                    stop()
                    throw error
                }
            case .end(let result):
                if case .failure = result, let reason = watch?.reason { throw reason }
                return try result.get()
            }
        }
    }
}

/// Elements handed from a producing task to a consuming thread, a bounded few
/// at a time.
private final class Handoff<Element: Sendable>: Sendable {
    enum Next {
        case element(Element)
        case end(Result<Void, any Error>)
    }

    private struct State {
        var queue: [Element] = []
        var head = 0
        var end: Result<Void, any Error>?
        var stopped = false
    }
    private let state = Mutex(State())
    /// Signalled once for each element put and once at the end.
    private let ready = DispatchSemaphore(value: 0)
    /// Counts the free places: a producer waits on it before it puts.
    private let places = DispatchSemaphore(value: 0)
    private let ended = DispatchSemaphore(value: 0)

    init(capacity: Int) {
        // Made with no place and given them after: libdispatch traps when a
        // semaphore goes away holding less than it was made with, as this one
        // does when the consumer stops with elements still queued.
        for _ in 0..<capacity { places.signal() }
    }

    /// Waits for a free place, then puts `element`; throws once the consumer stopped.
    func put(_ element: Element) throws {
        places.wait()
        try state.withLock { state in
            if state.stopped { throw CancellationError() }
            state.queue.append(element)
        }
        ready.signal()
    }

    func end(_ result: Result<Void, any Error>) {
        state.withLock { $0.end = result }
        ready.signal()
        ended.signal()
    }

    /// The next element, or the end once every element was taken; nil when
    /// nothing came within `timeout`.
    func take(timeout: DispatchTimeInterval) -> Next? {
        guard ready.wait(timeout: .now() + timeout) == .success else { return nil }
        let next: Next? = state.withLock { state in
            if state.head < state.queue.count {
                let element = state.queue[state.head]
                state.head += 1
                // The taken front is dropped now and then, not at every take.
                if state.head >= 1024 { state.queue.removeFirst(state.head); state.head = 0 }
                return .element(element)
            }
            return state.end.map(Next.end)
        }
        if case .element = next { places.signal() }
        return next
    }

    /// The consumer takes no more: a producer waiting for a place, or putting
    /// next, throws.
    func stop() {
        state.withLock { $0.stopped = true }
        places.signal()
    }

    func waitForEnd() {
        ended.wait()
    }
}
