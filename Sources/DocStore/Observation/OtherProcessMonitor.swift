import Dispatch
import Synchronization

/// Polls a store for commits made by other connections (another process, a second
/// `DocumentStore` on the same file): SQLite can't notify across processes, but
/// `PRAGMA data_version` on the writer's connection changes exactly when another
/// connection commits. Each change tells every observer that anything may have
/// changed; live queries fetch again and report only what did.
final class OtherProcessMonitor: Sendable {
    private struct State {
        var interval: Duration?
        var timer: Timer?
        var lastVersion: Int64?
    }

    /// A dispatch timer, whose methods may be called from any thread.
    private struct Timer: @unchecked Sendable {
        let source: any DispatchSourceTimer
    }

    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "DocStore.otherProcesses", qos: .utility)

    var interval: Duration? { state.withLock { $0.interval } }

    /// Starts polling every `interval` (nil stops), calling `poll` on each tick;
    /// `poll` returns the current data version, or nil when it can't be read.
    func setInterval(_ interval: Duration?, poll: @escaping @Sendable () -> Int64?, onChange: @escaping @Sendable () -> Void) {
        let old = state.withLock { state -> Timer? in
            state.interval = interval
            defer { state.timer = nil }
            return state.timer
        }
        old?.source.cancel()
        guard let interval else { return }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        let nanoseconds = Int(max(interval, .milliseconds(1)).timeInterval * 1_000_000_000)
        timer.schedule(deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds))
        timer.setEventHandler { [self] in
            guard let version = poll() else { return }
            let changed = state.withLock { state in
                defer { state.lastVersion = version }
                return state.lastVersion.map { $0 != version } ?? false
            }
            if changed { onChange() }
        }
        // The first tick only learns the version: commits before polling began are
        // in every observation's first result already.
        let initial = poll()
        state.withLock { state in
            state.timer = Timer(source: timer)
            state.lastVersion = initial
        }
        timer.resume()
    }

    func stop() {
        let timer = state.withLock { state -> Timer? in
            defer { state.timer = nil; state.interval = nil }
            return state.timer
        }
        timer?.source.cancel()
    }
}
