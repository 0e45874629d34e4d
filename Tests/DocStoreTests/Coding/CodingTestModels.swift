import Foundation
@testable import DocStore

/// The benchmark workload's document.
struct CodingPlayer: Codable, Equatable {
    var id: Int
    var firstName: String
    var lastName: String
    var number: Int
    var teamId: Int
    var position: String
    var battingAverage: Double
    var nickname: String?
    var tags: [String]
}

struct CodingStats: Codable, Equatable {
    var battingAverage: Double
    var homeRuns: Int64
    var ratio: Float?
    var small: Int8
    var big: UInt64
}

enum CodingPosition: String, Codable, CaseIterable {
    case pitcher, catcher, firstBase = "first base", shortstop
}

enum CodingAward: Codable, Equatable {
    case mvp(year: Int)
    case allStar(Int, String)
    case rookieOfTheYear
    case note(String?)
}

/// A model exercising every convention at once.
struct CodingProfile: Codable, Equatable {
    var id: UUID
    var name: String
    var nickname: String?
    var tags: [String]
    var scores: [Int?]
    var stats: CodingStats
    var history: [CodingStats]
    var byName: [String: Int]
    var byNumber: [Int: String]
    var position: CodingPosition
    var awards: [CodingAward]
    var born: Date
    var photo: Data
    var homepage: URL?
    var salary: Decimal
    var matrix: [[Double]]
    var extremes: [Int64]
    var children: [CodingProfile]
}

extension CodingRandom {
    mutating func stats() -> CodingStats {
        CodingStats(battingAverage: edgyDouble(), homeRuns: edgyInt64(),
              ratio: chance(0.5) ? Float(Double.random(in: -1e6...1e6, using: &self)) : nil,
              small: Int8.random(in: .min ... .max, using: &self), big: chance(0.2) ? .max : next())
    }

    mutating func award() -> CodingAward {
        switch Int.random(in: 0..<4, using: &self) {
        case 0: .mvp(year: Int.random(in: 1900...2100, using: &self))
        case 1: .allStar(Int(edgyInt64()), hostileString())
        case 2: .rookieOfTheYear
        default: .note(chance(0.5) ? hostileString() : nil)
        }
    }

    /// Any Date the codec supports, with sub-nanosecond ones near 2001 now and then.
    mutating func date() -> Date {
        let interval: Double
        switch Int.random(in: 0..<4, using: &self) {
        case 0: interval = Double.random(in: ISO8601Date.minimumSeconds.asDouble..<ISO8601Date.endSeconds.asDouble, using: &self)
        case 1: interval = Double.random(in: -1e8...1e8, using: &self)
        case 2: interval = Double.random(in: -1e-3...1e-3, using: &self)
        default: interval = Double(Int64.random(in: -2_000_000_000...2_000_000_000, using: &self)) + pick([0, 0.5, 0.123456789, 0.999999999])
        }
        return Date(timeIntervalSinceReferenceDate: interval)
    }

    mutating func decimal() -> Decimal {
        let digits = (0..<Int.random(in: 1...30, using: &self)).map { _ in String(Int.random(in: 0...9, using: &self)) }.joined()
        let exponent = Int.random(in: -20...20, using: &self)
        return Decimal(string: (chance(0.5) ? "-" : "") + digits + "e\(exponent)") ?? 0
    }

    mutating func profile(depth: Int = 0) -> CodingProfile {
        CodingProfile(
            id: UUID(),
            name: hostileString(),
            nickname: chance(0.5) ? hostileString() : nil,
            tags: (0..<Int.random(in: 0...4, using: &self)).map { _ in hostileString() },
            scores: (0..<Int.random(in: 0...5, using: &self)).map { _ in chance(0.3) ? nil : Int(edgyInt64()) },
            stats: stats(),
            history: (0..<Int.random(in: 0...2, using: &self)).map { _ in stats() },
            byName: Dictionary((0..<Int.random(in: 0...4, using: &self)).map { _ in (hostileString(), Int(edgyInt64())) },
                               uniquingKeysWith: { first, _ in first }),
            byNumber: Dictionary((0..<Int.random(in: 0...4, using: &self)).map { _ in (Int(edgyInt64()), hostileString()) },
                                 uniquingKeysWith: { first, _ in first }),
            position: pick(CodingPosition.allCases),
            awards: (0..<Int.random(in: 0...3, using: &self)).map { _ in award() },
            born: date(),
            photo: Data((0..<Int.random(in: 0...40, using: &self)).map { _ in UInt8.random(in: 0...255, using: &self) }),
            homepage: chance(0.5) ? URL(string: "https://example.com/p/\(next() % 1000)?q=a%20b&x=\(next() % 10)#frag") : nil,
            salary: decimal(),
            matrix: (0..<Int.random(in: 0...3, using: &self)).map { _ in (0..<Int.random(in: 0...3, using: &self)).map { _ in edgyDouble() } },
            extremes: [.min, .max, edgyInt64()],
            children: depth < 2 && chance(0.3) ? [profile(depth: depth + 1)] : []
        )
    }
}

extension Int64 {
    var asDouble: Double { Double(self) }
}
