/// The observation counters for the benchmark package only
/// (`@_spi(Benchmarks) import DocStore` in Benchmarks/): not public API, and not
/// part of any compatibility promise. They forward to the `package` members the
/// tests use, which a separate package can't see.
@_spi(Benchmarks)
extension DocumentStore {
    /// ``liveQueryFetches``: how many fetches live queries have run.
    public var benchmarkLiveQueryFetches: Int { liveQueryFetches }

    /// ``waitForObservers()``: returns when every commit made so far has reached
    /// the observers and the fetches it caused have run.
    public func benchmarkWaitForObservers() { waitForObservers() }
}
