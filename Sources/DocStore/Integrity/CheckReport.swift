/// A document DocStore can't read as stored, and why.
public struct DamagedDocument: Sendable, Hashable, CustomStringConvertible {
    /// The document's key as stored (a key of the wrong kind shows as it is).
    public var key: DocumentKey
    /// Why it can't be read: not valid JSON (with line and column), nested too
    /// deeply, a key of another kind than the collection's, or an `"id"` that
    /// isn't its key (a read by key would give a document naming another, and
    /// saving that back would write over the other).
    public var reason: String

    public var description: String { "document \(key): \(reason)" }
}

/// What ``DocumentStore/check(collection:)`` found in one collection, and what
/// ``DocumentStore/repair(collection:)`` would do about it.
public struct CollectionCheck: Sendable, Hashable, CustomStringConvertible {
    /// The collection checked.
    public var collection: String
    /// How many documents were checked (all of them).
    public var documentCount: Int
    /// Documents that can't be read: `repair` moves them, text unchanged, into
    /// ``quarantineCollection``.
    public var damaged: [DamagedDocument]
    /// Damaged documents beyond those ``damaged`` lists: a PostgreSQL store's
    /// check lists the first 100 and counts the rest. `repair` moves them all.
    public var damagedNotListed = 0
    /// How many documents are damaged, listed or not.
    public var damagedCount: Int { damaged.count + damagedNotListed }
    /// Documents with two members of the same name in one object (written by
    /// another tool). They stay readable (the first member counts, in queries
    /// and in decoding alike) and `repair` leaves them in place.
    public var duplicateMembers: [DocumentKey]
    /// Where `repair` moves damaged documents: `<collection>_damaged`.
    public var quarantineCollection: String
    /// SQLite's integrity check of this collection's table and indexes, when
    /// the file is damaged (empty when they are sound, or the file is). `repair`
    /// can't fix these: `docstore copy --salvage` copies what can still be read.
    public var pageDamage: [String] = []
    /// Why reading the documents stopped before the last one (a damaged page),
    /// or nil when every document was read. ``documentCount`` counts those read.
    public var readFailure: String?

    /// What is wrong with the collection's field columns (see
    /// ``DocumentCollection/createFieldColumns(on:)``), or nil: `repair` makes
    /// them again from the documents.
    public var fieldColumnsProblem: String?

    /// What is wrong with the collection's full-text search indexes (they don't
    /// hold what its documents say), or nil: `repair` makes them again from the
    /// documents. Not checked on a store opened read-only (FTS5 compares an
    /// index with its documents only on a connection that may write).
    public var searchIndexProblem: String?

    /// Search-index or field-column objects on the collection whose catalog
    /// row another tool deleted (their triggers still run on its writes), or
    /// nil: `repair` drops them. Set by ``DocumentStore/check(collection:)``;
    /// the whole store's check lists them with the catalog's problems.
    public var orphanProblem: String?

    /// The collection's indexes that don't match the catalog: recorded but
    /// missing (a unique one then refuses nothing), unique on one side only, or
    /// DocStore's own that the catalog lost. Dropping and creating the index
    /// again mends each. Set by ``DocumentStore/check(collection:)``; the
    /// whole store's check lists them with the catalog's problems.
    public var indexProblems: [String] = []

    /// Documents with a member name written with escapes it doesn't need
    /// (`{"caf\u00e9": 5}`, as Python's `json.dumps` writes non-ASCII), by
    /// another tool: SQLite's JSON paths compare names as written, so queries,
    /// indexes and field changes miss that member while reads show it. Saving
    /// such a document again (from a read of it) writes its names plainly.
    public var escapedNames: [DocumentKey] = []

    /// Why the collection's table can't be checked (another program's table in
    /// its place), or nil. Set by ``DocumentStore/check(collection:)``; the whole
    /// store's check lists it with the catalog's problems.
    public var tableProblem: String?

    /// Whether nothing is wrong with the collection's documents, its field
    /// columns, its search indexes or its pages.
    public var isHealthy: Bool {
        damaged.isEmpty && duplicateMembers.isEmpty && escapedNames.isEmpty && !hasDamagedPages && fieldColumnsProblem == nil && searchIndexProblem == nil
            && orphanProblem == nil && tableProblem == nil && indexProblems.isEmpty
    }

    /// Whether ``DocumentStore/repair(collection:)`` has something to do.
    /// Why ``quarantineCollection`` can't take the damaged documents (it holds
    /// other than integer keys), or nil: `repair` refuses until it is renamed
    /// or dropped.
    public var quarantineProblem: String?

    public var needsRepair: Bool { !damaged.isEmpty || fieldColumnsProblem != nil || searchIndexProblem != nil || orphanProblem != nil }

    /// Whether the collection's table or indexes sit on damaged pages of the file.
    public var hasDamagedPages: Bool { !pageDamage.isEmpty || readFailure != nil }

