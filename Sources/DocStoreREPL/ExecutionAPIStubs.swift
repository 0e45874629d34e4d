// TEMPORARY: stand-ins for the query execution API that another engineer is
// adding to DocumentCollection (same signatures). They let the REPL build before
// that API is on main; every one of them throws. Delete this file when merging main
// brings the real API.
import DocStore

/// Thrown by every stub: the operation needs the query execution API.
struct ExecutionAPIUnavailable: Error, CustomStringConvertible {
    var operation: String
    var description: String { "\(operation) is not available yet: the query execution API has not landed" }
}

/// True while this file stands in for the real API (tests of query execution
/// are enabled only once it is gone).
let executionAPIIsStubbed = true

/// An index recorded in the catalog.
public struct IndexInfo: Hashable, Sendable {
    public var name: String
    public var collection: String
    public var fields: [FieldPath]
    public var isUnique: Bool
}

/// How SQLite runs a query.
public struct QueryExplanation: CustomStringConvertible, Sendable {
    public var description: String
}

extension DocumentCollection {
    public func fetch(_ query: DocumentQuery) throws -> [Model] { throw ExecutionAPIUnavailable(operation: "fetch") }
    public func forEach(_ query: DocumentQuery, _ body: (Model) throws -> Void) throws { throw ExecutionAPIUnavailable(operation: "forEach") }
    public func first(_ query: DocumentQuery) throws -> Model? { throw ExecutionAPIUnavailable(operation: "first") }
    public func count(_ query: DocumentQuery) throws -> Int { throw ExecutionAPIUnavailable(operation: "count") }
    public func exists(_ query: DocumentQuery) throws -> Bool { throw ExecutionAPIUnavailable(operation: "exists") }
    public func keys(_ query: DocumentQuery) throws -> [DocumentKey] { throw ExecutionAPIUnavailable(operation: "keys") }
    public func select(_ query: DocumentQuery, fields: [FieldPath]) throws -> [[JSONValue]] { throw ExecutionAPIUnavailable(operation: "select") }
    public func aggregate(_ query: DocumentQuery, _ aggregate: Aggregate) throws -> JSONValue { throw ExecutionAPIUnavailable(operation: "aggregate") }
    public func delete(_ query: DocumentQuery) throws -> Int { throw ExecutionAPIUnavailable(operation: "delete") }
    public func update(_ query: DocumentQuery, _ updates: [FieldUpdate]) throws -> Int { throw ExecutionAPIUnavailable(operation: "update") }
    public func explain(_ query: DocumentQuery) throws -> QueryExplanation { throw ExecutionAPIUnavailable(operation: "explain") }
    public func createIndex(on fields: [FieldPath], unique: Bool = false) throws -> IndexInfo { throw ExecutionAPIUnavailable(operation: "createIndex") }
    public func dropIndex(on fields: [FieldPath]) throws -> Bool { throw ExecutionAPIUnavailable(operation: "dropIndex") }
    public func indexes() throws -> [IndexInfo] { throw ExecutionAPIUnavailable(operation: "indexes") }
}
