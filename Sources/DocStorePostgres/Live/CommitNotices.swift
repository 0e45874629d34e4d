@_spi(Backends) import DocStore
import Foundation

/// One `NOTIFY` payload of the live triggers (see `PostgresStoreSQL+Live`):
/// what one statement wrote, or the end of a transaction's notices.
struct CommitNotice: Decodable, Equatable, Sendable {
    /// The writing transaction's id.
    var x: String
    /// The collection written; nil on an end notice.
    var c: String?
    /// `i`, `u`, `d` for inserted, updated, deleted keys; `t` for anything.
    var o: String?
    /// The notice's number in its transaction.
    var s: Int?
    /// The keys written; nil when the notice doesn't name them.
    var k: [NoticeKey]?
    /// Set on the last notice of a transaction.
    var end: Bool?

    /// A key as the trigger writes it: a number for `bigint` keys, a string otherwise.
    enum NoticeKey: Decodable, Equatable, Sendable {
        case integer(Int64)
        case text(String)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let integer = try? container.decode(Int64.self) {
                self = .integer(integer)
            } else {
                self = .text(try container.decode(String.self))
            }
        }

        /// The key in a collection of `kind` (nil: unknown, the collection is gone).
        func documentKey(kind: KeyKind?) -> DocumentKey {
            switch self {
            case .integer(let integer): return .integer(integer)
            case .text(let text):
                if kind == .uuid, let uuid = UUID(uuidString: text) { return .uuid(uuid) }
                return .string(text)
            }
        }
    }

    /// The notice in a payload, nil when the payload isn't one (another
    /// program's `NOTIFY` on the channel).
    static func decode(_ payload: String) -> CommitNotice? {
        try? JSONDecoder().decode(CommitNotice.self, from: Data(payload.utf8))
    }
}

/// What one committed transaction wrote, as observers see it.
struct PostgresCommit: Sendable {
    /// One statement's writes to one collection.
    struct Write: Sendable {
        enum Kind: Sendable {
            case insert, update, delete
            /// Anything: the keys aren't known (a big statement, `TRUNCATE`, a drop).
            case any
        }

        var collection: String
        var kind: Kind
        /// The keys written; empty for ``Kind/any``.
        var keys: [DocumentKey]
    }

    var writes: [Write]
    /// Anything may have changed (the listening connection was lost, and commits
    /// may have gone unheard).
    var mayHaveChangedAnything = false

    /// Whether anything in `collection` may have changed.
    func touches(_ collection: String) -> Bool {
        mayHaveChangedAnything || writes.contains { $0.collection == collection }
    }

    /// Whether the document under `key` in `collection` may have changed.
    func touches(_ collection: String, key: DocumentKey) -> Bool {
        mayHaveChangedAnything || writes.contains {
            $0.collection == collection && ($0.kind == .any || $0.keys.contains(key))
        }
    }
}

/// Groups notices into transactions. A transaction's notices are contiguous
/// (PostgreSQL queues them together at commit, in commit order) and end with
/// its end notice; a notice of another transaction also ends the one before
/// (a transaction whose end notice couldn't be queued: a lone `TRUNCATE`).
struct CommitNoticeGrouper: Sendable {
    private var transaction: String?
    private var notices: [CommitNotice] = []

    /// Adds a notice; returns the notices of the transactions it completes, in order.
    mutating func add(_ notice: CommitNotice) -> [[CommitNotice]] {
        var completed: [[CommitNotice]] = []
        if let transaction, transaction != notice.x {
            completed.append(notices)
            notices = []
        }
        transaction = notice.x
        if notice.c != nil { notices.append(notice) }
        if notice.end == true {
            completed.append(notices)
            notices = []
            transaction = nil
        }
        return completed.filter { !$0.isEmpty }
    }

    /// Forgets a transaction heard in part (the connection was lost).
    mutating func reset() {
        transaction = nil
        notices = []
    }
}
