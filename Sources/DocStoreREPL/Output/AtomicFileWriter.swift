import Foundation

/// Writes one file so that it is either wholly the new content or left as it
/// was: the way every REPL command that writes a file (`.export`…) writes it.
///
/// The content goes to a uniquely named temporary file in the same folder,
/// which is flushed and `fsync`ed and then renamed over the target
/// (`rename(2)` replaces a file atomically on one file system). An existing
/// file keeps its permissions. On any failure, and when the body throws (ctrl-C
/// included), the temporary file is removed and the target is untouched.
///
/// It refuses a directory (or a symbolic link to one) and a path whose folder
/// is missing: it only ever creates or replaces the one file it names.
///
///     try AtomicFileWriter.write(toPath: "backup.ndjson") { file in
///         try file.write(Array("{}\n".utf8))
///     }
struct AtomicFileWriter: ~Copyable {
    /// The file written (a symbolic link's target, when the path is a link to a file).
    let path: String
    private let temporaryPath: String
    private let descriptor: Int32
    /// Its entry in ``PendingFiles``, which a termination signal settles.
    private let pendingToken: Int

    /// Writes the file with what `body` writes, or leaves it as it was if
    /// `body` or the writing throws.
    static func write<R>(toPath path: String, _ body: (inout AtomicFileWriter) throws -> R) throws -> R {
        var writer = try AtomicFileWriter(path: path)
        let result: R
        do {
            result = try body(&writer)
        } catch {
            writer.discard()
            throw error
        }
        try writer.commit()
        return result
    }

    /// Opens the temporary file for `path`, for a writer that lives longer than
    /// one call (`.output FILE`); ``commit()`` puts it in place, ``discard()``
    /// (or dropping it uncommitted) removes it.
    static func start(toPath path: String) throws -> AtomicFileWriter {
        try AtomicFileWriter(path: path)
    }

    private init(path requested: String) throws {
        let target = try Self.checkedTarget(requested)
        let folder = (target.path as NSString).deletingLastPathComponent
        let name = (target.path as NSString).lastPathComponent
        // Hidden, named after the target and the writing process, unique:
        // never mistaken for the export itself, never colliding with another
        // writer's, and recognised as stale once its process is gone.
        let directory = folder.isEmpty ? "." : folder
        Self.removeStaleTemporaries(of: name, in: directory)
        let temporary = directory + "/.\(name).\(getpid()).\(UUID().uuidString.prefix(8)).partial"
        // O_EXCL: never open a file someone else made; 0666 as any new file
        // (the umask applies), unless the old file's mode is restored below.
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else {
            throw CommandError("cannot write \(requested): \(Self.reason(errno)) (creating a temporary file in \(folder.isEmpty ? "the current folder" : folder)); nothing was written")
        }
        // The replacement keeps the old file's group (and, for root, its owner)
        // where the system allows; failing that, it is the writer's, as for a new file.
        if let existing = target.existing { _ = fchown(descriptor, existing.st_uid, existing.st_gid) }
        if let mode = target.existing.map({ $0.st_mode & 0o7777 }), fchmod(descriptor, mode) != 0 {
            let failure = errno
            close(descriptor)
            unlink(temporary)
            throw CommandError("cannot write \(requested): \(Self.reason(failure)) (keeping its permissions); it was not changed")
        }
        self.path = target.path
        self.temporaryPath = temporary
        self.descriptor = descriptor
        self.pendingToken = PendingFiles.register(temporary: temporary, target: target.path, descriptor: descriptor)
    }

    /// Removes the temporary files of `name` that a writer killed before it
    /// could clean up (SIGKILL, a power cut) left in `folder`: hidden, often
    /// large, and never reused. Only those whose process is gone: another
    /// live writer's file is its own.
    private static func removeStaleTemporaries(of name: String, in folder: String) {
        let prefix = ".\(name)."
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for entry in entries where entry.hasPrefix(prefix) && entry.hasSuffix(".partial") {
            let parts = entry.dropFirst(prefix.count).dropLast(".partial".count).split(separator: ".")
            guard parts.count == 2, let pid = pid_t(parts[0]), pid > 0, kill(pid, 0) != 0, errno == ESRCH else { continue }
            unlink(folder + "/" + entry)
        }
    }

    /// How many of the first bytes written are whole (nil: none), which a
    /// termination signal puts in place rather than removing the file (see
    /// ``PendingFiles``).
    func markWhole(upTo size: Int?) {
        PendingFiles.setWholeSize(pendingToken, size)
    }

