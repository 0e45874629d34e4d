@_spi(Backends) import DocStore
import Foundation

/// `docstore copy SOURCE DEST`: every collection (documents, key kind,
/// indexes) and every key/value entry of one store into another, between any
/// two of a DocStore file and a PostgreSQL database.
///
/// Each collection is copied in one transaction at the destination: documents
/// stream from the source in pages, go in, and are read back in the same
/// transaction; the count and checksum (``DocumentChecksum``) of what was read
/// must equal those of what was written, or the transaction rolls back. So a
/// failure anywhere (a document the destination refuses, a lost connection, a
/// mismatch, ctrl-C) leaves the collection at the destination as it was. One
/// transaction rather than a temporary table renamed at the end: both
/// databases undo DDL with the transaction (the table, its catalog row and
/// indexes), so there is no rename that could fail halfway and no temporary
/// table for a crash to leave behind; the cost is that the destination's
/// collection is locked for writers while it is copied.
struct StoreCopier {
    let source: any CopyEndpoint
    let destination: any CopyEndpoint
    /// `--replace`: empty non-empty destination collections (and overwrite
    /// differing key/value entries) instead of refusing.
    var replace = false
    /// `--salvage`: the source is a damaged file; copy what it still lets
    /// SQLite read, and report the rest in ``Report/losses``.
    var salvage = false
    /// Where the progress bar goes (a terminal's stderr), or nil.
    var progressOutput: TextOutput?
    /// Where notes go (what couldn't be copied exactly, such as indexes).
    var notes: TextOutput?
    var interruption: Interruption?
    var pageSize = 1000

    /// What a copy did, collection by collection.
    struct Report {
        var lines: [String] = []
        var documents = 0
        /// With `salvage`: what could not be read and was not copied.
        var losses: [String] = []
        /// Tables of documents the source's catalog does not record: not copied.
        var unrecorded: [String] = []
        /// The collections copied and verified, in order.
        var copied: [String] = []
    }

    func copy() throws -> Report {
        try source.readingOneSnapshot { try copyFromSnapshot() }
    }

    private func copyFromSnapshot() throws -> Report {
        let collections = try source.collections()
        try refuseOverwrites(collections)
        let migrations = try migrationsToRecord()
        // Recorded before the documents: they are migrated already, and a
        // destination left half-copied must not look unmigrated to its app,
        // which would run the steps again on them.
        try destination.recordAppliedMigrations(migrations)
        var total = 0
        var counts: [String: Int] = [:]
        for info in collections {
            // A salvage counts what it can: a damaged collection can't be counted.
            let count = salvage ? (try? source.count(info.name, DocumentQuery())) ?? 0 : try source.count(info.name, DocumentQuery())
            counts[info.name] = count
            total += count
        }
        var progress = progressOutput.map { ProgressBar(output: $0, total: UInt64(max(total, 1))) }
        defer { progress?.finish() }
        var report = Report()
        report.unrecorded = (try? source.unrecordedTables()) ?? []
        for info in collections {
            let checksum: DocumentChecksum
            do {
                checksum = try copyCollection(info, done: report.documents, progress: &progress, losses: &report.losses)
            } catch DocStoreError.missingTable where salvage {
                // One collection whose table is gone stops nothing else from being saved.
                report.losses.append("collection \(DocumentKey.commandArgument(info.name)): its table is missing from the source; nothing of it was copied")
                continue
            }
            report.documents += checksum.count
            report.lines.append("\(info.name): \(checksum)")
            report.copied.append(info.name)
            let note = "docstore copy: copied and verified before that, and kept at the destination: \(report.copied.joined(separator: ", ")); a collection still being copied was left at the destination as it was (copy the rest with --replace, or drop these there first)"
            TerminationSignals.progressNote.withLock { $0 = note }
        }
        let entries: Int
        do {
            entries = try copyValues()
        } catch DocStoreError.corruptStore(_, let findings) where salvage {
            entries = 0
            report.losses.append("key/value area: unreadable (\(findings.joined(separator: "; "))); none of its entries was copied")
        }
        if entries > 0 { report.lines.append("key/value area: \(entries == 1 ? "1 entry" : "\(entries) entries")") }
        if !migrations.isEmpty { report.lines.append("migrations: \(migrations.map(\.name).joined(separator: ", "))") }
        return report
    }

    /// The source's migration history, when the destination has none; nothing
    /// when both have the same. Refuses, before anything is written, histories
    /// that differ: the copy's documents would be migrated by one and recorded
    /// by the other, and an app would run steps again on them (or skip some).
    private func migrationsToRecord() throws -> [AppliedMigration] {
        let from = try source.appliedMigrations(), to = try destination.appliedMigrations()
        if to.map(\.name) == from.map(\.name) { return [] }
        guard to.isEmpty else {
            let list = { (steps: [AppliedMigration]) in steps.isEmpty ? "none" : steps.map(\.name).joined(separator: ", ") }
            throw CommandError("the destination has run migrations \(list(to)) and the source \(list(from)): a copy would mix two histories; nothing was copied (copy into a new store)")
        }
        return from
    }

