@_spi(Backends) import DocStore
import Foundation

/// `docstore copy SOURCE DEST` as the executable runs it: opens both stores,
/// copies, prints what was copied (stdout) and what went wrong (stderr).
public enum CopyLauncher {
    /// Copies `source` into `destination` (each a store file or a
    /// `postgres://` URL); returns the exit code. With `salvage`, `source` is a
    /// damaged file: what can still be read is copied, and what can't is listed
    /// on stderr. The exit code is 0 only when everything was copied: a table
    /// of documents the source's catalog doesn't record, or documents a
    /// salvage could not read, are named on stderr and the copy exits 1, so a
    /// script that checks the status doesn't take the copy for the whole store
    /// (a salvage that lost documents exited 0). So does a report that could
    /// not be written to the standard output.
    public static func run(source: String, destination: String, replace: Bool, salvage: Bool = false) -> Int32 {
        Interruption.unblockTerminationSignals()
        // A signal ends the copy saying so, and which collections it finished.
        TerminationSignals.install(interruptible: false)
        let (output, errors) = FileDescriptorOutput.standardStreams()
        var opened: [any CopyEndpoint] = []
        defer { for endpoint in opened { (endpoint as? PostgresBackend)?.close() } }
        // A store file this copy creates is removed when the copy fails and
        // left it holding no document: an empty store (and on a full disk its
        // log, keeping the disk full) was left behind. Not one holding
        // documents (a collection copied before the failure, or another
        // process's writes into the new store meanwhile), and never a link.
        var status = stat()
        let createsFile = !PostgresBackend.isURL(destination) && lstat(destination, &status) != 0 && errno == ENOENT
        if createsFile {
            // When a signal (ctrl-C) ends the copy, its own connection is still
            // open, and SQLite can't tell another process's from it: the file
            // is named, not removed (removing it lost a write another process
            // was waiting to commit into it; helper-50).
            TerminationSignals.beforeEnding.withLock {
                $0 = { noteIfEmpty(destination, errors: FileDescriptorOutput(fileDescriptor: STDERR_FILENO)) }
            }
        }
        do {
            guard source != destination else { throw CommandError("the source and the destination are the same store") }
            if salvage, PostgresBackend.isURL(source) {
                throw CommandError("--salvage reads a damaged store file; \(redacted(source)) is a PostgreSQL database (use pg_dump and its server's tools)")
            }
            let from = try open(source, isSource: true)
            opened.append(from)
            let to = try open(destination, isSource: false)
            opened.append(to)
            // The same store under two spellings: a replacing copy would empty
            // the collections it is reading.
            guard try from.storeIdentity() != to.storeIdentity() else {
                throw CommandError("\(redacted(source)) and \(redacted(destination)) are the same store; nothing was copied")
            }
            var copier = StoreCopier(source: from, destination: to, replace: replace, salvage: salvage)
            copier.progressOutput = errors.isTerminal ? errors : nil
            copier.notes = errors
            let report = try copier.copy()
            output.write(report.lines.map { $0 + "\n" }.joined())
            output.write("copied \(CommandResult.plural(report.documents, "document")) from \(redacted(source)) to \(redacted(destination)), each collection verified\n")
            if !report.unrecorded.isEmpty {
                errors.write("docstore copy: NOT copied: \(report.unrecorded.joined(separator: ", ")), "
                             + "table\(report.unrecorded.count == 1 ? "" : "s") of documents the source's catalog does not record (hidden from DocStore; .check on the source says how to restore \(report.unrecorded.count == 1 ? "it" : "them"))\n")
            }
            if salvage {
                errors.write(report.losses.isEmpty ? "salvage: everything was read; nothing was lost\n"
                                                   : "salvage: NOT copied, because the source could not give it (damaged pages, a lost table):\n" + report.losses.map { "  \($0)\n" }.joined())
            }
            let complete = report.unrecorded.isEmpty && report.losses.isEmpty
            if let failure = output.writeFailure { errors.write("docstore copy: \(failure)\n") }
            return complete && output.writeFailure == nil ? 0 : 1
        } catch {
            errors.write("docstore copy: \(error)\n")
            // What is at the destination now: the collections committed before
            // the failure stay (each in its own transaction). The error alone
            // said "nothing … was committed", and a second run was refused for
            // the collections already there (helper-57).
            if let note = TerminationSignals.progressNote.withLock({ $0 }) { errors.write(note + "\n") }
            if createsFile { removeIfEmpty(destination, opened: opened, errors: errors) }
            return 1
        }
    }

    /// Removes the store file the copy created (its log too) when it holds no
    /// document and no other process has it open, saying so.
    private static func removeIfEmpty(_ destination: String, opened: [any CopyEndpoint], errors: FileDescriptorOutput) {
        var status = stat()
        guard lstat(destination, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return }
        if status.st_size == 0 {
            unlink(destination)
            return errors.write("docstore copy: removed \(destination), which this copy had created\n")
        }
        if opened.count == 2, let store = (opened[1] as? SQLiteBackend)?.store { try? store.close() }
        switch DocumentStore.removeEmptyStoreFile(atPath: destination) {
        case .removed: errors.write("docstore copy: removed \(destination), which this copy had created\n")
        case .inUse: errors.write("docstore copy: kept \(destination), which this copy had created: another process has it open\n")
        case .holdsData, .unreadable: break
        }
    }

    /// Says that the store file the copy created holds no document, when a
    /// signal ends it (read with a connection of its own: the copy's
    /// transaction is never committed).
    private static func noteIfEmpty(_ destination: String, errors: FileDescriptorOutput) {
        guard let store = try? DocumentStore(path: destination, readOnly: true) else { return }
        defer { try? store.close() }
        guard let collections = try? store.collections(),
              collections.allSatisfy({ (try? store.collection(named: $0.name).count()) == 0 }) else { return }
        errors.write("docstore copy: \(destination), which this copy created, holds no document; remove it (and its -wal and -shm files) once no other process uses it\n")
    }

    /// A store to copy from (which must exist; opened read-only) or into.
    static func open(_ location: String, isSource: Bool) throws -> any CopyEndpoint {
        if PostgresBackend.isURL(location) { return try PostgresBackend.connect(url: location, readOnly: isSource) }
        if isSource, !FileManager.default.fileExists(atPath: location) {
            throw CommandError("cannot copy from \(location): no such file")
        }
        if !isSource, let database = AtomicFileWriter.companionDatabase(of: location) {
            // The copy would become the database's log, which its next open deletes.
            throw CommandError("cannot copy into \(location): it is where SQLite keeps part of the database \(database) (its next open would take the copy for its own and delete it); name another file")
        }
        return SQLiteBackend(store: try DocumentStore(path: location, readOnly: isSource))
    }

    private static func redacted(_ location: String) -> String {
        PostgresBackend.isURL(location) ? PostgresBackend.redacted(location) : location
    }
}
