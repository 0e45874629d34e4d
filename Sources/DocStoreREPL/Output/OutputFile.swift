/// A file results are written to (`.output FILE`, `.once FILE`, `.export FILE
/// QUERY`), through an ``AtomicFileWriter``: FILE is replaced whole when the
/// file is closed, and left as it was if it never is (an error, ctrl-C). A
/// termination signal puts `.output`'s file in place with the results of the
/// commands that finished (``markWhole(upTo:)``, ``PendingFiles``).
final class OutputFile: ByteSink {
    let path: String
    private var writer: AtomicFileWriter?
    /// How many bytes were written so far.
    private(set) var size = 0
    /// Why writing failed (a full disk…), after which the temporary file is
    /// gone and FILE is left as it was: results written before went with it,
    /// and putting the rest in place would replace FILE with part of them.
    private(set) var writeFailure: String?

    /// Opens FILE's temporary file; throws for a directory, a missing folder, a
    /// file that can't be created.
    init(path: String) throws {
        self.path = path
        writer = try AtomicFileWriter.start(toPath: path)
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        if let writeFailure {
            throw CommandError("results can't go to \(path): writing it failed (\(writeFailure)), and it was left as it was; "
                + "name a file with .output FILE, or .output alone for the standard output")
        }
        guard writer != nil else { throw CommandError("\(path) is closed") }
        do {
            try writer?.write(raw: bytes)
        } catch {
            writeFailure = "\(error)"
            discard()
            throw error
        }
        size += bytes.count
    }

    /// How many of the first bytes written are whole: the results of the
    /// commands that finished (nil: none, as for `.once`).
    func markWhole(upTo size: Int?) {
        writer?.markWhole(upTo: size)
    }

    /// Takes back everything written after the first `size` bytes.
    func rollBack(toSize size: Int) throws {
        guard size < self.size else { return }
        try writer?.truncate(toSize: size)
        self.size = size
    }

    /// Puts the file in place of FILE.
    func commit() throws {
        guard let writer = writer.take() else { return }
        try writer.commit()
    }

    /// Removes the temporary file; FILE stays as it was.
    func discard() {
        writer.take()?.discard()
    }

    deinit {
        writer.take()?.discard()
    }
}
