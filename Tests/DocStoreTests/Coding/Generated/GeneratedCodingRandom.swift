import Foundation
@testable import DocStore

/// Random values of the generated-coding models, and random damage to their documents.
extension CodingRandom {
    mutating func generatedStats() -> GeneratedStats {
        let plain = stats()
        return GeneratedStats(battingAverage: plain.battingAverage, homeRuns: plain.homeRuns, ratio: plain.ratio,
                              small: plain.small, big: plain.big)
    }

    mutating func maybe<T>(_ make: (inout CodingRandom) -> T) -> T? {
        chance(0.5) ? make(&self) : nil
    }

    mutating func integer<T: FixedWidthInteger>(_ type: T.Type) -> T {
        chance(0.3) ? pick([T.min, T.max, 0]) : T(truncatingIfNeeded: next())
    }

    mutating func scalars() -> GeneratedScalars {
        GeneratedScalars(
            string: hostileString(), int: integer(Int.self), int8: integer(Int8.self), int16: integer(Int16.self),
            int32: integer(Int32.self), int64: edgyInt64(), uint: integer(UInt.self), uint8: integer(UInt8.self),
            uint16: integer(UInt16.self), uint32: integer(UInt32.self), uint64: integer(UInt64.self),
            double: edgyDouble(), float: Float(Double.random(in: -1e6...1e6, using: &self)), bool: chance(0.5),
            optionalString: maybe { $0.hostileString() }, optionalInt: maybe { $0.integer(Int.self) },
            optionalInt8: maybe { $0.integer(Int8.self) }, optionalInt16: maybe { $0.integer(Int16.self) },
            optionalInt32: maybe { $0.integer(Int32.self) }, optionalInt64: maybe { $0.edgyInt64() },
            optionalUInt: maybe { $0.integer(UInt.self) }, optionalUInt8: maybe { $0.integer(UInt8.self) },
            optionalUInt16: maybe { $0.integer(UInt16.self) }, optionalUInt32: maybe { $0.integer(UInt32.self) },
            optionalUInt64: maybe { $0.integer(UInt64.self) }, optionalDouble: maybe { $0.edgyDouble() },
            optionalFloat: maybe { $0.pick([Float.leastNonzeroMagnitude, -0.0, 0.1, .greatestFiniteMagnitude]) },
            optionalBool: maybe { $0.chance(0.5) })
    }

    mutating func generatedProfile(depth: Int = 0, maxDepth: Int = 2) -> GeneratedProfile {
        let plain = profile(depth: 2)  // no children: those are generated below
        // Not `.some(nil)`, which reads back as nil (tested apart).
        let twice: Int?? = chance(0.5) ? .none : .some(Int(edgyInt64()))
        return GeneratedProfile(
            id: plain.id, name: plain.name, nickname: plain.nickname, tags: plain.tags,
            maybeTags: maybe { $0.chance(0.2) ? [] : [$0.hostileString(), $0.hostileString()] },
            scores: plain.scores, stats: generatedStats(), maybeStats: maybe { $0.generatedStats() },
            plainStats: plain.stats, maybePlainStats: maybe { $0.stats() },
            history: (0..<Int.random(in: 0...2, using: &self)).map { _ in generatedStats() },
            maybeHistory: maybe { generator in (0..<Int.random(in: 0...2, using: &generator)).map { _ in generator.generatedStats() } },
            byName: plain.byName, byNumber: plain.byNumber, position: plain.position,
            maybePosition: maybe { $0.pick(CodingPosition.allCases) }, awards: plain.awards, born: plain.born,
            maybeBorn: maybe { $0.date() }, photo: plain.photo, homepage: plain.homepage, salary: plain.salary,
            maybeSalary: maybe { $0.decimal() }, matrix: plain.matrix, extremes: plain.extremes, twice: twice,
            legacy: maybe { Int($0.edgyInt64()) },
            extra: maybe { $0.pick([.integer(3), .double(3.0), .string("x"), .array([.bool(true)]), .object(["k": .null])]) },
            scalars: scalars(),
            children: depth < maxDepth && chance(0.3) ? [generatedProfile(depth: depth + 1, maxDepth: maxDepth)] : [])
    }

    mutating func renamed() -> GeneratedRenamed {
        GeneratedRenamed(first: Int(edgyInt64()), second: maybe { $0.hostileString() }, default: chance(0.5))
    }

    mutating func box<T>(_ type: T.Type, _ make: (inout CodingRandom) -> T) -> GeneratedBox<T> {
        GeneratedBox(content: make(&self), maybe: maybe(make), list: (0..<Int.random(in: 0...3, using: &self)).map { _ in make(&self) })
    }

    mutating func node(depth: Int = 0) -> GeneratedNode {
        GeneratedNode(name: hostileString(), weight: maybe { $0.edgyDouble() },
                      children: depth < 3 ? (0..<Int.random(in: 0...2, using: &self)).map { _ in node(depth: depth + 1) } : [])
    }

    // MARK: Damage

    /// `document` with one value replaced by a value of another kind, or one
    /// member removed, somewhere in the tree (the root included).
    mutating func damage(_ document: JSONValue) -> JSONValue {
        var paths: [[PathStep]] = []
        collectPaths(document, [], into: &paths)
        let target = pick(paths)
        var copy = document
        let replacement = wrongValue()
        let remove = chance(0.3)
        copy.modify(at: target[...]) { value in value = remove ? nil : replacement }
        return copy
    }

    enum PathStep {
        case member(String)
        case element(Int)
    }

    private func collectPaths(_ value: JSONValue, _ path: [PathStep], into paths: inout [[PathStep]]) {
        paths.append(path)
        switch value {
        case .object(let members):
            for (key, member) in members { collectPaths(member, path + [.member(key)], into: &paths) }
        case .array(let elements):
            for (index, element) in elements.enumerated() { collectPaths(element, path + [.element(index)], into: &paths) }
        default:
            break
        }
    }

    mutating func wrongValue() -> JSONValue {
        pick([.null, .string("x"), .string("2026-13-45T00:00:00Z"), .string("not a uuid"), .string("%%%"),
              .integer(-1), .integer(300), .integer(Int64.max), .double(1.5), .double(1e300), .bool(true),
              .array([]), .array([.string("x")]), .object([:]), .object(["battingAverage": .string("high")])])
    }
}

extension JSONValue {
    /// Calls `change` with the value at `path`; setting it to nil removes the member
    /// (an array element or the root becomes `null`).
    mutating func modify(at path: ArraySlice<CodingRandom.PathStep>, _ change: (inout JSONValue?) -> Void) {
        guard let step = path.first else {
            var value: JSONValue? = self
            change(&value)
            self = value ?? .null
            return
        }
        switch (step, self) {
        case (.member(let key), .object(var members)):
            if path.count == 1 {
                var value = members[key]
                change(&value)
                members[key] = value
            } else {
                members[key]?.modify(at: path.dropFirst(), change)
            }
            self = .object(members)
        case (.element(let index), .array(var elements)):
            elements[index].modify(at: path.dropFirst(), change)
            self = .array(elements)
        default:
            break
        }
    }
}
