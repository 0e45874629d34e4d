import DocStore

// W3 and W4 through DocStore's untyped query execution API, `fetch(DocumentQuery)`
// and `createIndex(on:)`. When the typed DSL lands on main, write these queries
// with it, as a user would (it builds the same DocumentQuery).
extension DocStoreWay {
    static func scanQuery(team: Int, minimumNumber: Int) -> DocumentQuery {
        DocumentQuery(.and([
            .compare(FieldPath("teamId"), .equal, .integer(Int64(team))),
            .compare(FieldPath("number"), .greaterOrEqual, .integer(Int64(minimumNumber))),
        ]))
    }

    static func indexedQuery(team: Int) -> DocumentQuery {
        DocumentQuery(.compare(FieldPath("teamId"), .equal, .integer(Int64(team))))
    }

    func scan(teams: Range<Int>, minimumNumber: Int) throws -> StepResult? {
        var result = StepResult()
        for team in teams {
            for player in try players.fetch(Self.scanQuery(team: team, minimumNumber: minimumNumber)) {
                result.add(player)
            }
        }
        return result
    }

    func createTeamIndex() throws -> Bool {
        try players.createIndex(on: [FieldPath("teamId")])
        return true
    }

    func indexed(teams: Range<Int>) throws -> StepResult? {
        var result = StepResult()
        for team in teams {
            for player in try players.fetch(Self.indexedQuery(team: team)) { result.add(player) }
        }
        return result
    }

    /// The SQL and plans DocStore runs for W3 and W4, from a small in-memory store
    /// (printed on stderr beside the table, to compare with the peers' SQL).
    static func explainQueries() throws -> String {
        let store = try DocumentStore.inMemory()
        let players = store.collection(Player.self)
        try players.insert(contentsOf: (1...100).map(Workload.player))
        let scan = try players.explain(scanQuery(team: 0, minimumNumber: Workload.scanMinimumNumber))
        try players.createIndex(on: [FieldPath("teamId")])
        let indexed = try players.explain(indexedQuery(team: 0))
        return "DocStore's W3 query:\n\(scan)\nDocStore's W4 query (after W4i):\n\(indexed)"
    }
}
