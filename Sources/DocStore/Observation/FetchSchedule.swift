/// When a live observer fetches: at most one fetch at a time, and one more after
/// it when a commit arrived meanwhile (that fetch may or may not have seen it),
/// so a result is never missed and commits arriving together share a fetch.
/// Each backend's observer keeps one, under its own lock.
@_spi(Backends)
public struct FetchSchedule: Sendable {
    /// Whether a fetch is running.
    public private(set) var isFetching = false
    /// Whether a commit arrived during the running fetch.
    private var needsFetch = false
    /// Whether the observation ended (the consumer stopped, a fetch failed, the store closed).
    public private(set) var isFinished = false

    public init() {}

    /// A commit may have changed the result: whether the caller starts fetching
    /// now (false when a fetch is running, which will fetch again, or when the
    /// observation ended).
    public mutating func request() -> Bool {
        if isFinished { return false }
        if isFetching {
            needsFetch = true
            return false
        }
        isFetching = true
        return true
    }

    /// Before each fetch of a round: commits from now on need another one.
    public mutating func beginFetch() {
        needsFetch = false
    }

    /// After a fetch: whether to fetch again (a commit arrived meanwhile);
    /// otherwise the round ends.
    public mutating func endFetch() -> Bool {
        if needsFetch, !isFinished { return true }
        isFetching = false
        return false
    }

    /// Ends the observation; whether it had already ended.
    public mutating func finish() -> Bool {
        defer { isFinished = true }
        return isFinished
    }
}
