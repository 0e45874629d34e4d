/// Generates the typed fields of a `Codable` struct (or final class), so that
/// queries on its collection are checked by the compiler:
///
///     @Document
///     struct Player: Codable, Identifiable {
///         var id: Int
///         var lastName: String
///         var number: Int
///         var nickname: String?
///         var stats: Stats            // itself @Document
///     }
///
///     let found = try players.filter { $0.number >= 10; $0.stats.hits > 100 }.fetch()
///
/// The macro adds a conformance to ``QueryableDocument`` whose `Fields` struct has
/// one ``DocumentField`` per stored property, named as the property is stored in
/// JSON: a `CodingKeys` enum is honoured (its raw values name the members, and a
/// property it leaves out gets no field). Computed, static and `lazy` properties
/// get no field. Every stored property needs an explicit type annotation.
///
/// It also lists the stored properties' key paths (`_documentKeyPaths`), so a
/// Foundation `#Predicate` on the model works as a filter:
/// `players.filter(#Predicate { $0.number >= 10 })`.
///
/// The macro also generates the model's JSON coding (``DirectJSONEncodable`` and
/// ``DirectJSONDecodable``) when its `Codable` conformance is synthesized: the
/// store then writes and reads its documents without `Codable`'s containers,
/// producing exactly the bytes, values and errors `encode(to:)` and
/// `init(from:)` would. A hand-written `encode(to:)` or `init(from:)` declared
/// in the type keeps its direction on `Codable` (declare it in the type, not in
/// an extension in another file, which the macro can't see).
///
/// The generated extension and `Fields` struct are `nonisolated`, so a model works
/// in a module built with `.defaultIsolation(MainActor.self)`: declare it
/// `nonisolated struct Player` and its typed queries run off the main actor too.
@attached(
    extension, conformances: QueryableDocument, DirectJSONEncodable, DirectJSONDecodable,
    names: named(Fields), named(_documentKeyPaths), named(_encodeDirectJSON), named(init))
public macro Document() = #externalMacro(module: "DocStoreMacros", type: "DocumentMacro")

/// A `Codable` model whose documents can be queried with typed fields: the
/// ``Document()`` macro writes the conformance.
///
/// Models without the macro can conform by hand, either with a handwritten
/// `Fields` struct or with untyped fields:
///
///     extension Note: QueryableDocument {
///         typealias Fields = DynamicFields     // $0.text, $0["meta", "author"]
///     }
public protocol QueryableDocument: Codable {
    /// The model's fields, as a query's closures see them (`$0` in `filter { $0.number > 10 }`).
    associatedtype Fields: DocumentFieldSet

    /// The stored properties' key paths and the JSON members they are stored in,
    /// so a Foundation `#Predicate` on the model can be turned into a query.
    /// The ``Document()`` macro writes it; without the macro it is empty, and a
    /// predicate naming a property of the model can't be converted.
    static var _documentKeyPaths: [DocumentKeyPath] { get }
}

/// The typed fields of a ``QueryableDocument``, all rooted at one path: the
/// document itself, or an element of an array or a nested document.
///
/// The ``Document()`` macro generates conforming types; you rarely write one.
public protocol DocumentFieldSet: Sendable {
    /// The path the fields are relative to.
    var _path: FieldPath { get }
    /// Fields rooted at `_path`.
    init(_path: FieldPath)
}

extension DocumentFieldSet {
    /// An untyped field by its member names, for what the model does not declare
    /// (or for dynamic use): `$0["stats", "battingAverage"] >= 0.3`.
    public subscript(_ keys: String...) -> DocumentField<JSONValue> {
        DocumentField(_path.appending(FieldPath(keys.map(FieldPath.Component.key))))
    }

    /// An untyped field at a path relative to these fields.
    public subscript(path path: FieldPath) -> DocumentField<JSONValue> {
        DocumentField(_path.appending(path))
    }
}

/// Untyped fields, looked up by name: the fields of a ``JSONValue`` collection,
/// and of models that declare `typealias Fields = DynamicFields`.
///
///     let players = store.collection(named: "players")
///     try players.filter { $0.stats.battingAverage >= 0.3 }.count()
@dynamicMemberLookup
public struct DynamicFields: DocumentFieldSet {
    /// The path the fields are relative to.
    public let _path: FieldPath

    /// Fields rooted at `_path`.
    public init(_path: FieldPath) {
        self._path = _path
    }

    /// The member named `name`.
    public subscript(dynamicMember name: String) -> DocumentField<JSONValue> {
        DocumentField(_path.appending(name))
    }
}

/// Untyped collections (`store.collection(named:)`) are queried with ``DynamicFields``.
extension JSONValue: QueryableDocument {
    /// Untyped documents have untyped fields.
    public typealias Fields = DynamicFields
}
