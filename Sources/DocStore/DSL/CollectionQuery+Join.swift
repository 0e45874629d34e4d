extension CollectionQuery {
    /// Each document with the document of `other` whose field equals its own,
    /// in the model's optional property `member` (`nil` when none does; the one
    /// with the smallest key when several do):
    ///
    ///     @Document struct BattingLine: Codable {
    ///         var playerID: String
    ///         var homeRuns: Int
    ///         var player: Person? = nil    // filled by the join, not stored
    ///     }
    ///     let leaders = try batting.sorted { $0.homeRuns.descending }.limit(5)
    ///         .join(people, on: \.playerID, equals: \.id, as: \.player)
    ///         .select { ($0.player.nameLast, $0.homeRuns) }    // [(String?, Int)]
    ///
    /// The joined document's fields are then usable in `filter`, `sorted`,
    /// `select` and `group(by:)`. With an index on `other`'s field each row seeks
    /// it; without one, the first document of each value is found once for the
    /// whole query. Joins by key need no index.
    public func join<Other: QueryableDocument, Value>(
        _ other: DocumentCollection<Other>,
        on field: KeyPath<Model.Fields, DocumentField<Value>>,
        equals otherField: KeyPath<Other.Fields, DocumentField<Value>>,
        as member: KeyPath<Model.Fields, DocumentField<Other?>>
    ) -> CollectionQuery {
        joined(other.name, on: Model.Fields(_path: .root)[keyPath: field].fieldPath,
               equals: .field(Other.Fields(_path: .root)[keyPath: otherField].fieldPath), as: member)
    }

    /// Each document with the document of `other` whose same-named field equals
    /// its own, in `member` (see ``join(_:on:equals:as:)``).
    public func join<Other: QueryableDocument, Value>(
        _ other: DocumentCollection<Other>,
        on field: KeyPath<Model.Fields, DocumentField<Value>>,
        as member: KeyPath<Model.Fields, DocumentField<Other?>>
    ) -> CollectionQuery {
        let path = Model.Fields(_path: .root)[keyPath: field].fieldPath
        return joined(other.name, on: path, equals: .field(path), as: member)
    }

    /// Each document with the document of `other` whose key equals its field.
    public func join<Other: QueryableDocument, Value>(
        _ other: DocumentCollection<Other>,
        onKey field: KeyPath<Model.Fields, DocumentField<Value>>,
        as member: KeyPath<Model.Fields, DocumentField<Other?>>
    ) -> CollectionQuery {
        joined(other.name, on: Model.Fields(_path: .root)[keyPath: field].fieldPath, equals: .key, as: member)
    }

    /// Each document with every document of `other` whose field equals its own,
    /// in key order, in the model's optional array property `member` (empty when
    /// none does):
    ///
    ///     people.query.joinAll(batting, on: \.id, equals: \.playerID, as: \.seasons)
    public func joinAll<Other: QueryableDocument, Value>(
        _ other: DocumentCollection<Other>,
        on field: KeyPath<Model.Fields, DocumentField<Value>>,
        equals otherField: KeyPath<Other.Fields, DocumentField<Value>>,
        as member: KeyPath<Model.Fields, DocumentField<[Other]?>>
    ) -> CollectionQuery {
        joined(other.name, on: Model.Fields(_path: .root)[keyPath: field].fieldPath,
               equals: .field(Other.Fields(_path: .root)[keyPath: otherField].fieldPath), as: member, many: true)
    }

    private func joined<Member>(
        _ other: String, on path: FieldPath, equals target: Join.Target,
        as member: KeyPath<Model.Fields, DocumentField<Member>>, many: Bool = false
    ) -> CollectionQuery {
        var copy = self
        let memberPath = Model.Fields(_path: .root)[keyPath: member].fieldPath
        guard let stage = QueryPipeline.joinStage(other, on: path, equals: target, into: memberPath, many: many) else {
            copy.invalid = copy.invalid ?? InvalidQuery(reason: "a joined document goes in a property of the model itself", field: memberPath)
            return copy
        }
        copy.stages.append(stage)
        return copy
    }
}
