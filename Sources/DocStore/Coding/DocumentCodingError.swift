/// Why a value could not be encoded to, or decoded from, JSON.
///
/// Every error names where it happened as a human-readable coding path
/// (`stats.battingAverage`, `tags[2]`, `""` for the root), so a message printed
/// in a terminal points at the offending field without a debugger.
struct DocumentCodingError: Error, CustomStringConvertible, Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        /// The text is not valid JSON; `line` and `column` are 1-based, the column
        /// counts Unicode scalars (as an editor shows it).
        case invalidJSON(line: Int, column: Int)
        /// The JSON value has another type than the Swift one, or a number does
        /// not fit the Swift type exactly.
        case typeMismatch
        /// A non-optional value was `null`.
        case valueNotFound
        /// A required key is missing from an object.
        case keyNotFound
        /// The JSON has the right type but not a valid value (a malformed date,
        /// URL or UUID; an error thrown by a model's own `init(from:)`).
        case invalidValue
        /// The Swift value has no JSON representation (NaN, infinity, a date
        /// outside 0001...9999, containers written out of order).
        case unsupportedValue
        /// The value nests arrays and objects deeper than
        /// ``DocumentStore/maximumNestingDepth``.
        case nestingTooDeep
    }

    var kind: Kind
    /// Where the error happened: `stats.battingAverage`, `tags[2]`, `""` for the root.
    var codingPath: String
    /// What went wrong, e.g. `expected Int, found string "abc"`.
    var reason: String

    init(kind: Kind, codingPath: String, reason: String) {
        self.init(kind, at: codingPath, reason)
    }

    init(_ kind: Kind, at codingPath: String, _ reason: String) {
        self.kind = kind
        self.codingPath = codingPath
        self.reason = reason
    }

    init(_ kind: Kind, at path: [any CodingKey], _ reason: String) {
        self.init(kind, at: CodingPathFormatter.render(path), reason)
    }

    var description: String {
        switch kind {
        case .invalidJSON(let line, let column):
            return "invalid JSON at line \(line), column \(column): \(reason)"
        default:
            return codingPath.isEmpty ? "at the root: \(reason)" : "at \(codingPath): \(reason)"
        }
    }
}

/// Renders coding keys the way a Swift programmer writes the access:
/// `team.players[2].name`.
enum CodingPathFormatter {
    static func render(_ path: [any CodingKey]) -> String {
        var text = ""
        for key in path {
            append(key, to: &text)
        }
        return text
    }

    static func append(_ key: any CodingKey, to text: inout String) {
        // Keys made by unkeyed containers carry only an index; keyed containers
        // have a string value (synthesized keys may also have an intValue, which
        // must not turn `a.b` into `a[0]`).
        if let index = key.intValue, key is IndexCodingKey {
            text += "[\(index)]"
        } else {
            if !text.isEmpty { text += "." }
            text += key.stringValue
        }
    }
}

/// The key of an element of an unkeyed container (array): its index.
struct IndexCodingKey: CodingKey {
    var intValue: Int?
    var stringValue: String { intValue.map { "Index \($0)" } ?? "" }

    init(_ index: Int) { intValue = index }
    init?(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { nil }
}

/// A key built from a string, for `superEncoder()` ("super") and dictionary keys.
struct StringCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }

    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { stringValue = String(intValue) }
}

extension DocumentCodingError {
    /// Converts anything a model's own `encode(to:)` / `init(from:)` threw, so the
    /// codec's typed throws hold even when user code throws Foundation's errors.
    static func wrap(_ error: any Error, at path: [any CodingKey]) -> DocumentCodingError {
        if let error = error as? DocumentCodingError { return error }
        if let error = error as? DecodingError {
            switch error {
            case .typeMismatch(_, let context):
                return DocumentCodingError(.typeMismatch, at: context.codingPath, context.debugDescription)
            case .valueNotFound(_, let context):
                return DocumentCodingError(.valueNotFound, at: context.codingPath, context.debugDescription)
            case .keyNotFound(let key, let context):
                return DocumentCodingError(.keyNotFound, at: context.codingPath + [key],
                                           "no value for key \"\(key.stringValue)\"")
            case .dataCorrupted(let context):
                return DocumentCodingError(.invalidValue, at: context.codingPath, context.debugDescription)
            @unknown default:
                return DocumentCodingError(.invalidValue, at: path, "\(error)")
            }
        }
        if let error = error as? EncodingError {
            switch error {
            case .invalidValue(_, let context):
                return DocumentCodingError(.unsupportedValue, at: context.codingPath, context.debugDescription)
            @unknown default:
                return DocumentCodingError(.unsupportedValue, at: path, "\(error)")
            }
        }
        return DocumentCodingError(.invalidValue, at: path, "\(error)")
    }
}
