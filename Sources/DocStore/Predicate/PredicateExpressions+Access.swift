import Foundation

// Reaching into the document: key paths, optional chaining, `??`, dictionary subscripts.

extension PredicateExpressions.KeyPath: ConvertiblePredicateExpression {
    func convert(_ converter: inout PredicateConverter) throws(PredicateConversionError) -> PredicateTerm {
        let base = try converter.term(of: root)
        if let folded = try converter.folded(self, base) { return folded }
        guard case .field(let path) = base else {
            throw PredicateConversionError(self, field: base.path, reason: "\(keyPath) is read from a computed value, not from a stored field")
        }
        return try PredicateConverter.member(keyPath, of: Root.Output.self, at: path, in: self)
    }
}

extension PredicateConverter {
    /// The term for `keyPath` on the stored value of type `type` at `path`: a
    /// stored property of a model (under its JSON member name), or an array's
    /// `count`, `isEmpty` or `first`, or a string's `isEmpty`.
    static func member(
        _ keyPath: AnyKeyPath, of type: Any.Type, at path: FieldPath, in expression: Any
    ) throws(PredicateConversionError) -> PredicateTerm {
        if let model = type as? any QueryableDocument.Type {
            if let member = model.storedMember(for: keyPath) {
                return .field(path.appending(member))
            }
            let reason = model._documentKeyPaths.isEmpty
                ? "\(type) lists no key paths (declare it with @Document), so \(name(of: keyPath)) can't be named"
                : "\(name(of: keyPath)) is not a stored property of \(type) (computed, static, lazy and properties CodingKeys leave out aren't stored)"
            throw PredicateConversionError(expression, field: path, reason: reason)
        }
        if let array = type as? any PredicateArrayField.Type {
            if keyPath == array.countKeyPath { return .arrayCount(path) }
            if keyPath == array.isEmptyKeyPath { return .condition(.arrayCount(path, .equal, 0)) }
            // The first stored element is the first decoded one for an Array
            // (not for a Set, whose order changes from process to process).
            if let first = array.firstKeyPath, keyPath == first { return .field(path.appending(index: 0)) }
        }
        if type == String.self, keyPath == \String.isEmpty {
            return .condition(.compare(path, .equal, .string("")))
        }
        let reason = "\(name(of: keyPath)) has no DocStore equivalent on a stored \(type) (a nested model's properties need @Document on the nested type)"
        throw PredicateConversionError(expression, field: path, reason: reason)
    }
}

extension PredicateConverter {
    /// A key path as Swift prints it (`\Player.number`), or, for a computed
    /// property, which Swift can't name at run time, its value type.
    static func name(of keyPath: AnyKeyPath) -> String {
        let text = String(describing: keyPath)
        guard text.contains("<computed") else { return text }
        return "a computed property (of type \(Swift.type(of: keyPath).valueType))"
    }
}

/// Arrays and sets, stored as JSON arrays: their `count` and `isEmpty` key paths.
protocol PredicateArrayField {
    static var countKeyPath: AnyKeyPath { get }
    static var isEmptyKeyPath: AnyKeyPath { get }
    static var firstKeyPath: AnyKeyPath? { get }
}

extension Array: PredicateArrayField {
    static var countKeyPath: AnyKeyPath { \Self.count }
    static var isEmptyKeyPath: AnyKeyPath { \Self.isEmpty }
    static var firstKeyPath: AnyKeyPath? { \Self.first }
}

extension Set: PredicateArrayField {
    static var countKeyPath: AnyKeyPath { \Self.count }
    static var isEmptyKeyPath: AnyKeyPath { \Self.isEmpty }
    static var firstKeyPath: AnyKeyPath? { nil }
}

extension PredicateExpressions.OptionalFlatMap: ConvertiblePredicateExpression {
    /// Optional chaining, `$0.agent?.name`: the member's path, since a missing or
    /// null document has missing members, which are `nil` as the chain is.
    func convert(_ converter: inout PredicateConverter) throws(PredicateConversionError) -> PredicateTerm {
        let base = try converter.term(of: wrapped)
        if let folded = try converter.folded(self, base) { return folded }
        guard case .field(let path) = base else {
            throw PredicateConversionError(self, field: base.path, reason: "optional chaining on a computed value")
        }
        let member = try converter.converting(variable.key, boundTo: path) {
            converter throws(PredicateConversionError) in try converter.term(of: transform)
        }
        guard case .field = member else {
            throw PredicateConversionError(self, field: path, reason: """
                optional chaining or flatMap converts only when it reads a stored member (`$0.agent?.name`); \
                compare the member instead
                """)
        }
        return member
    }
}

extension PredicateExpressions.NilCoalesce: ConvertiblePredicateExpression {
    /// `field ?? value`.
    func convert(_ converter: inout PredicateConverter) throws(PredicateConversionError) -> PredicateTerm {
        let (optional, fallback) = (try converter.term(of: lhs), try converter.term(of: rhs))
        if let folded = try converter.folded(self, optional, fallback) { return folded }
        guard case .field(let path) = optional, case .constant(let value) = fallback else {
            throw PredicateConversionError(self, field: optional.path, reason: "?? converts with a stored field on its left and a value on its right")
        }
        return .defaulted(path, value)
    }
}

extension PredicateExpressions.DictionaryKeySubscript: ConvertiblePredicateExpression {
    /// `$0.extra["rings"]`: the member of the stored object (`nil` when missing).
    func convert(_ converter: inout PredicateConverter) throws(PredicateConversionError) -> PredicateTerm {
        let (dictionary, keyTerm) = (try converter.term(of: wrapped), try converter.term(of: key))
        if let folded = try converter.folded(self, dictionary, keyTerm) { return folded }
        return .field(try PredicateConverter.member(of: dictionary, key: keyTerm, in: self))
    }
}

extension PredicateExpressions.DictionaryKeyDefaultValueSubscript: ConvertiblePredicateExpression {
    /// `$0.extra["rings", default: 0]`.
    func convert(_ converter: inout PredicateConverter) throws(PredicateConversionError) -> PredicateTerm {
        let (dictionary, keyTerm) = (try converter.term(of: wrapped), try converter.term(of: key))
        let fallback = try converter.term(of: self.default)
        if let folded = try converter.folded(self, dictionary, keyTerm, fallback) { return folded }
        guard case .constant(let value) = fallback else {
            throw PredicateConversionError(self, field: dictionary.path, reason: "the default value depends on the document")
        }
        return .defaulted(try PredicateConverter.member(of: dictionary, key: keyTerm, in: self), value)
    }
}

extension PredicateConverter {
    /// The path of a string-keyed dictionary field's member (other keys aren't
    /// stored as JSON object members).
    static func member(of dictionary: PredicateTerm, key: PredicateTerm, in expression: Any) throws(PredicateConversionError) -> FieldPath {
        guard case .field(let path) = dictionary, case .constant(let keyValue) = key else {
            throw PredicateConversionError(expression, field: dictionary.path, reason: "a dictionary subscript converts with a stored dictionary and a key known before the query")
        }
        guard let name = keyValue as? String else {
            throw PredicateConversionError(expression, field: path, reason: "a dictionary with \(type(of: keyValue)) keys isn't stored as a JSON object; only String keys convert")
        }
        return path.appending(name)
    }
}
