import Foundation

/// What opening a file store does when its write-ahead log (the `-wal` file
/// beside it) is damaged before commits that are intact, which SQLite would
/// drop without a word (see ``DocStoreError/damagedLog(path:offset:frame:droppedCommits:)``).
public enum DamagedLogHandling: Sendable {
    /// Open nothing and change nothing: throw ``DocStoreError/damagedLog(path:offset:frame:droppedCommits:)``.
    case refuse
    /// Copy the whole log to `PATH-wal.damaged` (or `.damaged-2`, … when that
    /// exists), then open the store as of its last good commit. The commits
    /// after the damage are in the copy, not in the store. A read-only store
    /// is opened without a copy: a reader never overwrites the log.
    case setAsideAndOpen
}

/// A damaged write-ahead log that opening set aside
/// (``DamagedLogHandling/setAsideAndOpen``): where the damage was, what the
/// store no longer holds, and where the copy that still holds it is.
public struct SetAsideLog: Sendable, Hashable {
    /// The log's byte offset of the first damaged frame, or 0 when its header
    /// was damaged.
    public let offset: Int
    /// The first damaged frame's number, from 1; nil when the log's header was
    /// damaged, which makes SQLite read none of its frames.
    public let frame: Int?
    /// Commits after the damage that the store was opened without.
    public let droppedCommits: Int
    /// The copy of the whole log (`STORE-wal.damaged`, or `.damaged-2`, …);
    /// nil when the store was opened read-only, which leaves the log itself
    /// in place and makes no copy.
    public let copyPath: String?
}

extension StoreFile {
    /// Checks the store's write-ahead log before SQLite reads it, and refuses or
    /// sets the log aside as `handling` says (see ``WriteAheadLogCheck``).
    /// `databasePageSize` is the store file's (its header's bytes 16–17).
    /// Returns what was set aside, or nil when the log is sound (or absent).
    static func checkLog(path: String, readOnly: Bool, handling: DamagedLogHandling,
                         databasePageSize pageSize: Int?) throws -> SetAsideLog? {
        let logPath = path + "-wal"
        func read() throws -> WriteAheadLogCheck.Damage? {
            do {
                return try WriteAheadLogCheck.damage(inLogAt: logPath, databasePageSize: pageSize)
            } catch {
                throw DocStoreError.ioError(path: path, reason: "reading its write-ahead log \(logPath) failed: \(error.localizedDescription)")
            }
        }
        guard let damage = try read() else { return nil }
        // Read without a lock, a log another process is writing (or starting
        // over) can look damaged: only the same damage three times counts
        // (healthy stores were refused in 9% of opens under a restarting
        // writer, helper-44). A log in flux has a live writer, whose opening
        // already replayed it.
        for _ in 0..<2 {
            usleep(50_000)
            guard try read() == damage else { return nil }
        }
        switch handling {
        case .refuse:
            throw DocStoreError.damagedLog(path: path, offset: damage.offset, frame: damage.frame,
                                           droppedCommits: damage.droppedCommits)
        case .setAsideAndOpen:
            return SetAsideLog(offset: damage.offset, frame: damage.frame, droppedCommits: damage.droppedCommits,
                               copyPath: readOnly ? nil : try setAside(logPath))
        }
    }

    /// Copies the log to the first free `-wal.damaged` name: written under a
    /// temporary name, flushed, then linked to its name (which never replaces a
    /// file), so a copy is whole or absent. Returns the copy's path.
    private static func setAside(_ logPath: String) throws -> String {
        let temporary = logPath + ".damaged.partial-\(getpid())"
        let fail = { (what: String) in
            DocStoreError.ioError(path: logPath, reason: "setting the damaged write-ahead log aside failed while \(what): \(String(cString: strerror(errno))); nothing was opened")
        }
        unlink(temporary)
        defer { unlink(temporary) }
        guard let source = FileHandle(forReadingAtPath: logPath) else { throw fail("reading it") }
        defer { try? source.close() }
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard descriptor >= 0 else { throw fail("creating \(temporary)") }
        let destination = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        do {
            while let chunk = try source.read(upToCount: 1 << 20), !chunk.isEmpty {
                try destination.write(contentsOf: chunk)
            }
            try destination.synchronize()
            try destination.close()
        } catch {
            throw DocStoreError.ioError(path: logPath, reason: "setting the damaged write-ahead log aside failed while copying it to \(temporary): \(error.localizedDescription); nothing was opened")
        }
        for attempt in 1...1000 {
            let name = attempt == 1 ? logPath + ".damaged" : logPath + ".damaged-\(attempt)"
            if link(temporary, name) == 0 { return name }
            guard errno == EEXIST else { throw fail("naming the copy \(name)") }
        }
        throw DocStoreError.ioError(path: logPath, reason: "1 000 copies of a damaged write-ahead log are already beside it; move them away, then open the store again")
    }
}