    /// What `repair` would do, in words.
    public var repairPlan: String {
        let made = [fieldColumnsProblem.map { _ in "field columns" }, searchIndexProblem.map { _ in "search indexes" }].compactMap { $0 }
        let remade = made.isEmpty ? nil : "make its \(made.joined(separator: " and ")) again from the documents"
        let dropped = orphanProblem.map { _ in "drop the objects the catalog lost" }
        let others = [remade, dropped].compactMap { $0 }.joined(separator: " and ")
        let columns = others.isEmpty ? "" : "; it would \(others)"
        guard !damaged.isEmpty else {
            return others.isEmpty ? "nothing to repair in \(DocumentKey.quoted(collection))" : ".repair \(DocumentKey.commandArgument(collection)) would \(others)"
        }
        if let quarantineProblem {
            return ".repair \(DocumentKey.commandArgument(collection)) would move the damaged documents into \(DocumentKey.quoted(quarantineCollection)), but \(quarantineProblem): rename or drop it first (.repair refuses until then)"
        }
        return ".repair \(DocumentKey.commandArgument(collection))\(columns.isEmpty ? "" : " (in the same transaction as the move below\(columns))") would move \(Self.plural(damagedCount, "damaged document")) (text unchanged) into the collection \(DocumentKey.quoted(quarantineCollection)) and delete \(damagedCount == 1 ? "it" : "them") from \(DocumentKey.quoted(collection)), in one transaction"
    }

    public var description: String {
        if isHealthy { return "no damaged documents in \(collection) (\(Self.plural(documentCount, "document")) checked)" }
        if let tableProblem { return "\(DocumentKey.quoted(collection)): not checked: \(tableProblem)" }
        // Duplicate member names only where they can be (jsonb keeps one of each).
        var lines = ["\(DocumentKey.quoted(collection)): \(Self.plural(documentCount, "document")) checked, \(CountText.grouped(damagedCount)) damaged"
            + (duplicateMembers.isEmpty ? "" : ", \(duplicateMembers.count) with duplicate member names")]
        if hasDamagedPages {
            let reading = readFailure.map { "reading stopped after \(Self.plural(documentCount, "document")) (\($0))" }
            let findings = pageDamage.filter { $0 != readFailure }.prefix(5)
            lines.append("  • damaged pages in the file: " + ([reading].compactMap { $0 } + findings).joined(separator: "; "))
            lines.append("  .repair can't mend pages: docstore copy --salvage SOURCE NEW copies every document that can still be read into a new store")
        }
        lines += damaged.map { "  • \($0)" }
        if damagedNotListed > 0 { lines.append("  • and \(Self.plural(damagedNotListed, "more damaged document")), not listed") }
        if !duplicateMembers.isEmpty {
            let keys = duplicateMembers.prefix(10).map(\.description).joined(separator: ", ") + (duplicateMembers.count > 10 ? ", …" : "")
            lines.append("  • duplicate member names in \(duplicateMembers.count == 1 ? "document" : "documents") \(keys): the first of each counts (in queries too, unless the two are one name written in two Unicode forms, such as a composed and a decomposed \"é\", which queries tell apart); .repair leaves them")
        }
        if !escapedNames.isEmpty {
            let keys = escapedNames.prefix(10).map(\.description).joined(separator: ", ") + (escapedNames.count > 10 ? ", …" : "")
            lines.append("  • member names written with needless escapes (such as \"caf\\u00e9\") in \(Self.plural(escapedNames.count, "document")) (\(keys)), by another tool: queries, indexes and field changes don't see those members, reads do; save each document again from a read of it to write its names plainly")
        }
        if let fieldColumnsProblem { lines.append("  • \(fieldColumnsProblem)") }
        if let searchIndexProblem { lines.append("  • \(searchIndexProblem)") }
        if let orphanProblem { lines.append("  • \(orphanProblem)") }
        lines += indexProblems.map { "  • \($0)" }
        if needsRepair { lines.append("  \(repairPlan)") }
        return lines.joined(separator: "\n")
    }

    static func plural(_ count: Int, _ noun: String) -> String { CountText.plural(count, noun) }
}

/// What ``DocumentStore/check()`` found in the whole store.
public struct StoreCheck: Sendable, Hashable, CustomStringConvertible {
    /// SQLite's `PRAGMA integrity_check`: `["ok"]` for a sound file, otherwise
    /// its findings (pages, b-trees, indexes). `repair` does not fix these:
    /// restore a backup, or recover the file with sqlite3's `.recover`.
    public var integrityCheck: [String]
    /// Inconsistencies between the catalog and SQLite's tables and indexes.
    public var catalogProblems: [CatalogProblem]
    /// Each collection whose table exists, by name.
    public var collections: [CollectionCheck]
    /// Values of the key/value area (``DocumentStore/values``) that can't be
    /// read, keyed by their string key. `repair` leaves them: remove or set them
    /// again with ``KeyValueArea``.
    public var damagedValues: [DamagedDocument] = []
    /// Why reading the key/value area stopped (a damaged page), or nil.
    public var valuesReadFailure: String?

    /// Whether the file, the catalog, every document and every value are sound.
    public var isHealthy: Bool {
        integrityCheck == ["ok"] && catalogProblems.isEmpty && collections.allSatisfy(\.isHealthy) && damagedValues.isEmpty
            && valuesReadFailure == nil
    }

