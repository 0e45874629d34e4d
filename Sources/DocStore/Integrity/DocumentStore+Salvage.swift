import Foundation
import GRDB
import GRDBSQLite

/// A stretch of a collection's keys that a damaged file no longer lets SQLite
/// read: the documents stored between ``after`` and ``before`` (exclusive) are
/// lost to a salvage.
public struct SalvageGap: Sendable, Hashable, CustomStringConvertible {
    /// The last key read before the damage, or nil when it starts the collection.
    public var after: DocumentKey?
    /// The first key read after the damage, or nil when it runs to the end.
    public var before: DocumentKey?
    /// SQLite's message for the damage.
    public var reason: String

    public var description: String {
        let from = after.map { "after key \($0)" } ?? "from the first key"
        let to = before.map { "before key \($0)" } ?? "to the last key"
        return "documents \(from) \(to) could not be read (\(reason))"
    }
}

/// What ``DocumentStore/salvageDocuments(of:_:)`` read from a collection.
public struct SalvageResult: Sendable, Hashable {
    /// How many documents were handed over.
    public var documents = 0
    /// The stretches that could not be read, in key order.
    public var gaps: [SalvageGap] = []
    /// Documents whose row could be read but whose text is not valid JSON;
    /// they were not handed over.
    public var damaged: [DamagedDocument] = []

    /// Whether every document was read.
    public var isComplete: Bool { gaps.isEmpty && damaged.isEmpty }
}

extension DocumentStore {
    /// Reads every document of `collection` that a damaged file still lets
    /// SQLite read, in key order, stepping over damaged pages instead of
    /// stopping at the first: after a failure it seeks to ever larger keys
    /// until a seek reads again (SQLite finds a key through the table's intact
    /// interior pages), so only the documents on the damaged pages are lost.
    /// On a sound file this reads the whole collection.
    ///
    /// This is what `docstore copy --salvage` copies. It reads one snapshot and
    /// changes nothing.
    ///
    /// - Parameters:
    ///   - collection: The collection to read.
    ///   - body: Gets each readable document's key and its JSON text (valid
    ///     JSON; the bytes are valid only during the call).
    /// - Returns: How many documents were read, and what could not be.
    package func salvageDocuments(of collection: String,
                                  _ body: (DocumentKey, UnsafeRawBufferPointer) throws -> Void) throws -> SalvageResult {
        try read { _ in
            try access(collection: collection) {
                try readAccess { db in
                    guard let info = try knownCollection(named: collection, in: db) else { return SalvageResult() }
                    var reader = SalvageReader(db: db, info: info)
                    try reader.run(body)
                    return reader.result
                }
            }
        }
    }
}

/// Reads a collection past damaged pages (see ``DocumentStore/salvageDocuments(of:_:)``).
private struct SalvageReader {
    let db: Database
    let info: CollectionInfo
    var result = SalvageResult()
    /// The last key read, as stored.
    private var last: StoredKey?

    init(db: Database, info: CollectionInfo) {
        self.db = db
        self.info = info
    }

    /// A key as the table stores it: integer keys in a rowid table, string and
    /// UUID keys as text in a `WITHOUT ROWID` table ordered by their bytes.
    enum StoredKey: Comparable {
        case integer(Int64)
        case text(String)

        static func < (lhs: StoredKey, rhs: StoredKey) -> Bool {
            switch (lhs, rhs) {
            case let (.integer(a), .integer(b)): a < b
            // SQLite's BINARY order: the bytes of the UTF-8.
            case let (.text(a), .text(b)): a.utf8.lexicographicallyPrecedes(b.utf8)
            case (.integer, .text): true
            case (.text, .integer): false
            }
        }
    }

    mutating func run(_ body: (DocumentKey, UnsafeRawBufferPointer) throws -> Void) throws {
        var start: StoredKey? = nil
        while true {
            guard let failure = try readRows(from: start, body) else { return }
            // Nothing read since the last gap: it goes on (its end is the next key read).
            if !awaitingGapEnd {
                result.gaps.append(SalvageGap(after: last.map(documentKey), before: nil, reason: failure))
                awaitingGapEnd = true
            }
            // Probe above everything read or known to be unreadable.
            guard let resume = try firstReadableKey(above: [last, start].compactMap { $0 }.max()) else { return }
            start = resume
        }
    }

    /// Whether the last gap's end is the next key read.
    private var awaitingGapEnd = false

    /// Reads rows in key order from `start` (inclusive; nil: the beginning)
    /// until the end (nil) or a damaged page (its message).
    private mutating func readRows(from start: StoredKey?,
                                   _ body: (DocumentKey, UnsafeRawBufferPointer) throws -> Void) throws -> String? {
        let statement = try RawStatement(db, sql: IntegritySQL.salvageRows(collection: info.name, from: start != nil), cached: false)
        defer { statement.finish() }
        if let start { bind(start, to: statement) }
        do {
            while try statement.step() {
                let key = storedKey(statement)
                // A key out of order is a damaged page SQLite did not notice.
                if let last, key <= last { return "keys out of order after key \(documentKey(last))" }
                last = key
                if awaitingGapEnd {
                    result.gaps[result.gaps.count - 1].before = documentKey(key)
                    awaitingGapEnd = false
                }
                let bytes = statement.bytes(at: 1)
                do {
                    _ = try DocumentCodec.validate(bytes)
                } catch {
                    result.damaged.append(DamagedDocument(key: documentKey(key), reason: "not valid JSON: \(error.description)"))
                    continue
                }
                result.documents += 1
                try body(documentKey(key), bytes)
            }
            return nil
        } catch let failure as SQLiteFailure where DocumentStore.isPageDamage(failure) {
            return failure.message
        }
    }

