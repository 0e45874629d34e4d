import DocStore

/// DocStore through its public API, written as a user writes it.
final class DocStoreWay: BenchmarkWay {
    static let name = "docstore"
    let store: DocumentStore
    let players: DocumentCollection<Player>

    init(path: String) throws {
        store = try DocumentStore(path: path)  // WAL, synchronous=NORMAL
        players = store.collection(Player.self)
    }

    func insertAll(_ players: [Player]) throws -> StepResult {
        try self.players.insert(contentsOf: players)
        return StepResult(count: players.count)
    }

    func get(keys: [Int]) throws -> StepResult {
        var result = StepResult()
        for key in keys {
            guard let player = try players.get(key) else { throw BenchmarkError("docstore: no document \(key)") }
            result.add(player)
        }
        return result
    }

    func all() throws -> StepResult {
        var result = StepResult()
        try players.forEach { result.add($0) }
        return result
    }

    func update(keys: ClosedRange<Int>) throws -> StepResult {
        try store.write { tx in
            let players = tx.collection(Player.self)
            var result = StepResult()
            for key in keys {
                result.add(try players.update(key) { $0.number += 1 })
            }
            return result
        }
    }

    func insertEach(_ players: [Player]) throws -> StepResult {
        for player in players { try self.players.insert(player) }
        return StepResult(count: players.count)
    }

    func close() throws {}
}
