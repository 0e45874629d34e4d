/// A stored property of a model, as the ``Document()`` macro lists it for
/// `#Predicate` conversion: its key path and the JSON member it is stored in.
///
/// Swift cannot name a key path at run time, so the key paths a `Predicate`
/// holds are looked up in this table, which the macro writes from the same
/// stored properties and `CodingKeys` as the model's typed fields.
///
/// Not `Sendable`: the key paths of a main-actor model's properties aren't. The
/// converter only compares them with a predicate's, never reads through them.
public struct DocumentKeyPath {
    /// The property's key path on the model (`\Player.firstName`).
    public let keyPath: AnyKeyPath
    /// The JSON member the property is stored in (`first_name` when `CodingKeys` renames it).
    public let member: String

    /// The entry for a stored property.
    public init<Root, Value>(_ keyPath: KeyPath<Root, Value>, _ member: String) {
        self.keyPath = keyPath
        self.member = member
    }
}

extension QueryableDocument {
    /// No key paths: a model conforming without the ``Document()`` macro (whose
    /// `#Predicate`s can't name its properties) unless it lists them itself.
    public static var _documentKeyPaths: [DocumentKeyPath] { [] }
}

extension QueryableDocument {
    /// The JSON member a key path of this model is stored in, when it is one of
    /// the listed stored properties.
    static func storedMember(for keyPath: AnyKeyPath) -> String? {
        _documentKeyPaths.first { $0.keyPath == keyPath }?.member
    }
}