    public var description: String {
        let findings = integrityCheck
        var lines = ["SQLite integrity check: " + (findings.count <= 5 ? findings.joined(separator: "; ")
            : findings.prefix(5).joined(separator: "; ") + "; … (\(findings.count) findings, PRAGMA integrity_check lists them)")]
        lines.append(catalogProblems.isEmpty ? "catalog: consistent with the tables and indexes"
                                             : "catalog: \(CollectionCheck.plural(catalogProblems.count, "problem"))")
        lines += catalogProblems.map { "  • \($0)" }
        lines += collections.map(\.description)
        if !damagedValues.isEmpty {
            lines.append("key/value area: \(CollectionCheck.plural(damagedValues.count, "damaged value")) (set or remove them again)")
            lines += damagedValues.map { "  • value \($0.key): \($0.reason)" }
        }
        if let valuesReadFailure {
            lines.append("key/value area: damaged pages in the file: \(valuesReadFailure)")
        }
        var toRepair = collections.filter(\.needsRepair).map(\.collection)
        for case let name? in catalogProblems.map(\.repairedBy) where !toRepair.contains(name) { toRepair.append(name) }
        let toSalvage = collections.filter(\.hasDamagedPages).map(\.collection)
        if !toSalvage.isEmpty || valuesReadFailure != nil {
            let names = toSalvage.isEmpty ? "the key/value area" : toSalvage.joined(separator: ", ")
            lines.append("damaged pages (\(names)): restore the file from a backup, or copy what can still be read with docstore copy --salvage SOURCE NEW")
        }
        lines.append(toRepair.isEmpty ? "nothing for .repair to do"
                                      : "to repair: " + toRepair.map { ".repair \(DocumentKey.commandArgument($0))" }.joined(separator: ", "))
        return lines.joined(separator: "\n")
    }
}

/// What ``DocumentStore/repair(collection:)`` did.
public struct RepairResult: Sendable, Hashable, CustomStringConvertible {
    /// The collection repaired.
    public var collection: String
    /// The collection the damaged documents were moved into.
    public var quarantineCollection: String
    /// The keys of the documents moved, as they were in ``collection``.
    public var movedKeys: [DocumentKey]
    /// Whether the collection's field columns were made again from its documents.
    public var rebuiltFieldColumns = false
    /// The search indexes made again from the collection's documents.
    public var rebuiltSearchIndexes: [String] = []
    /// Search indexes' and field columns' objects dropped because the catalog no
    /// longer recorded them (their triggers still ran on every write).
    public var droppedOrphans: [String] = []

    public var description: String {
        let made = [rebuiltFieldColumns ? "field columns" : nil,
                    rebuiltSearchIndexes.isEmpty ? nil : "search index\(rebuiltSearchIndexes.count == 1 ? "" : "es") "
                        + rebuiltSearchIndexes.map(DocumentKey.quoted).joined(separator: ", ")].compactMap { $0 }
        var columns = made.isEmpty ? nil : "made the \(made.joined(separator: " and ")) of \(DocumentKey.quoted(collection)) again from its documents"
        if !droppedOrphans.isEmpty {
            let dropped = "dropped \(droppedOrphans.map(DocumentKey.quoted).joined(separator: ", ")), which the catalog no longer recorded"
            columns = columns.map { $0 + "; " + dropped } ?? dropped
        }
        guard !movedKeys.isEmpty else { return columns ?? "nothing to repair in \(DocumentKey.quoted(collection))" }
        let keys = movedKeys.prefix(10).map(\.description).joined(separator: ", ") + (movedKeys.count > 10 ? ", …" : "")
        return "moved \(CollectionCheck.plural(movedKeys.count, "damaged document")) (\(keys)) from \(DocumentKey.quoted(collection)) into \(DocumentKey.quoted(quarantineCollection)); the rest of \(DocumentKey.quoted(collection)) can be queried again"
            + (columns.map { "; " + $0 } ?? "")
    }
}

// Other backends (PostgreSQL) report their findings in the same types, so a
// check reads the same on every database.
extension DamagedDocument {
    @_spi(Backends) public static func found(key: DocumentKey, reason: String) -> DamagedDocument {
        DamagedDocument(key: key, reason: reason)
    }
}

extension CollectionCheck {
    @_spi(Backends) public init(collection: String, documentCount: Int, damaged: [DamagedDocument], damagedNotListed: Int = 0, maximumNameBytes: Int) {
        self.init(collection: collection, documentCount: documentCount, damaged: damaged, duplicateMembers: [],
                  quarantineCollection: DocumentStore.quarantineName(for: collection, maximumBytes: maximumNameBytes))
        self.damagedNotListed = damagedNotListed
    }
}

extension RepairResult {
    @_spi(Backends) public init(collection: String, movedKeys: [DocumentKey], maximumNameBytes: Int) {
        self.init(collection: collection, quarantineCollection: DocumentStore.quarantineName(for: collection, maximumBytes: maximumNameBytes),
                  movedKeys: movedKeys)
    }
}
