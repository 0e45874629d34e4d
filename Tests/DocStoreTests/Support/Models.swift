import Foundation
@testable import DocStore

// `Team` is defined by the README's usage code, in ReadmeUsageTests.swift.

struct Note: Codable, Equatable {
    var text: String
}

struct Tagged: Codable, Identifiable, Equatable {
    var id: String
    var value: Int
}

struct Account: Codable, Identifiable, Equatable {
    var id: UUID
    var owner: String
}

let sampleTeams = [
    Team(id: 1, city: "Boston", nickName: "Red Sox", abbreviation: "BOS"),
    Team(id: 2, city: "Baltimore", nickName: "Orioles", abbreviation: "BAL"),
    Team(id: 3, city: "Tampa Bay", nickName: "Rays", abbreviation: "TB"),
    Team(id: 4, city: "Toronto", nickName: "Blue Jays", abbreviation: "TOR"),
]

/// A fresh file path in a new temporary directory, removed by the caller's `defer`.
func temporaryStorePath(_ name: String = "store.sqlite") throws -> (path: String, directory: URL) {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("docstore-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return (directory.appendingPathComponent(name).path, directory)
}

/// An executable target of this package, built beside the test bundle (the test
/// target depends on it, so `swift test` builds it first).
func builtExecutable(named name: String) throws -> URL {
    let testBinary = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
    return testBinary.deletingLastPathComponent().appendingPathComponent(name)
}
