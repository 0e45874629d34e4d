import Foundation
import Testing
@testable import DocStore

/// The outcome of a codec call, comparable as a whole: the value or the error.
func outcome<T>(_ body: () throws(DocumentCodingError) -> T) -> Result<T, DocumentCodingError> {
    Result(catching: body)
}

/// The bytes `encode(to:)` writes, bypassing generated coding.
func encodedThroughCodable<T: Encodable>(_ value: T) throws(DocumentCodingError) -> [UInt8] {
    let encoder = StreamEncoder()
    try DocumentCodec.encodeThroughCodable(value, with: encoder)
    return encoder.bytes.array
}

/// The value `init(from:)` reads, bypassing generated decoding.
func decodedThroughCodable<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws(DocumentCodingError) -> T {
    let result = bytes.withUnsafeBytes { raw in outcome { () throws(DocumentCodingError) -> T in
        try DocumentCodec.decodeThroughCodable(type, from: raw)
    } }
    return try result.get()
}

extension CodingTests {
    /// Differential tests: the code `@Document` generates writes the bytes
    /// `encode(to:)` writes and reads what `init(from:)` reads, failing alike.
    @Suite("Generated coding") struct GeneratedCoding {
        /// Encodes both ways (same bytes, or the same error) and decodes the bytes
        /// both ways (the same value or the same error), which equals the original
        /// when it `roundTrips` (a `.some(nil)` double optional, or a `JSONValue?` holding
        /// `.null`, reads back as nil, through `Codable` too). Failures print the JSON, not the (long) values.
        func expectAgreement<T: Codable & Equatable>(
            _ value: T, _ context: String, roundTrips: Bool = true, sourceLocation: SourceLocation = #_sourceLocation
        ) throws {
            let generic = outcome { () throws(DocumentCodingError) in try encodedThroughCodable(value) }
            let direct = outcome { () throws(DocumentCodingError) in try DocumentCodec.encode(value) }
            let sameBytes = direct == generic
            #expect(sameBytes, "\(context): generated \(describe(direct)), Codable \(describe(generic))", sourceLocation: sourceLocation)
            guard case .success(let bytes) = generic else { return }
            let viaCodable = outcome { () throws(DocumentCodingError) in try decodedThroughCodable(T.self, from: bytes) }
            let viaDirect = outcome { () throws(DocumentCodingError) in try DocumentCodec.decode(T.self, from: bytes) }
            let sameValue = viaDirect == viaCodable
            #expect(sameValue, "\(context): decoding \(describe(.success(bytes)))", sourceLocation: sourceLocation)
            if roundTrips {
                let original = viaDirect == .success(value)
                #expect(original, "\(context): round trip of \(describe(.success(bytes)))", sourceLocation: sourceLocation)
            }
        }

        private func describe(_ result: Result<[UInt8], DocumentCodingError>) -> String {
            switch result {
            case .success(let bytes): String(String(decoding: bytes, as: UTF8.self).prefix(2_000))
            case .failure(let error): "error \(error)"
            }
        }

        @Test("@Document models take the generated path; hand-written directions keep Codable")
        func pathsChosen() {
            #expect(DocumentEncoding<GeneratedProfile>().isDirect && DocumentDecoding<GeneratedProfile>().isDirect)
            #expect(DocumentEncoding<GeneratedBox<Int?>>().isDirect && DocumentDecoding<GeneratedBox<Int?>>().isDirect)
            #expect(DocumentEncoding<GeneratedNode>().isDirect, "a class's encoding is generated")
            #expect(!DocumentDecoding<GeneratedNode>().isDirect, "an extension can't add a class's initializer")
            #expect(!DocumentEncoding<HandEncoded>().isDirect && DocumentDecoding<HandEncoded>().isDirect)
            #expect(DocumentEncoding<HandDecoded>().isDirect && !DocumentDecoding<HandDecoded>().isDirect)
            #expect(!DocumentEncoding<CodingProfile>().isDirect && !DocumentDecoding<CodingProfile>().isDirect)
        }

        @Test("random models: both encodings are byte-identical and decode to equal values", arguments: PropertySeeds.all)
        func randomModels(seed: UInt64) throws {
            var generator = CodingRandom(seed: seed)
            for iteration in 0..<60 {
                let context = "seed \(seed), iteration \(iteration): rerun with CODEC_SEED=\(seed)"
                try expectAgreement(generator.generatedProfile(), context)
                try expectAgreement(generator.scalars(), context)
                try expectAgreement(generator.renamed(), context)
                try expectAgreement(generator.box(Int?.self) { $0.chance(0.4) ? nil : Int($0.edgyInt64()) }, context, roundTrips: false)
                var twice = generator.generatedProfile(maxDepth: 0)
                twice.twice = .some(nil)
                twice.extra = .some(.null)
                try expectAgreement(twice, context, roundTrips: false)
                try expectAgreement(generator.box(String.self) { $0.hostileString() }, context)
                try expectAgreement(generator.box(GeneratedStats.self) { $0.generatedStats() }, context)
                try expectAgreement(generator.node(), context)
            }
        }

