/// What a live query reads, so that a commit can be judged from what it wrote:
/// a write to another collection, or to a document that the query selected
/// neither before nor after the write, changes nothing the query returns.
struct ObservedRegion: Sendable {
    /// The collection queried.
    var collection: String
    /// Further collections the condition reads (through subqueries): any write to
    /// them may change the result.
    var subqueryCollections: Set<String>
    /// A single document's key, for an observation of one document.
    var key: DocumentKey?
    /// The query's condition.
    var condition: Condition
    /// Whether "selected before the write" can be read off the keys of the last
    /// result: true for document results without an offset (a document outside the
    /// result that leaves the selection can't change it). Counts, aggregates and
    /// offset pages need the old document instead.
    var judgesByResultKeys: Bool
    /// The paths the condition reads; nil when it can't be evaluated in memory on
    /// one document (it has subqueries).
    private let conditionPaths: [FieldPath]?

    init(collection: String, key: DocumentKey? = nil, condition: Condition = .always, judgesByResultKeys: Bool = false) {
        self.collection = collection
        self.key = key
        self.condition = condition
        self.judgesByResultKeys = judgesByResultKeys
        var subqueries = Set<String>()
        conditionPaths = condition.readPaths(subqueryCollections: &subqueries)
        subqueryCollections = subqueries
    }

    /// Whether the commit may have changed the result, given the keys of the last
    /// result (when ``judgesByResultKeys``).
    func isAffected(by committed: CommittedWrites, resultKeys: Set<DocumentKey>?) -> Bool {
        if committed.mayHaveChangedAnything { return true }
        return committed.writes.contains { write in
            if subqueryCollections.contains(write.collection) { return true }
            return write.collection == collection && isAffected(by: write, resultKeys: resultKeys)
        }
    }

    private func isAffected(by write: RecordedWrite, resultKeys: Set<DocumentKey>?) -> Bool {
        if let key { return write.key == key }
        guard let conditionPaths else { return true }
        // Selected after the write (or can't tell)?
        if matches(write.new) != false { return true }
        // Selected before?
        if judgesByResultKeys, let resultKeys { return resultKeys.contains(write.key) }
        if write.old == .unknown, let changed = write.changedPaths,
           !changed.contains(where: { path in conditionPaths.contains { $0.overlaps(path) } }) {
            // Only fields the condition doesn't read changed: it judged the old
            // document as it judges the new one, which it doesn't select.
            return false
        }
        return matches(write.old) != false
    }

    /// Whether the condition selects the document; nil when unknown.
    private func matches(_ body: RecordedWrite.Body) -> Bool? {
        switch body {
        case .absent: return false
        case .unknown: return nil
        case .stored(let bytes):
            guard let document = try? DocumentCodec.parse(bytes) else { return nil }
            return condition.matches(document)
        }
    }
}

extension FieldPath {
    /// Whether one path lies within the other (or they are the same): changing one
    /// may change what the other reads.
    func overlaps(_ other: FieldPath) -> Bool {
        let common = min(components.count, other.components.count)
        return components.prefix(common) == other.components.prefix(common)
    }
}

extension Condition {
    /// The document paths the condition reads (array conditions read their whole
    /// array), or nil when it reads more than the document: a subquery, whose
    /// collection is added to `subqueryCollections`.
    func readPaths(subqueryCollections: inout Set<String>) -> [FieldPath]? {
        switch self {
        case .always:
            return []
        case .compare(let path, _, _), .isNull(let path), .exists(let path), .string(let path, _, _, _), .matches(let path, _),
             .isIn(let path, _), .arrayContains(let path, _), .arrayCount(let path, _, _),
             .any(let path, _), .all(let path, _):
            return [path]
        case .isInSubquery(_, let subquery):
            subqueryCollections.insert(subquery.collection)
            _ = subquery.condition.readPaths(subqueryCollections: &subqueryCollections)
            return nil
        case .and(let conditions), .or(let conditions):
            var paths: [FieldPath] = []
            var evaluable = true
            for condition in conditions {
                if let more = condition.readPaths(subqueryCollections: &subqueryCollections) {
                    paths += more
                } else {
                    evaluable = false
                }
            }
            return evaluable ? paths : nil
        case .not(let condition):
            return condition.readPaths(subqueryCollections: &subqueryCollections)
        }
    }
}
