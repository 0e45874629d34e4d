/// A path to a value inside a document: member names and array positions,
/// such as `stats.battingAverage` or `tags[2]`.
///
/// Member names may hold any character (dots, quotes, brackets, `$`, emoji):
/// a path is a list of components, never a string that must be re-parsed.
public struct FieldPath: Hashable, Sendable {
    /// One step into a document. Member names are equal when their bytes
    /// are (see `ExactText`): `"é"` composed and decomposed are two members.
    public enum Component: Hashable, Sendable {
        /// An object member, by name.
        case key(String)
        /// An array element, by zero-based position.
        case index(Int)

        public static func == (lhs: Component, rhs: Component) -> Bool {
            switch (lhs, rhs) {
            case let (.key(a), .key(b)): ExactText.same(a, b)
            case let (.index(a), .index(b)): a == b
            default: false
            }
        }

        public func hash(into hasher: inout Hasher) {
            switch self {
            case .key(let name): hasher.combine(0); ExactText.combine(name, into: &hasher)
            case .index(let position): hasher.combine(1); hasher.combine(position)
            }
        }
    }

    /// The steps from the document root.
    public var components: [Component]

    /// A path from its components.
    public init(_ components: [Component]) {
        self.components = components
    }

    /// A path of member names: `FieldPath("stats", "battingAverage")`.
    public init(_ keys: String...) {
        self.components = keys.map(Component.key)
    }

    /// The document itself (an empty path).
    public static let root = FieldPath([])

    /// This path extended by a member name.
    public func appending(_ key: String) -> FieldPath {
        FieldPath(components + [.key(key)])
    }

    /// This path extended by an array position.
    public func appending(index: Int) -> FieldPath {
        FieldPath(components + [.index(index)])
    }

    /// This path followed by `other` (for paths relative to an array element).
    public func appending(_ other: FieldPath) -> FieldPath {
        FieldPath(components + other.components)
    }
}

extension FieldPath: CustomStringConvertible {
    /// The path as the DSL writes it: `stats.battingAverage`, `tags[2]`; members
    /// that aren't plain identifiers in brackets and quotes: `extra["odd.key"]`.
    public var description: String {
        var text = ""
        for component in components {
            switch component {
            case .key(let key) where Self.isPlainIdentifier(key):
                text += text.isEmpty ? key : "." + key
            case .key(let key):
                text += "[" + DocumentKey.quoted(key) + "]"
            case .index(let index):
                text += "[\(index)]"
            }
        }
        return text
    }

    static func isPlainIdentifier(_ key: String) -> Bool {
        guard let first = key.unicodeScalars.first, first == "_" || first.properties.isAlphabetic else { return false }
        return key.unicodeScalars.allSatisfy { $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0) }
    }
}