    /// Refuses, before anything is written, when a destination collection
    /// holds documents (unless `--replace`) or has keys of another kind.
    private func refuseOverwrites(_ collections: [CollectionInfo]) throws {
        for info in collections {
            do {
                try destination.checkCollectionName(info.name)
            } catch {
                throw CommandError("collection \(DocumentKey.commandArgument(info.name)) can't be made at the destination (\(error.localizedDescription)); nothing was copied")
            }
        }
        let existing = Dictionary(try destination.collections().map { ($0.name, $0.keyKind) }) { first, _ in first }
        for info in collections {
            guard let kind = existing[info.name] else { continue }
            if kind != info.keyKind {
                throw CommandError("collection \(info.name) has \(info.keyKind) keys in the source and \(kind) keys at the destination: drop it at the destination first (.drop \(DocumentKey.commandArgument(info.name)))")
            }
            let count = try destination.count(info.name, DocumentQuery())
            if count > 0, !replace {
                throw CommandError("collection \(info.name) at the destination already holds \(CommandResult.plural(count, "document")); nothing was copied (--replace empties it and copies the source's)")
            }
        }
    }

    /// Copies one collection in one destination transaction; returns what was verified.
    private func copyCollection(_ info: CollectionInfo, done: Int, progress: inout ProgressBar?,
                                losses: inout [String]) throws -> DocumentChecksum {
        let indexes = try source.indexes(info.name)
        let searchIndexes = try source.searchIndexes(info.name)
        let fieldColumns = try source.fieldColumns(info.name)
        var written = DocumentChecksum()
        var skippedIndexes: [IndexInfo] = []
        var skippedColumns = false
        try destination.writeCollection(info.name) { writer in
            _ = try writer.create(keyKind: info.keyKind)
            if replace { _ = try writer.deleteAll() }
            let insertPage = { (page: [KeyedDocument]) throws in
                try interruption?.check("interrupted: \(info.name) was not copied (the destination is as it was); collections before it were")
                for document in page { written.add(document) }
                try writer.insert(page)
                progress?.update(done: UInt64(done + written.count), documents: done + written.count)
            }
            if salvage, let damaged = source as? SQLiteBackend {
                let result = try damaged.forEachSalvagedPage(info.name, size: pageSize, insertPage)
                losses += result.gaps.map { "\(info.name): \($0)" }
                losses += result.damaged.map { "\(info.name): \($0) (a damaged document; .repair quarantines such documents in place)" }
            } else {
                try source.forEachPage(info.name, size: pageSize, insertPage)
            }
            for index in indexes {
                if try !writer.createIndex(index) { skippedIndexes.append(index) }
            }
            for index in searchIndexes { try writer.createSearchIndex(on: index.fields) }
            if let fieldColumns { skippedColumns = try !writer.createFieldColumns(on: fieldColumns.fields) }
            var read = DocumentChecksum()
            try writer.forEachPage(size: pageSize) { page in
                for document in page { read.add(document) }
            }
            guard read == written else {
                throw CommandError("collection \(info.name) did not copy exactly: the source gave \(written), the destination holds \(read); nothing of it was kept")
            }
        }
        if !skippedIndexes.isEmpty {
            let names = skippedIndexes.map { $0.fields.map(\.description).joined(separator: "+") + ($0.isUnique ? " (unique)" : "") }
            notes?.write("note: \(info.name)'s indexes (\(names.joined(separator: ", "))) were not created: \(destination.kind.name) has no indexes yet\n")
        }
        if skippedColumns, let fieldColumns {
            let fields = fieldColumns.fields.map(\.description).joined(separator: ", ")
            notes?.write("note: \(info.name)'s field columns (\(fields)) were not made: \(destination.kind.name) reads fields without them\n")
        }
        return written
    }

    /// Copies the key/value area, all or none; returns how many entries.
    private func copyValues() throws -> Int {
        let entries = try source.keyValueEntries()
        guard !entries.isEmpty else { return 0 }
        if !replace {
            let existing = Dictionary(try destination.keyValueEntries().map { ($0.key, $0.value) }) { first, _ in first }
            if let clash = entries.first(where: { entry in existing[entry.key].map { $0 != entry.value } ?? false }) {
                throw CommandError("the key/value entry \(DocumentKeyQuoting.quoted(clash.key)) differs at the destination; the collections were copied, the key/value area was not (--replace overwrites it)")
            }
        }
        try destination.setKeyValueEntries(entries)
        return entries.count
    }
}