        @Test("unencodable values fail alike: NaN, infinities, dates out of range, Decimal.nan, deep nesting")
        func encodingErrors() throws {
            var generator = CodingRandom(seed: 7)
            var profile = generator.generatedProfile()
            profile.scalars.double = .nan
            try expectAgreement(profile, "NaN")
            profile = generator.generatedProfile()
            profile.scalars.optionalFloat = -.infinity
            try expectAgreement(profile, "-infinity in an optional Float")
            profile = generator.generatedProfile()
            profile.history = [generator.generatedStats(), GeneratedStats(battingAverage: .infinity, homeRuns: 1, ratio: nil, small: 0, big: 0)]
            try expectAgreement(profile, "infinity in an array of models")
            profile = generator.generatedProfile()
            profile.maybeBorn = Date(timeIntervalSinceReferenceDate: 1e13)
            try expectAgreement(profile, "year past 9999")
            profile = generator.generatedProfile()
            profile.maybeSalary = .nan
            try expectAgreement(profile, "Decimal.nan")

            var tree = GeneratedTree(children: [])
            for _ in 0..<(DocumentStore.maximumNestingDepth + 5) { tree = GeneratedTree(children: [tree]) }
            let generic = outcome { () throws(DocumentCodingError) in try encodedThroughCodable(tree) }
            let direct = outcome { () throws(DocumentCodingError) in try DocumentCodec.encode(tree) }
            #expect(direct == generic)
            guard case .failure(let error) = direct else { Issue.record("a too deep tree was encoded"); return }
            #expect(error.kind == .nestingTooDeep)
        }

        @Test("damaged documents fail alike: the same kind, coding path and reason", arguments: PropertySeeds.all)
        func damagedDocuments(seed: UInt64) throws {
            var generator = CodingRandom(seed: seed)
            var failures = 0
            for iteration in 0..<200 {
                let profile = generator.generatedProfile(maxDepth: 1)
                let damaged = generator.damage(try DocumentCodec.parse(DocumentCodec.encode(profile)))
                let bytes = DocumentCodec.serialize(damaged)
                let viaCodable = outcome { () throws(DocumentCodingError) in try decodedThroughCodable(GeneratedProfile.self, from: bytes) }
                let viaDirect = outcome { () throws(DocumentCodingError) in try DocumentCodec.decode(GeneratedProfile.self, from: bytes) }
                let same = viaDirect == viaCodable
                #expect(same, "seed \(seed), iteration \(iteration): \(String(decoding: bytes, as: UTF8.self).prefix(2_000))")
                if case .failure = viaDirect { failures += 1 }
            }
            #expect(failures > 100, "most damage must be detected, or the test compares nothing")
        }

        @Test("CodingKeys: case order, raw names escaped for JSON, a left-out property keeps its default")
        func codingKeys() throws {
            let model = GeneratedRenamed(first: 1, second: "x", skipped: 99, default: true)
            let text = String(decoding: try DocumentCodec.encode(model), as: UTF8.self)
            #expect(text == #"{"a \"quoted\" \\ name\n":"x","default":true,"β":1}"#)
            #expect(try DocumentCodec.decode(GeneratedRenamed.self, from: #"{"β":2,"default":false,"skipped":5}"#)
                == GeneratedRenamed(first: 2, second: nil, skipped: 7, default: false))
            let missing = codingError { _ = try DocumentCodec.decode(GeneratedRenamed.self, from: #"{"default":false}"#) }
            #expect(missing == DocumentCodingError(.keyNotFound, at: "β", #"no value for key "β""#))
        }

        @Test("a generic member that is itself optional is written as null, not left out")
        func genericOptional() throws {
            let box = GeneratedBox<Int?>(content: nil, maybe: .some(nil), list: [nil, 1])
            #expect(try encodeText(box) == #"{"content":null,"maybe":null,"list":[null,1]}"#)
            #expect(try encodeText(GeneratedBox<Int?>(content: 1, maybe: nil, list: [])) == #"{"content":1,"list":[]}"#)
            try expectAgreement(box, "Box<Int?>", roundTrips: false)
        }

        @Test("hand-written encode(to:) and init(from:) are what the store runs")
        func handWritten() throws {
            let store = try DocumentStore.inMemory()
            let encoded = store.collection(HandEncoded.self, named: "encoded")
            try encoded.insert(HandEncoded(value: 3))
            let text = try #require(store.collection(named: "encoded").all().first)
            #expect(text == ["value": 3, "writer": "hand"])
            #expect(try encoded.all() == [HandEncoded(value: 3)])
            let decoded = store.collection(HandDecoded.self, named: "decoded")
            try decoded.insert(HandDecoded(value: 4))
            #expect(try decoded.all() == [HandDecoded(value: 40)])
        }

        @Test("the store writes the generated bytes and reads them back, in batches and one by one")
        func throughTheStore() throws {
            var generator = CodingRandom(seed: 11)
            let profiles = (0..<40).map { _ in generator.generatedProfile(maxDepth: 1) }
            let store = try DocumentStore.inMemory()
            let collection = store.collection(GeneratedProfile.self, named: "profiles")
            try collection.insert(contentsOf: profiles.prefix(30))
            for profile in profiles.dropFirst(30) { try collection.insert(profile) }
            var stored: [[UInt8]] = []
            try store.collection(named: "profiles").forEachStoredDocument(DocumentQuery()) { _, bytes in stored.append(Array(bytes)) }
            #expect(stored == (try profiles.map { try encodedThroughCodable($0) }))
            #expect(try collection.all() == profiles)
        }

        @Test("a document that decodes neither way names the key and path in the store's error")
        func storeErrors() throws {
            let store = try DocumentStore.inMemory()
            let untyped = store.collection(named: "stats")
            try untyped.insert(["battingAverage": 0.3, "homeRuns": "many", "small": 1, "big": 2])
            let error = try #require(throws: DocStoreError.self) { try store.collection(GeneratedStats.self, named: "stats").all() }
            guard case .decodingFailed(let collection, _, let codingPath, let reason) = error else {
                Issue.record("expected decodingFailed, got \(error)"); return
            }
            #expect(collection == "stats" && codingPath == "homeRuns")
            #expect(reason == #"expected Int64, found string "many""#)
        }
    }
}
