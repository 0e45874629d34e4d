import Foundation
import GRDB

extension DocumentCollection {
    /// How many documents a conversion reads, converts and writes at a time:
    /// memory holds one batch, however large the collection.
    static var conversionBatchSize: Int { 1000 }

    /// Converts a field's value with a Swift closure, in every document where the
    /// field is present and not null: the stored value is decoded as `Old`, passed
    /// to `transform`, and its result stored in its place. Streams the collection
    /// in batches (memory stays flat), in one transaction.
    ///
    ///     try players.convertField(FieldPath("birthYear")) { (text: String) in Int(text) ?? 0 }
    ///
    /// Indexes on the field stay and are updated with the documents.
    ///
    /// - Throws: ``DocStoreError/invalidUpdate(collection:field:key:reason:)`` naming
    ///   the document and the field when the stored value doesn't decode as `Old`
    ///   or `transform` throws (its error's description is the reason);
    ///   ``DocStoreError/encodingFailed(collection:key:codingPath:reason:)`` when the
    ///   new value can't be encoded; ``DocStoreError/uniqueConstraint(collection:fields:key:)``
    ///   when a unique index refuses a new value. Nothing is changed then.
    @discardableResult
    public func convertField<Old: Decodable, New: Encodable>(
        _ path: FieldPath, from oldType: Old.Type = Old.self, _ transform: (Old) throws -> New
    ) throws -> FieldChangeSummary {
        try checkTarget(path)
        let change = "convert \(path) from \(Old.self) to \(New.self)"
        return try changingFields(change) { db, info, compiler in
            var summary = FieldChangeSummary(collection: name, change: change, documentsChanged: 0)
            guard let info else { return summary }
            let observed = store.changeTracker.isObserved(name)
            let setSQL = try compiler.setField(path) + (observed ? " RETURNING body" : "")
            let encoder = StreamEncoder()
            let encoding = DocumentEncoding<New>()
            var after: DocumentKey?
            while true {
                var batch: [(key: DocumentKey, json: [UInt8])] = []
                try run(compiler.fieldValues(path, after: after, limit: Self.conversionBatchSize), in: db) { row in
                    batch.append((row.key(at: 0, kind: info.keyKind), Array(row.bytes(at: 1))))
                }
                guard let last = batch.last else { break }
                let statement = try RawStatement(db, sql: setSQL)
                defer { statement.finish() }
                for (key, json) in batch {
                    let new = try MigrationRules.converted(json, at: path, collection: name, key: key, transform)
                    try ModelCoding.withEncoded(new, encoder: encoder, encoding: encoding, collection: name, key: key) { bytes in
                        if DocumentCodec.nests(try DocumentCodec.parse(bytes), deeperThan: DocumentStore.maximumNestingDepth - path.components.count) {
                            throw DocStoreError.nestingTooDeep(collection: name, key: key, limit: DocumentStore.maximumNestingDepth)
                        }
                        statement.bindStatic(bytes, at: 1)
                        statement.bind(key, at: 2)
                        try step(statement, key: key, in: db)
                        if observed {
                            store.changeTracker.record(RecordedWrite(
                                collection: name, kind: .update, key: key, old: .unknown,
                                new: .stored(Array(statement.bytes(at: 0))), changedPaths: [path]), in: db)
                        }
                        statement.finish()
                    }
                    summary.documentsChanged += 1
                }
                if batch.count < Self.conversionBatchSize { break }
                after = last.key
            }
            return summary
        }
    }
}
