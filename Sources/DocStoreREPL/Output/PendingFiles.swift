import Foundation
import Synchronization

/// The files ``AtomicFileWriter``s are writing, settled when a termination
/// signal ends the process (SIGTERM, SIGHUP from a closed terminal, SIGQUIT,
/// SIGINT in a piped session), which would otherwise leave their hidden
/// temporary files behind and their targets never written.
///
/// Each is settled the way the session would have: `.output`'s file holds
/// the results of the commands that finished, whole, so it is cut back to them
/// (a command still running may have printed half a result) and put in place,
/// as `.output` alone would; any other file (`.once`, `.export`) is removed,
/// and its target stays as it was.
enum PendingFiles {
    /// The process's files (a registry of its own in a test).
    static let shared = PendingFileRegistry()

    static func register(temporary: String, target: String, descriptor: Int32) -> Int {
        shared.register(temporary: temporary, target: target, descriptor: descriptor)
    }

    static func setWholeSize(_ token: Int, _ size: Int?) { shared.setWholeSize(token, size) }

    static func finish<E: Error>(_ token: Int, _ body: () throws(E) -> Void) throws(E) { try shared.finish(token, body) }

    static func writing<E: Error>(_ body: () throws(E) -> Void) throws(E) { try shared.writing(body) }

    static func settleAll() { shared.settleAll() }
}

/// The registry behind ``PendingFiles``.
final class PendingFileRegistry: Sendable {
    struct Entry {
        var temporary: String
        var target: String
        var descriptor: Int32
        /// How many of its first bytes are whole (`.output`: the finished
        /// commands' results), or nil when none are.
        var wholeSize: Int?
    }

    private struct State {
        var entries: [Int: Entry] = [:]
        /// Set by ``settleAll()``: the files are in place or gone, and the
        /// process is ending.
        var settled = false
    }
    private let state = Mutex(State())
    private let lastToken = Atomic<Int>(0)

    /// Records a writer's temporary file; returns its token.
    func register(temporary: String, target: String, descriptor: Int32) -> Int {
        let token = lastToken.add(1, ordering: .relaxed).newValue
        state.withLock { $0.entries[token] = Entry(temporary: temporary, target: target, descriptor: descriptor) }
        return token
    }

    /// Marks how many of the file's first bytes are whole (nil: none).
    func setWholeSize(_ token: Int, _ size: Int?) {
        state.withLock { $0.entries[token]?.wholeSize = size }
    }

    /// Runs `body`, in which a writer commits or discards its file itself,
    /// then forgets the file, all under the lock ``settleAll()`` takes: a
    /// signal's settling waits for the body, rather than ending the process
    /// between the file's being forgotten and its being put in place.
    func finish<E: Error>(_ token: Int, _ body: () throws(E) -> Void) throws(E) {
        let settled = try state.withLock { (state: inout State) throws(E) -> Bool in
            if state.settled { return true }
            defer { state.entries.removeValue(forKey: token) }
            try body()
            return false
        }
        while settled { pause() }  // settled by the signal ending the process
    }

    /// Runs `body`, a write to a pending file or a cut of it, under the lock
    /// ``settleAll()`` takes; once the files are settled it never runs it, and
    /// never returns (the signal is ending the process). `.output`'s file is
    /// cut back and renamed into place by a signal while the session goes on
    /// writing into it: a write at the old offset, during or after that, left
    /// the target with millions of NUL bytes and half a result after the whole
    /// ones.
    func writing<E: Error>(_ body: () throws(E) -> Void) throws(E) {
        let settled = try state.withLock { (state: inout State) throws(E) -> Bool in
            if state.settled { return true }
            try body()
            return false
        }
        while settled { pause() }
    }

    /// Puts each file with whole content in place (cut to it, flushed, then
    /// renamed over its target) and removes the others. Called once, as the
    /// process ends by a signal; the lock keeps writers from starting or
    /// finishing meanwhile.
    func settleAll() {
        state.withLock { state in
            for entry in state.entries.values {
                if let size = entry.wholeSize, ftruncate(entry.descriptor, off_t(size)) == 0,
                   fsync(entry.descriptor) == 0, rename(entry.temporary, entry.target) == 0 { continue }
                unlink(entry.temporary)
            }
            state.entries.removeAll()
            state.settled = true
        }
    }
}