    /// Appends bytes to the temporary file.
    mutating func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write(raw: $0) }
    }

    /// Appends bytes to the temporary file (never once a termination signal
    /// has settled it: see ``PendingFiles/writing(_:)``).
    func write(raw: UnsafeRawBufferPointer) throws {
        guard let base = raw.baseAddress else { return }
        try PendingFiles.writing { () throws(CommandError) in
            var offset = 0
            while offset < raw.count {
                let written = writeDescriptor(descriptor, base + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw failure(errno, while: "writing")
                }
                offset += written
            }
        }
    }

    /// Cuts the temporary file back to its first `size` bytes: a command that
    /// failed while writing into `.output`'s file takes back what it wrote.
    func truncate(toSize size: Int) throws {
        try PendingFiles.writing { () throws(CommandError) in
            guard ftruncate(descriptor, off_t(size)) == 0, lseek(descriptor, off_t(size), SEEK_SET) >= 0 else {
                throw failure(errno, while: "truncating")
            }
        }
    }

    /// Makes the new content durable, then puts it in place of the target.
    ///
    /// It runs as ``PendingFiles`` finishing the file: a termination signal
    /// arriving meanwhile (a terminal closed as `.output` is put in place at
    /// the end of the session) waits for the rename, where it used to find the
    /// file forgotten and end the process before the rename, leaving the
    /// results in the hidden temporary file and the target as it was.
    consuming func commit() throws {
        let descriptor = descriptor, temporaryPath = temporaryPath, path = path
        try PendingFiles.finish(pendingToken) {
            if fsync(descriptor) != 0 {
                let failure = Self.failure(errno, while: "flushing", path: path)
                close(descriptor)
                unlink(temporaryPath)
                throw failure
            }
            if close(descriptor) != 0 {
                let failure = Self.failure(errno, while: "closing", path: path)
                unlink(temporaryPath)
                throw failure
            }
            if rename(temporaryPath, path) != 0 {
                let failure = Self.failure(errno, while: "renaming the temporary file over", path: path)
                unlink(temporaryPath)
                throw failure
            }
        }
        // The rename itself is durable once the folder is synced.
        let folder = open((path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent, O_RDONLY | O_CLOEXEC)
        if folder >= 0 {
            fsync(folder)
            close(folder)
        }
    }

    /// Removes the temporary file; the target stays as it was.
    consuming func discard() {
        let descriptor = descriptor, temporaryPath = temporaryPath
        PendingFiles.finish(pendingToken) {
            close(descriptor)
            unlink(temporaryPath)
        }
    }

    private func failure(_ code: Int32, while doing: String) -> CommandError {
        Self.failure(code, while: doing, path: path)
    }

    private static func failure(_ code: Int32, while doing: String, path: String) -> CommandError {
        let unchanged = FileManager.default.fileExists(atPath: path) ? "it was not changed" : "it was not created"
        if code == ENOSPC || code == EDQUOT {
            return CommandError("disk full while writing \(path); \(unchanged): free some space and try again")
        }
        return CommandError("cannot write \(path): \(Self.reason(code)) (\(doing) it); \(unchanged)")
    }

    private static func reason(_ code: Int32) -> String {
        String(cString: strerror(code)).lowercased()
    }

    /// Refuses `path` now if it could never be written (a directory, a missing
    /// folder, a read-only file…), as opening it would: `.once` names its file
    /// before the command whose results go there, and its error belongs to it.
    static func checkWritable(_ path: String) throws {
        _ = try checkedTarget(path)
    }

    /// The file to write for `path`, and its mode if it exists: refuses
    /// directories (and links to them), other special files, and missing folders.
    private static func checkedTarget(_ path: String) throws -> (path: String, existing: stat?) {
        guard !path.isEmpty else { throw CommandError("no file name given to write to") }
        var status = stat()
        if lstat(path, &status) == 0 {
            var target = path
            if status.st_mode & S_IFMT == S_IFLNK {
                // Writing through a link replaces the file it points to, as `>` in a shell does.
                guard stat(path, &status) == 0 else {
                    throw CommandError("cannot write \(path): it is a symbolic link to nothing (\(reason(errno)))")
                }
                // /dev/stdout on a pipe leads to /proc/self/fd/1, a link to
                // "pipe:[…]", which stat follows and no path names: the pipe
                // is refused below as what it is, not as a link to nothing.
                if let resolved = realpath(path, nil) {
                    target = String(cString: resolved)
                    free(resolved)
                } else if status.st_mode & S_IFMT == S_IFREG {
                    throw CommandError("cannot write \(path): it is a symbolic link to nothing (\(reason(errno)))")
                }
            }
            switch status.st_mode & S_IFMT {
            case S_IFREG:
                try refuseDatabaseFile(target, requested: path)
                try refuseStandardStream(status, requested: path)
                // Replacing goes around the file's permissions (the folder's
                // decide a rename): a file made read-only stays as it is, for
                // root too (which access(2) lets write anything).
                guard status.st_mode & 0o222 != 0 else {
                    throw CommandError("cannot write \(path): it is read-only (mode \(String(status.st_mode & 0o777, radix: 8))); it was not changed: make it writable first (chmod u+w) or name another file")
                }
                guard access(target, W_OK) == 0 else {
                    throw CommandError("cannot write \(path): \(reason(errno)) (the file is not writable for you); it was not changed")
                }
                return (target, status)
            case S_IFDIR:
                let kind = target == path ? "a directory" : "a symbolic link to a directory"
                throw CommandError("cannot write \(path): it is \(kind), which is left as it is; name a file (such as \((path as NSString).appendingPathComponent("export.ndjson")))")
            default:
                try refuseStandardStream(status, requested: path, kind: "not a regular file but")
                throw CommandError("cannot write \(path): it is not a regular file (a device, a pipe or a socket), which is left as it is")
            }
        }
        guard errno == ENOENT else {
            throw CommandError("cannot write \(path): \(reason(errno))")
        }
        try refuseDatabaseFile(path, requested: path)
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) else {
                throw CommandError("cannot write \(path): the folder \(folder) does not exist (create it first)")
            }
            guard isDirectory.boolValue else {
                throw CommandError("cannot write \(path): \(folder) is not a folder")
            }
        }
        return (path, nil)
    }
}

