import SwiftDiagnostics

/// The errors `@Document` reports.
enum DocumentDiagnostic: DiagnosticMessage {
    case notCodable
    case classNotFinal
    case enumNotSupported
    case actorNotSupported
    case notAType
    case missingType(String)
    case unsupportedPattern

    var message: String {
        switch self {
        case .notCodable:
            "@Document requires a Codable type: declare 'Codable' on the type itself (restating it is fine when another protocol implies it)"
        case .classNotFinal:
            "@Document requires a class to be 'final': a subclass could store properties its fields don't know"
        case .enumNotSupported:
            "@Document can't be applied to an enum: an enum is stored as a single value; use it as the type of a property of a @Document struct"
        case .actorNotSupported:
            "@Document can't be applied to an actor: an actor isn't a Codable value; store a struct"
        case .notAType:
            "@Document applies to a struct or a final class"
        case .missingType(let name):
            "@Document needs the type of '\(name)' to be written out ('var \(name): Type')"
        case .unsupportedPattern:
            "@Document can't read a tuple pattern: declare each stored property on its own"
        }
    }

    var diagnosticID: MessageID {
        let name = switch self {
        case .notCodable: "notCodable"
        case .classNotFinal: "classNotFinal"
        case .enumNotSupported: "enumNotSupported"
        case .actorNotSupported: "actorNotSupported"
        case .notAType: "notAType"
        case .missingType: "missingType"
        case .unsupportedPattern: "unsupportedPattern"
        }
        return MessageID(domain: "DocStoreMacros", id: name)
    }

    var severity: DiagnosticSeverity { .error }
}

/// The fix-its `@Document` offers.
enum DocumentFixIt: FixItMessage {
    case addCodable
    case addFinal
    case addType(String)

    var message: String {
        switch self {
        case .addCodable: "Add 'Codable'"
        case .addFinal: "Make the class 'final'"
        case .addType(let type): "Add ': \(type)'"
        }
    }

    var fixItID: MessageID {
        let name = switch self {
        case .addCodable: "addCodable"
        case .addFinal: "addFinal"
        case .addType: "addType"
        }
        return MessageID(domain: "DocStoreMacros", id: name)
    }
}
