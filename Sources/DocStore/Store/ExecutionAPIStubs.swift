// TEMPORARY: stand-ins for the execution API being written on another branch,
// with its exact signatures, so that the typed DSL builds. Every method throws.
// Delete this file when the real API is merged.

/// Stand-in for the real type (SQL, bindings and SQLite's plan of a query).
public struct QueryExplanation: Sendable {}

/// Stand-in for the real type (an index recorded in the catalog).
public struct IndexInfo: Sendable {}

extension DocumentCollection {
    private func notYetImplemented() -> DocStoreError {
        .database(message: "query execution is not implemented yet (ExecutionAPIStubs.swift)", collection: name)
    }

    public func fetch(_ query: DocumentQuery) throws -> [Model] { throw notYetImplemented() }
    public func forEach(_ query: DocumentQuery, _ body: (Model) throws -> Void) throws { throw notYetImplemented() }
    public func first(_ query: DocumentQuery) throws -> Model? { throw notYetImplemented() }
    public func count(_ query: DocumentQuery) throws -> Int { throw notYetImplemented() }
    public func exists(_ query: DocumentQuery) throws -> Bool { throw notYetImplemented() }
    public func keys(_ query: DocumentQuery) throws -> [DocumentKey] { throw notYetImplemented() }
    public func select(_ query: DocumentQuery, fields: [FieldPath]) throws -> [[JSONValue]] { throw notYetImplemented() }
    public func aggregate(_ query: DocumentQuery, _ aggregate: Aggregate) throws -> JSONValue { throw notYetImplemented() }
    public func delete(_ query: DocumentQuery) throws -> Int { throw notYetImplemented() }
    public func update(_ query: DocumentQuery, _ updates: [FieldUpdate]) throws -> Int { throw notYetImplemented() }
    public func explain(_ query: DocumentQuery) throws -> QueryExplanation { throw notYetImplemented() }
    public func createIndex(on fields: [FieldPath], unique: Bool = false) throws -> IndexInfo { throw notYetImplemented() }
    public func dropIndex(on fields: [FieldPath]) throws -> Bool { throw notYetImplemented() }
    public func indexes() throws -> [IndexInfo] { throw notYetImplemented() }
}
