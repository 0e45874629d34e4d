/// The building steps the typed queries of both backends share
/// (``CollectionQuery`` and `DocStorePostgres`'s `PostgresCollectionQuery`),
/// so that a filter, sort or join means the same pipeline on either.
@_spi(Backends)
extension QueryPipeline {
    /// Applies `change` to what a new filter, sort or limit refines: the
    /// collection's own query while there are no stages, else the refinement
    /// after the last stage (a new one when the last stage isn't one).
    public static func refine(_ query: inout DocumentQuery, _ stages: inout [PipelineStage],
                              _ change: (inout DocumentQuery) -> Void) {
        guard !stages.isEmpty else {
            change(&query)
            return
        }
        var segment = DocumentQuery()
        if case .refine(let last)? = stages.last {
            segment = last
            stages.removeLast()
        }
        change(&segment)
        stages.append(.refine(segment))
    }

    /// The stage joining `other` into the model's property at `member`; nil
    /// when `member` is not a property of the model itself (the caller's error).
    public static func joinStage(_ other: String, on path: FieldPath, equals target: Join.Target,
                                 into member: FieldPath, many: Bool) -> PipelineStage? {
        guard member.components.count == 1, case .key(let name) = member.components[0] else { return nil }
        return .join(Join(other, on: path, equals: target, as: name, many: many))
    }
}
