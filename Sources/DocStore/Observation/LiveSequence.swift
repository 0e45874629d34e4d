/// An asynchronous sequence of what a store observation sees: a live query's
/// results (``CollectionQuery/values()``) or a collection's change sets
/// (``DocumentCollection/changes(includingDocuments:)``).
///
/// Each iteration is an observation of its own: it starts when iteration starts,
/// and ends when the iterating task is cancelled or stops iterating. Nothing is
/// observed before. It throws when the observation fails (the store is closed, a
/// document can't be decoded); the error ends it.
public struct LiveSequence<Element: Sendable>: AsyncSequence, Sendable {
    /// The error that ends an observation.
    public typealias Failure = any Error

    /// Starts one observation, feeding `continuation`.
    let start: @Sendable (AsyncThrowingStream<Element, any Error>.Continuation) -> Void
    /// Live results keep only the newest when the consumer is slow; change sets
    /// are all kept.
    let bufferingPolicy: AsyncThrowingStream<Element, any Error>.Continuation.BufferingPolicy

    /// Starts an observation; it ends when the iterator is dropped or its task cancelled.
    public func makeAsyncIterator() -> AsyncThrowingStream<Element, any Error>.AsyncIterator {
        let (stream, continuation) = AsyncThrowingStream<Element, any Error>.makeStream(bufferingPolicy: bufferingPolicy)
        start(continuation)
        return stream.makeAsyncIterator()
    }
}

@_spi(Backends)
extension LiveSequence {
    /// A live sequence of another backend: each iteration calls `start` with
    /// the continuation to feed, which keeps only the newest element when the
    /// consumer is slow (live results) or every element (`keepingNewestOnly`
    /// false: change sets).
    public init(keepingNewestOnly: Bool,
                start: @escaping @Sendable (AsyncThrowingStream<Element, any Error>.Continuation) -> Void) {
        self.init(start: start, bufferingPolicy: keepingNewestOnly ? .bufferingNewest(1) : .unbounded)
    }
}