    /// The first key above `floor` from which the table reads again (nil: none
    /// does): a probe at ever larger steps finds a readable seek, bisection
    /// narrows it down (integer keys), and a backward read from there walks
    /// back to the damaged page, so that the intact pages in between are kept.
    private func firstReadableKey(above floor: StoredKey?) throws -> StoredKey? {
        var previous = floor
        for candidate in Self.probes(above: floor, integerKeys: info.keyKind == .integer) {
            switch try probe(candidate) {
            case .damaged:
                previous = candidate
            case .end:
                return nil
            case .readable:
                let narrowed = try narrowed(from: previous, to: candidate)
                return try firstKeyReadingBack(from: narrowed, above: floor) ?? narrowed
            }
        }
        return nil
    }

    /// The smallest key above `floor` reached by reading the keys below `start`
    /// in descending order until a damaged page; nil when there is none.
    private func firstKeyReadingBack(from start: StoredKey, above floor: StoredKey?) throws -> StoredKey? {
        let statement = try RawStatement(db, sql: IntegritySQL.salvageKeysBefore(collection: info.name), cached: false)
        defer { statement.finish() }
        bind(start, to: statement)
        var smallest: StoredKey?
        while try stepStoppingAtDamage(statement) {
            let key = storedKey(statement)
            if let floor, key <= floor { break }
            // Out of order going down: a damaged page SQLite did not notice.
            if let smallest, key >= smallest { break }
            smallest = key
        }
        return smallest
    }

    /// Steps once: true for a row, false at the end or at a damaged page.
    private func stepStoppingAtDamage(_ statement: RawStatement) throws -> Bool {
        do {
            return try statement.step()
        } catch let failure where DocumentStore.isPageDamage(failure) {
            return false
        }
    }

    /// For integer keys, the smallest readable start between a damaged probe
    /// and a readable one (bisection); text keys keep the readable probe.
    private func narrowed(from damaged: StoredKey?, to readable: StoredKey) throws -> StoredKey {
        guard case let .integer(high) = readable, case let .integer(low)? = damaged else { return readable }
        var (lo, hi) = (low, high)  // lo: damaged, hi: readable
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2
            if case .damaged = try probe(.integer(mid)) { lo = mid } else { hi = mid }
        }
        return .integer(hi)
    }

    private enum Probe { case readable, damaged, end }

    /// Seeks to the first row at or after `key`.
    private func probe(_ key: StoredKey) throws -> Probe {
        let statement = try RawStatement(db, sql: IntegritySQL.salvageProbe(collection: info.name))
        defer { statement.finish() }
        bind(key, to: statement)
        do {
            return try statement.step() ? .readable : .end
        } catch let failure where DocumentStore.isPageDamage(failure) {
            return .damaged
        }
    }

    /// Probe keys above `floor` (nil: the start), increasing: for integers
    /// `floor + 2^i`; for text, the key with each character in turn, from the
    /// last to the first, replaced by the one 1, 2, 4… scalars above it (and
    /// the rest dropped).
    static func probes(above floor: StoredKey?, integerKeys: Bool) -> [StoredKey] {
        switch floor {
        case nil where integerKeys:
            // Keys are most often small and positive: -2^62 … -1, 0, 1, 2, 4 … 2^62, max.
            let powers = (0..<63).map { Int64(1) << $0 }
            return powers.reversed().map { .integer(-$0) } + [.integer(0)] + powers.map { .integer($0) } + [.integer(.max)]
        case nil:
            return probes(above: .text(""), integerKeys: false)
        case .integer(let base):
            return (0..<63).compactMap { power in
                let (sum, overflow) = base.addingReportingOverflow(1 << power)
                return overflow ? nil : .integer(sum)
            } + (base < .max ? [.integer(.max)] : [])
        case .text(let base):
            // At each character, from the last to the first, ever larger
            // successors (the rest dropped): each probe is above the ones before.
            let scalars = Array(base.unicodeScalars)
            var probes: [StoredKey] = [.text(base + "\u{1}")]
            for position in scalars.indices.reversed() {
                for power in 0..<21 {
                    guard let next = nextScalar(after: scalars[position].value, by: 1 << power) else { break }
                    probes.append(.text(String(String.UnicodeScalarView(scalars[..<position] + [next]))))
                }
            }
            if scalars.isEmpty {
                probes += (0..<21).compactMap { nextScalar(after: 0, by: 1 << $0) }.map { .text(String($0)) }
            }
            return probes
        }
    }

    /// The scalar `step` above `value`, skipping surrogates; nil past the last.
    private static func nextScalar(after value: UInt32, by step: UInt32) -> Unicode.Scalar? {
        var candidate = value + step
        if (0xD800...0xDFFF).contains(candidate) { candidate = 0xE000 }
        return Unicode.Scalar(candidate)
    }

    private func storedKey(_ statement: RawStatement) -> StoredKey {
        info.keyKind == .integer ? .integer(statement.int64(at: 0)) : .text(statement.string(at: 0))
    }

    private func bind(_ key: StoredKey, to statement: RawStatement) {
        switch key {
        case .integer(let value): statement.bind(value, at: 1)
        case .text(let text): statement.bindTransient(text, at: 1)
        }
    }

    private func documentKey(_ key: StoredKey) -> DocumentKey {
        switch key {
        case .integer(let value): return .integer(value)
        case .text(let text):
            return info.keyKind == .uuid ? UUID(uuidString: text).map(DocumentKey.uuid) ?? .string(text) : .string(text)
        }
    }
}
