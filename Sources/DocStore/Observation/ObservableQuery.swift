import Observation

/// A live query's latest result, for a user interface: an `@Observable` object
/// whose ``results`` a SwiftUI view reads, and which updates it on the main actor
/// after each commit that changes it. The fetching runs on the store's threads.
///
///     @MainActor @Observable final class RosterModel {
///         let roster: ObservableQuery<[Player]>
///         init(players: DocumentCollection<Player>) {
///             roster = players.filter { $0.teamId == 1 }.sorted { $0.number }.observable()
///         }
///     }
///     // In a view: ForEach(model.roster.results) { … }
///
/// The observation lasts as long as the object: it ends when the object is released.
@Observable @MainActor
public final class ObservableQuery<Value: Sendable> {
    /// The latest result; `initial` until the first fetch completes.
    public private(set) var results: Value
    /// Whether ``results`` holds a fetched result yet.
    public private(set) var isLoaded = false
    /// The error that ended the observation, if one did (``results`` keeps the
    /// last good result).
    public private(set) var error: (any Error)?

    @ObservationIgnored private var task: Task<Void, Never>?

    /// Observes `sequence`, showing `initial` until its first result.
    public init(_ sequence: LiveSequence<Value>, initial: Value) {
        results = initial
        task = Task { [weak self] in
            do {
                for try await value in sequence {
                    guard let self else { return }
                    self.results = value
                    self.isLoaded = true
                }
            } catch is CancellationError {
                // Released: nothing to show.
            } catch {
                self?.error = error
            }
        }
    }

    isolated deinit {
        task?.cancel()
    }
}

extension CollectionQuery where Model: Sendable {
    /// The query's documents as an `@Observable` object for a user interface (see
    /// ``ObservableQuery``): empty until the first fetch, then kept current.
    @MainActor
    public func observable() -> ObservableQuery<[Model]> {
        ObservableQuery(values(), initial: [])
    }
}