extension AtomicFileWriter {
    /// The companion files SQLite keeps beside a database.
    private static let companionSuffixes = ["-wal", "-shm", "-journal"]

    /// Refuses to replace a SQLite database (a DocStore store: the open one, or
    /// any other) or one of its companion files: every REPL output is text, and
    /// `.once s.sqlite` once replaced the open store with a query's answer.
    static func refuseDatabaseFile(_ path: String, requested: String) throws {
        if let kind = sqliteFileKind(path) {
            throw CommandError("cannot write \(requested): it is \(kind), which an export would destroy; name another file")
        }
        if let database = companionDatabase(of: path) {
            throw CommandError("cannot write \(requested): it is where SQLite keeps part of the database \(database); name another file")
        }
    }

    /// The SQLite database whose companion file (`-wal`, `-shm`, `-journal`)
    /// `path` names, if there is one: SQLite takes such a file for its own
    /// when it opens the database, and deletes or rewrites it.
    static func companionDatabase(of path: String) -> String? {
        for suffix in companionSuffixes where path.hasSuffix(suffix) {
            let database = String(path.dropLast(suffix.count))
            if sqliteFileKind(database) == "a SQLite database" { return database }
        }
        return nil
    }

    /// Refuses the file the REPL's standard input, output or error is (`/dev/stdout`,
    /// `/proc/self/fd/1`, or the log a shell redirected output into): replacing it
    /// would cut what the shell already wrote there, and what it writes after.
    static func refuseStandardStream(_ status: stat, requested: String, kind: String = "") throws {
        let streams: [(Int32, String)] = [(STDIN_FILENO, "input"), (STDOUT_FILENO, "output"), (STDERR_FILENO, "error")]
        for (descriptor, name) in streams {
            var stream = stat()
            guard fstat(descriptor, &stream) == 0, stream.st_dev == status.st_dev, stream.st_ino == status.st_ino else { continue }
            let advice = descriptor == STDIN_FILENO ? "name another file"
                : "results already go to standard output without .output or .once (messages to standard error); or name another file"
            if !kind.isEmpty {
                throw CommandError("cannot write \(requested): it is \(kind) what this REPL's standard \(name) is connected to (a pipe or a terminal); \(advice)")
            }
            throw CommandError("cannot write \(requested): it is the file this REPL's standard \(name) is connected to, which replacing would cut short; \(advice)")
        }
    }

    /// "a SQLite database" or "a SQLite write-ahead log" for a file that starts
    /// like one; nil otherwise (or when it can't be read).
    private static func sqliteFileKind(_ path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let header = try? handle.read(upToCount: 16) else { return nil }
        if header.elementsEqual(Array("SQLite format 3\u{0}".utf8)) { return "a SQLite database" }
        // A WAL file's magic number, big-endian, in its first four bytes.
        if header.count >= 4, header[header.startIndex] == 0x37, header[header.startIndex + 1] == 0x7F,
           header[header.startIndex + 2] == 0x06, header[header.startIndex + 3] & 0xFE == 0x82 {
            return "a SQLite write-ahead log"
        }
        return nil
    }
}

/// `write(2)`, under a name the writer's own `write` doesn't hide.
private func writeDescriptor(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
