import DocStore
import Foundation

// Models whose coding `@Document` generates, mirroring the codec's test models
// (CodingTestModels.swift) and adding every member type the generated code
// treats specially. The differential tests encode and decode each of them
// through the generated code and through `Codable`, which must agree.

@Document
struct GeneratedStats: Codable, Equatable {
    var battingAverage: Double
    var homeRuns: Int64
    var ratio: Float?
    var small: Int8
    var big: UInt64
}

/// Every scalar the generated code writes without `Codable`, plain and optional.
@Document
struct GeneratedScalars: Codable, Equatable {
    var string: String
    var int: Int
    var int8: Int8
    var int16: Int16
    var int32: Int32
    var int64: Int64
    var uint: UInt
    var uint8: UInt8
    var uint16: UInt16
    var uint32: UInt32
    var uint64: UInt64
    var double: Double
    var float: Float
    var bool: Bool
    var optionalString: String?
    var optionalInt: Int?
    var optionalInt8: Int8?
    var optionalInt16: Int16?
    var optionalInt32: Int32?
    var optionalInt64: Int64?
    var optionalUInt: UInt?
    var optionalUInt8: UInt8?
    var optionalUInt16: UInt16?
    var optionalUInt32: UInt32?
    var optionalUInt64: UInt64?
    var optionalDouble: Double?
    var optionalFloat: Float?
    var optionalBool: Bool?
}

/// The codec's `CodingProfile` and more: nested models with and without
/// `@Document`, optionals and arrays of both, Foundation types, enums.
@Document
struct GeneratedProfile: Codable, Equatable {
    var id: UUID
    var name: String
    var nickname: String?
    var tags: [String]
    var maybeTags: [String]?
    var scores: [Int?]
    var stats: GeneratedStats
    var maybeStats: GeneratedStats?
    var plainStats: CodingStats
    var maybePlainStats: CodingStats?
    var history: [GeneratedStats]
    var maybeHistory: [GeneratedStats]?
    var byName: [String: Int]
    var byNumber: [Int: String]
    var position: CodingPosition
    var maybePosition: CodingPosition?
    var awards: [CodingAward]
    var born: Date
    var maybeBorn: Date?
    var photo: Data
    var homepage: URL?
    var salary: Decimal
    var maybeSalary: Decimal?
    var matrix: [[Double]]
    var extremes: [Int64]
    var twice: Int??
    var legacy: Int!
    var extra: JSONValue?
    var scalars: GeneratedScalars
    var children: [GeneratedProfile]
}

/// `CodingKeys` that reorder, rename (with characters JSON and Swift escape)
/// and leave a property out.
@Document
struct GeneratedRenamed: Codable, Equatable {
    var first: Int
    var second: String?
    var skipped: Int = 7
    var `default`: Bool

    enum CodingKeys: String, CodingKey {
        case second = "a \"quoted\" \\ name\n"
        case `default`
        case first = "β"
    }
}

/// A generic model: `Content` may itself be optional (then a nil is `null`,
/// as synthesized `Codable` writes it, not left out).
@Document
struct GeneratedBox<Content: Codable & Equatable>: Codable, Equatable {
    var content: Content
    var maybe: Content?
    var list: [Content]
}

/// A class: generated encoding, `Codable` decoding.
@Document
final class GeneratedNode: Codable, Equatable {
    var name: String
    var weight: Double?
    var children: [GeneratedNode]

    init(name: String, weight: Double?, children: [GeneratedNode]) {
        self.name = name
        self.weight = weight
        self.children = children
    }

    static func == (lhs: GeneratedNode, rhs: GeneratedNode) -> Bool {
        lhs.name == rhs.name && lhs.weight == rhs.weight && lhs.children == rhs.children
    }
}

/// A model that recurses through a direct array, for the nesting limit.
@Document
struct GeneratedTree: Codable, Equatable {
    var children: [GeneratedTree]
}

/// Hand-written `encode(to:)`: encoding stays on `Codable`, decoding is generated.
@Document
struct HandEncoded: Codable, Equatable {
    var value: Int

    private enum HandKeys: String, CodingKey {
        case value, writer
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: HandKeys.self)
        try container.encode(value, forKey: .value)
        try container.encode("hand", forKey: .writer)
    }
}

/// Hand-written `init(from:)`: decoding stays on `Codable`, encoding is generated.
@Document
struct HandDecoded: Codable, Equatable {
    var value: Int

    init(value: Int) {
        self.value = value
    }

    init(from decoder: any Decoder) throws {
        value = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .value) * 10
    }
}