/// Whether `number`'s disposition is to ignore it (inherited so from the parent).
private func isIgnored(_ number: Int32) -> Bool {
    var current = sigaction()
    guard sigaction(number, nil, &current) == 0 else { return false }
    // Function pointers aren't Equatable: compared as the addresses they are.
    return unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
}

/// Settles ``PendingFiles`` before a termination signal ends the process.
/// The handler only writes the signal's number to a pipe (what a handler may
/// do); a thread reads it, settles the files, then ends the process by the
/// same signal with its default action, so the exit status still says which.
enum TerminationSignals {
    private static let wakeDescriptor = Atomic<Int32>(-1)
    /// What a long command has done so far, said when a signal ends it (a copy's
    /// finished collections); nil for nothing to say.
    static let progressNote = Mutex<String?>(nil)
    /// Work a command leaves for the end when a signal ends it, after the
    /// message (a copy removing the store file it created, still empty).
    static let beforeEnding = Mutex<(@Sendable () -> Void)?>(nil)

    /// Installs the handlers for SIGTERM, SIGHUP and SIGQUIT, and SIGINT unless
    /// `interruptible` (an interactive session, where ctrl-C stops a command:
    /// ``Interruption/catchSignal()``).
    static func install(interruptible: Bool) {
        if wakeDescriptor.load(ordering: .relaxed) < 0 {
            var ends: [Int32] = [0, 0]
            guard pipe(&ends) == 0 else { return }  // Then signals end the process as before.
            let readEnd = ends[0]
            wakeDescriptor.store(ends[1], ordering: .relaxed)
            Thread.detachNewThread {
                var number: UInt8 = 0
                while true {
                    let count = read(readEnd, &number, 1)
                    if count < 0, errno == EINTR { continue }
                    if count <= 0 { return }
                    PendingFiles.settleAll()
                    let signalNumber = Int32(number)
                    // A script or -c ends here: say why, as an interactive
                    // session's "interrupted" does (its transaction is never committed).
                    let name = [SIGINT: "SIGINT (ctrl-C)", SIGTERM: "SIGTERM", SIGHUP: "SIGHUP", SIGQUIT: "SIGQUIT", SIGPIPE: "SIGPIPE"][signalNumber] ?? "signal \(signalNumber)"
                    // A process ending by a signal must end by that one, also
                    // when stderr is gone (a closed pipe): the write then fails
                    // (SIGPIPE ignored, or it would end the process instead),
                    // and `try?` with `write(contentsOf:)` lets it fail, where
                    // FileHandle's older `write(_:)` traps.
                    signal(SIGPIPE, SIG_IGN)
                    // SIGPIPE (a reader gone, `| head` done) ends quietly, as its
                    // default does; the others say why.
                    if signalNumber != SIGPIPE {
                        let standardError = FileHandle.standardError
                        try? standardError.write(contentsOf: Data("docstore: interrupted by \(name); any write not yet committed was undone\n".utf8))
                        if let note = progressNote.withLock({ $0 }) { try? standardError.write(contentsOf: Data((note + "\n").utf8)) }
                    }
                    beforeEnding.withLock { $0 }?()
                    signal(signalNumber, SIG_DFL)
                    var unblocked = sigset_t()
                    sigemptyset(&unblocked)
                    sigaddset(&unblocked, signalNumber)
                    pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
                    raise(signalNumber)
                }
            }
        }
        // SIGPIPE too, unless ignored (then writes fail with EPIPE, and the
        // session ends by ``OutputClosed``): it left `.partial` files behind.
        for number in [SIGTERM, SIGHUP, SIGQUIT] + (interruptible ? [] : [SIGINT]) + (isIgnored(SIGPIPE) ? [] : [SIGPIPE]) {
            signal(number) { received in
                // Only async-signal-safe work here: a load and a write.
                var byte = UInt8(truncatingIfNeeded: received)
                _ = write(TerminationSignals.wakeDescriptor.load(ordering: .relaxed), &byte, 1)
            }
        }
    }
}
