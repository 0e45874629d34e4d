import DocStore
import Foundation
import Synchronization

/// ctrl-C while a command runs: on a terminal, SIGINT stops the command (an
/// import, an export, a long fetch) instead of ending the program, as in sqlite3
/// and mongosh. While a line is edited, libedit takes ctrl-C as a key instead.
///
/// A signal handler can only set a flag: long-running work checks it between
/// documents or batches and throws ``Interrupted``. A query that returns
/// nothing for a long time (an unindexed count, a cross join) never reaches such
/// a check, so the handler also wakes a thread that interrupts the SQLite
/// statement in progress (`sqlite3_interrupt`, through the store's
/// cancellation token attached to the command by ``interruptible(_:)``).
public final class Interruption: Sendable {
    private let flag = Atomic<Bool>(false)
    /// The token of the command running now, which ctrl-C cancels.
    private let running = Mutex<CancellationToken?>(nil)

    public init() {}

    /// The flag SIGINT sets once ``catchSignal()`` was called.
    public static let terminal = Interruption()

    /// Catches SIGINT into ``terminal`` from now on (interactive sessions only:
    /// piped input and `-c` keep the default, which ends the process).
    public static func catchSignal() {
        startWaker()
        signal(SIGINT) { _ in
            // Only async-signal-safe work here: an atomic store and a write.
            Interruption.terminal.flag.store(true, ordering: .relaxed)
            var byte: UInt8 = 1
            _ = write(Interruption.wakeDescriptor.load(ordering: .relaxed), &byte, 1)
        }
        // A parent may have blocked it (the mask is inherited across exec).
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
    }

    /// Unblocks the signals that end a process (hangup, terminate, quit,
    /// interrupt). A parent may have blocked them (the mask is inherited across
    /// exec, and threaded parents such as test runners block them), and then
    /// closing the terminal or `kill` would leave the REPL running forever.
    public static func unblockTerminationSignals() {
        var signals = sigset_t()
        sigemptyset(&signals)
        for signal in [SIGHUP, SIGINT, SIGQUIT, SIGTERM] { sigaddset(&signals, signal) }
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
    }

    /// The error a command stops with after ctrl-C.
    public struct Interrupted: Error, CustomStringConvertible, Sendable {
        public var description: String
        public init(_ description: String) { self.description = description }
    }

    /// Whether ctrl-C was pressed since the last ``reset()``.
    public var isRequested: Bool { flag.load(ordering: .relaxed) }

    /// Marks ctrl-C as pressed, and interrupts the SQLite statement of the
    /// command running now, if any. (Not from a signal handler: it takes a lock.)
    public func request() {
        flag.store(true, ordering: .relaxed)
        running.withLock { $0?.cancel() }
    }

    /// Runs a command so that ``request()`` also interrupts its SQLite
    /// statements: the store's reads and writes made by `body` on this thread
    /// stop with an error (and a write rolls back) once ctrl-C is pressed.
    func interruptible<R>(_ body: () throws -> R) rethrows -> R {
        let token = CancellationToken()
        running.withLock { $0 = token }
        defer { running.withLock { $0 = nil } }
        // Pressed between reset() and now: the token missed it.
        if isRequested { token.cancel() }
        return try CancellationToken.with(token, body)
    }

    /// The pipe end the SIGINT handler writes to (-1 before ``startWaker()``).
    private static let wakeDescriptor = Atomic<Int32>(-1)

    /// A thread that turns the signal handler's byte into ``request()`` on
    /// ``terminal``, where taking a lock is allowed.
    private static func startWaker() {
        guard wakeDescriptor.load(ordering: .relaxed) < 0 else { return }
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return }  // Then ctrl-C still stops between documents.
        let readEnd = ends[0]
        wakeDescriptor.store(ends[1], ordering: .relaxed)
        Thread.detachNewThread {
            var byte: UInt8 = 0
            while true {
                let count = read(readEnd, &byte, 1)
                if count < 0, errno == EINTR { continue }
                if count <= 0 { return }
                Interruption.terminal.request()
            }
        }
    }

    /// Forgets an earlier ctrl-C (done before each command).
    public func reset() { flag.store(false, ordering: .relaxed) }

    /// Throws ``Interrupted`` saying `what` when ctrl-C was pressed.
    func check(_ what: @autoclosure () -> String) throws {
        if isRequested { throw Interrupted(what()) }
    }
}
