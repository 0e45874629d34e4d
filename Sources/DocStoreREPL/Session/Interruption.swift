import Foundation
import Synchronization

/// ctrl-C while a command runs: on a terminal, SIGINT stops the command (an
/// import, an export, a long fetch) instead of ending the program, as in sqlite3
/// and mongosh. While a line is edited, libedit takes ctrl-C as a key instead.
///
/// A signal handler can only set a flag: long-running work checks it between
/// documents or batches and throws ``Interrupted``.
public final class Interruption: Sendable {
    private let flag = Atomic<Bool>(false)

    public init() {}

    /// The flag SIGINT sets once ``catchSignal()`` was called.
    public static let terminal = Interruption()

    /// Catches SIGINT into ``terminal`` from now on (interactive sessions only:
    /// piped input and `-c` keep the default, which ends the process).
    public static func catchSignal() {
        signal(SIGINT) { _ in Interruption.terminal.request() }
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

    /// Marks ctrl-C as pressed.
    public func request() { flag.store(true, ordering: .relaxed) }

    /// Forgets an earlier ctrl-C (done before each command).
    public func reset() { flag.store(false, ordering: .relaxed) }

    /// Throws ``Interrupted`` saying `what` when ctrl-C was pressed.
    func check(_ what: @autoclosure () -> String) throws {
        if isRequested { throw Interrupted(what()) }
    }
}
