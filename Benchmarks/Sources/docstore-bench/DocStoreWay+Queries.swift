import DocStore

// W3 and W4 through DocStore's query execution API (`fetch(DocumentQuery)` and
// `createIndex(on:)`), which is not on main yet. Until it lands the docstore way
// prints no W3/W4i/W4 lines and the driver says so on stderr. When it lands,
// add `.define("DOCSTORE_QUERY_API")` to the target's swiftSettings in
// Benchmarks/Package.swift (or delete this #if), and once the typed DSL lands,
// write the queries with it, as a user would.
extension DocStoreWay {
    #if DOCSTORE_QUERY_API
    func scan(teams: Range<Int>, minimumNumber: Int) throws -> StepResult? {
        var result = StepResult()
        for team in teams {
            let query = DocumentQuery(.and([
                .compare(FieldPath("teamId"), .equal, .integer(Int64(team))),
                .compare(FieldPath("number"), .greaterOrEqual, .integer(Int64(minimumNumber))),
            ]))
            for player in try players.fetch(query) { result.add(player) }
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
            let query = DocumentQuery(.compare(FieldPath("teamId"), .equal, .integer(Int64(team))))
            for player in try players.fetch(query) { result.add(player) }
        }
        return result
    }
    #else
    func scan(teams: Range<Int>, minimumNumber: Int) throws -> StepResult? { nil }
    func createTeamIndex() throws -> Bool { false }
    func indexed(teams: Range<Int>) throws -> StepResult? { nil }
    #endif
}
