import DocStore

/// What the parser and the completer know about the store: its collections and
/// the fields seen in a sample of each one's documents. The parser uses it to
/// suggest names for typos and to tell an array's `contains` from a string's.
public protocol SchemaProvider {
    /// The collections in the store.
    func collectionNames() -> [String]
    /// The field paths seen in sampled documents of `collection`, with the JSON
    /// types seen at each (`JSONValue.typeName`, `true`/`false` as `boolean`).
    func fieldTypes(in collection: String) -> [FieldPath: Set<String>]
    /// The fields that `collection`'s indexes are on: known fields even when no
    /// sampled document has them yet.
    func indexedFields(in collection: String) -> [FieldPath]
    /// Whether ``fieldTypes(in:)`` read every document of `collection`, not a sample.
    func sampledEveryDocument(in collection: String) -> Bool
    /// Whether ``collectionNames()`` is what the store holds: false when the
    /// store could not list its collections (a damaged file), so that a name
    /// missing from the list is not called unknown.
    func listsCollections() -> Bool
    /// Whether the store compares numbers a Double can't hold exactly as their
    /// nearest Double (a file: SQLite reads them so); PostgreSQL compares them
    /// exactly.
    func comparesNumbersAsDoubles() -> Bool
}

extension SchemaProvider {
    public func listsCollections() -> Bool { true }
    /// As a file does.
    public func comparesNumbersAsDoubles() -> Bool { true }
}

extension SchemaProvider {
    /// No indexes.
    public func indexedFields(in collection: String) -> [FieldPath] { [] }
    /// A sample.
    public func sampledEveryDocument(in collection: String) -> Bool { false }
}

/// A fixed schema: for tests, and for parsing without a store.
public struct StaticSchema: SchemaProvider, Sendable {
    public var collections: [String: [FieldPath: Set<String>]]

    public init(_ collections: [String: [FieldPath: Set<String>]] = [:]) {
        self.collections = collections
    }

    public func collectionNames() -> [String] { collections.keys.sorted() }
    public func fieldTypes(in collection: String) -> [FieldPath: Set<String>] { collections[collection] ?? [:] }
}
