/// A stored document that no longer decodes as the current model: a field
/// renamed or retyped by a newer version of the model, not yet migrated.
public struct StaleDocument: Sendable, Hashable, CustomStringConvertible {
    /// The document's key.
    public var key: DocumentKey
    /// Where in the document decoding failed (`stats.homeRuns`, `tags[2]`); empty
    /// for the document as a whole.
    public var codingPath: String
    /// What went wrong there, in words.
    public var reason: String

    /// `document 3 at nickname: no value for the key …`.
    public var description: String {
        "document \(key)\(codingPath.isEmpty ? "" : " at \(codingPath)"): \(reason)"
    }
}

/// What ``DocumentStore/check(_:named:keeping:each:)`` found: which documents of
/// a collection the model can't decode.
public struct ShapeCheck: Sendable, Hashable, CustomStringConvertible {
    /// The collection checked.
    public var collection: String
    /// The model's type name.
    public var model: String
    /// How many documents were decoded (all of them).
    public var documentCount: Int
    /// How many failed.
    public var staleCount: Int
    /// The first of them (up to the `keeping` limit), in key order.
    public var stale: [StaleDocument]

    /// Whether every document decodes.
    public var isHealthy: Bool { staleCount == 0 }

    public var description: String {
        let checked = "\(CollectionCheck.plural(documentCount, "document")) of \(DocumentKey.quoted(collection)) checked against \(model)"
        if isHealthy { return "\(checked): all decode" }
        var lines = ["\(checked): \(staleCount) do\(staleCount == 1 ? "es" : "") not decode"]
        lines += stale.map { "  • \($0)" }
        if stale.count < staleCount { lines.append("  • … and \(staleCount - stale.count) more") }
        return lines.joined(separator: "\n")
    }
}

extension DocumentStore {
    /// Decodes every document of a collection as `type` and reports those that
    /// fail, with the key, the coding path and the error in words: run it on a
    /// copy of real data before shipping a model change, and again after the
    /// migration that goes with it.
    ///
    ///     let report = try store.check(Player.self)
    ///     for document in report.stale { print(document) }   // document 7 at nickname: …
    ///
    /// Streams the collection in one read snapshot, so memory stays flat: only
    /// the first `limit` stale documents are kept; `each` sees every one.
    ///
    /// - Parameters:
    ///   - type: The model, as the code about to ship declares it.
    ///   - name: The collection; by default the type's default collection name.
    ///   - limit: How many stale documents the report keeps.
    ///   - each: Called with every stale document, in key order.
    /// - Throws: ``DocStoreError`` when the collection can't be read, or what
    ///   `each` throws.
    public func check<Model: Decodable>(
        _ type: Model.Type, named name: String? = nil, keeping limit: Int = 100,
        each: (StaleDocument) throws -> Void = { _ in }
    ) throws -> ShapeCheck {
        let name = name ?? CollectionName.defaultName(for: type)
        var report = ShapeCheck(collection: name, model: String(describing: type), documentCount: 0, staleCount: 0, stale: [])
        let decoding = DocumentDecoding<Model>()
        try collection(named: name).forEachStored { key, bytes in
            report.documentCount += 1
            let stale: StaleDocument
            do {
                _ = try ModelCoding.decode(Model.self, from: bytes, collection: name, key: key, decoding: decoding)
                return
            } catch DocStoreError.decodingFailed(_, _, let codingPath, let reason) {
                stale = StaleDocument(key: key, codingPath: codingPath, reason: reason)
            } catch DocStoreError.corruptDocument(_, _, let reason) {
                stale = StaleDocument(key: key, codingPath: "", reason: "not valid JSON: \(reason)")
            }
            report.staleCount += 1
            if report.stale.count < limit { report.stale.append(stale) }
            try each(stale)
        }
        return report
    }
}
