import Foundation
import Testing
@testable import DocStore

/// Groups, joins and computed values: the SQL compiler and the in-memory
/// evaluator give the same rows, in the same order, for random pipelines over
/// random documents (or both refuse the pipeline, or both overflow).
@Suite("Differential: pipelines (groups, joins, computed values)")
struct PipelineDifferentialTests {
    static var seeds: [UInt64] {
        if let text = ProcessInfo.processInfo.environment["DOCSTORE_SEED"], let seed = UInt64(text) { return [seed] }
        return [11, 12, 15]
    }

    @Test("at least 500 random pipelines per seed give the same rows in the same order", arguments: seeds)
    func randomPipelinesAgree(seed: UInt64) throws {
        try pipelinesAgree(seed: seed, columns: false)
    }

    /// Every document field the pipelines read kept in field columns (made
    /// before the documents on odd seeds, after on even ones).
    @Test("random pipelines agree when fields are read from field columns", arguments: seeds.map { $0 &+ 10 })
    func randomPipelinesAgreeOnFieldColumns(seed: UInt64) throws {
        try pipelinesAgree(seed: seed, columns: true)
    }

    func pipelinesAgree(seed: UInt64, columns: Bool) throws {
        var generator = RandomPipelines(rng: SeededGenerator(seed: seed))
        let store = try DocumentStore.inMemory()
        let main = store.collection(named: "main")
        let bodies = (1...60).map { _ in generator.document() }
        if columns && seed % 2 == 1 { try main.createFieldColumns(on: RandomPipelines.documentPaths) }
        try main.insert(contentsOf: bodies)
        if columns && seed % 2 == 0 { try main.createFieldColumns(on: RandomPipelines.documentPaths) }
        if seed % 2 == 0 {  // groups by indexed fields read the index in order
            try main.createIndex(on: FieldPath("g"))
            try main.createIndex(on: [FieldPath("h", "k"), FieldPath("t")])
        }
        // As stored (with the generated key as "id").
        let documents = Array(zip(try main.keys(DocumentQuery()), try main.fetch(DocumentQuery()))).map { (key: $0.0, document: $0.1) }
        let other = store.collection(named: "other")
        try other.insert(contentsOf: (1...8).map { _ in generator.otherDocument() })
        let others = Array(zip(try other.keys(DocumentQuery()), try other.fetch(DocumentQuery()))).map { (key: $0.0, document: $0.1) }
        if seed % 3 == 0 { try other.createIndex(on: FieldPath("code")) }  // joins by code seek the index
        if columns { try other.createFieldColumns(on: [FieldPath("code"), FieldPath("name")]) }  // or read its columns
        var failures = 0
        var grouped = 0
        for iteration in 0..<500 {
            let pipeline = generator.pipeline()
            let expected: Result<[JSONValue], any Error> = Result {
                try pipeline.run(on: documents, collection: "main", collections: { $0 == "other" ? others : nil })
            }
            let actual: Result<[JSONValue], any Error> = Result { try main.rows(pipeline) }
            if case .success(let rows) = expected, pipeline.stages.contains(where: { if case .group = $0 { true } else { false } }) {
                grouped += rows.isEmpty ? 0 : 1
            }
            if !Self.agree(actual, expected) {
                let sql = try? main.explain(pipeline).sql
                Issue.record("""
                    seed \(seed) iteration \(iteration): SQL and evaluator disagree
                    pipeline: \(pipeline)
                    SQL:       \(Self.text(actual))
                    evaluator: \(Self.text(expected))
                    sql: \(sql ?? "?")
                    """)
                failures += 1
                if failures > 3 { return }
            }
        }
        #expect(grouped > 100, "the random pipelines should produce many non-empty groups")
    }

    /// Same rows (compared as their JSON text: same members, same types, same
    /// order), or both failing with the same kind of error.
    static func agree(_ a: Result<[JSONValue], any Error>, _ b: Result<[JSONValue], any Error>) -> Bool {
        switch (a, b) {
        case let (.success(x), .success(y)):
            return x.map { DocumentCodec.serialize($0) } == y.map { DocumentCodec.serialize($0) }
        case let (.failure(x), .failure(y)):
            switch (x, y) {
            case (DocStoreError.invalidQuery(_, let f1, let r1), DocStoreError.invalidQuery(_, let f2, let r2)):
                return f1 == f2 && r1 == r2
            case (DocStoreError.invalidQuery(_, _, let reason), is AggregateOverflow):
                return reason.contains("overflows")
            default:
                return false
            }
        default:
            return false
        }
    }

    static func text(_ result: Result<[JSONValue], any Error>) -> String {
        switch result {
        case .success(let rows): rows.map { String(decoding: DocumentCodec.serialize($0), as: UTF8.self) }.joined(separator: "\n  ")
        case .failure(let error): "error: \(error)"
        }
    }
}

/// Computed values nested deep, and chains of them over several selects.
@Suite("Pipelines: deeply computed values")
struct DeepComputedValueTests {
    static func chain(_ terms: Int) -> ValueExpression {
        (1..<terms).reduce(ValueExpression.field(FieldPath("n"))) { sum, _ in .arithmetic(.add, sum, .field(FieldPath("n"))) }
    }

    @Test func fiveNestedOperationsRunAndSixAreRefusedAlike() throws {
        let store = try DocumentStore.inMemory()
        let docs = store.collection(named: "docs")
        try docs.insert(contentsOf: [["n": 2], ["n": 0.5], ["n": "x"]])
        let documents = Array(zip(try docs.keys(DocumentQuery()), try docs.fetch(DocumentQuery()))).map { (key: $0.0, document: $0.1) }
        let five = QueryPipeline(stages: [.select([NamedExpression("s", Self.chain(6))]),
                                          .select([NamedExpression("t", Self.chain(1).replacingField(with: "s"))]),
                                          .select([NamedExpression("u", .arithmetic(.multiply, .field(FieldPath("t")), .literal(2)))]),
                                          .refine(DocumentQuery(.compare(FieldPath("u"), .greater, 1), sort: [SortKey(FieldPath("u"))]))])
        let rows = try docs.rows(five)
        #expect(rows == [["u": 6.0], ["u": 24]])
        #expect(try five.run(on: documents, collection: "docs") == rows)
        let six = QueryPipeline(stages: [.select([NamedExpression("s", Self.chain(7))])])
        #expect(throws: DocStoreError.self) { try docs.rows(six) }
        #expect(throws: DocStoreError.self) { try six.run(on: documents, collection: "docs") }
    }
}

extension ValueExpression {
    /// The expression with its fields read from `name` instead.
    func replacingField(with name: String) -> ValueExpression {
        switch self {
        case .field: .field(FieldPath(name))
        case .literal: self
        case let .arithmetic(op, lhs, rhs): .arithmetic(op, lhs.replacingField(with: name), rhs.replacingField(with: name))
        case .double(let inner): .double(inner.replacingField(with: name))
        }
    }
}
