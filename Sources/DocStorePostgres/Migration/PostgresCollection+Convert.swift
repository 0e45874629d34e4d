@_spi(Backends) import DocStore

extension PostgresCollection {
    /// How many documents a conversion reads, converts and writes at a time:
    /// memory holds one batch, however large the collection.
    static var conversionBatchSize: Int { 1000 }

    /// Converts a field's value with a Swift closure, in every document where the
    /// field is present and not null, as on SQLite: the stored value is decoded as
    /// `Old`, passed to `transform`, and its result stored in its place. Streams
    /// the collection in batches (memory stays flat), in one transaction.
    ///
    ///     try await players.convertField(FieldPath("birthYear")) { (text: String) in Int(text) ?? 0 }
    ///
    /// Indexes on the field stay and are updated with the documents.
    ///
    /// - Throws: ``DocStore/DocStoreError/invalidUpdate(collection:field:key:reason:)``
    ///   naming the document and the field when the stored value doesn't decode as
    ///   `Old` or `transform` throws; ``DocStore/DocStoreError/encodingFailed(collection:key:codingPath:reason:)``
    ///   when the new value can't be encoded or holds a NUL, which jsonb can't store;
    ///   ``DocStore/DocStoreError/uniqueConstraint(collection:fields:key:)`` when a
    ///   unique index refuses a new value. Nothing is changed then.
    @discardableResult
    public func convertField<Old: Decodable, New: Encodable>(
        _ path: FieldPath, from oldType: Old.Type = Old.self, _ transform: (Old) throws -> New
    ) async throws -> FieldChangeSummary {
        try BackendSupport.checkFieldNotKey(path, collection: name, keyed: isKeyedById)
        return try await changingFields("convert \(path) from \(Old.self) to \(New.self)") { session, compiler, summary in
            guard let compiler, let kind = keyKind() else { return }
            var after: DocumentKey?
            while true {
                let batch = try await session.rows(try compiler.fieldValues(path, after: after, limit: Self.conversionBatchSize), collection: name)
                for row in batch {
                    let cells = row.makeRandomAccess()
                    let key = try decodeKey(cells[0], kind: kind)
                    let old = Array(try cells[1].decode(String.self).utf8)
                    let new = try BackendSupport.encode(try MigrationRules.converted(old, at: path, collection: name, key: key, transform), collection: name, key: key)
                    try refuseNUL(in: new, key: key)
                    try await mappingUniqueViolation {
                        _ = try await session.rows(try compiler.setField(path, to: new, key: key), collection: name)
                    }
                    after = key
                    summary.documentsChanged += 1
                }
                if batch.count < Self.conversionBatchSize { break }
            }
        }
    }
}
