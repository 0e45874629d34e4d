/// How the documents of one model type are encoded: through the model's
/// generated code when `@Document` gave it some (``DirectJSONEncodable``),
/// otherwise through its `encode(to:)`. Found once, with one dynamic cast, and
/// then used for every document of an operation (a batch insert, a migration).
struct DocumentEncoding<Model: Encodable> {
    private let direct: (any DirectJSONEncodable.Type)?

    init() {
        direct = Model.self as? any DirectJSONEncodable.Type
    }

    /// Whether documents go through generated code.
    var isDirect: Bool { direct != nil }

    /// Encodes into `encoder`'s buffer (reset first).
    func encode(_ model: Model, with encoder: StreamEncoder) throws(DocumentCodingError) {
        guard let direct else { return try DocumentCodec.encodeThroughCodable(model, with: encoder) }
        try Self.encode(model, as: direct, with: encoder)
    }

    /// `Direct` is `Model` (the cast said so): the value is only retyped.
    private static func encode<Direct: DirectJSONEncodable>(
        _ model: Model, as type: Direct.Type, with encoder: StreamEncoder
    ) throws(DocumentCodingError) {
        try encoder.encodeDirectDocument(reinterpret(model, as: Direct.self))
    }
}

/// How the documents of one model type are decoded: through the model's
/// generated initializer when it has one (``DirectJSONDecodable``), otherwise
/// through its `init(from:)`. Found once an operation, like ``DocumentEncoding``.
struct DocumentDecoding<Model: Decodable> {
    private let direct: (any DirectJSONDecodable.Type)?

    init() {
        direct = Model.self as? any DirectJSONDecodable.Type
    }

    /// Whether documents go through generated code.
    var isDirect: Bool { direct != nil }

    /// Decodes a model from a parsed document.
    func decode(from tape: JSONTape) throws(DocumentCodingError) -> Model {
        guard let direct else { return try DocumentCodec.decodeThroughCodable(Model.self, from: tape) }
        return try Self.decode(as: direct, from: tape)
    }

    private static func decode<Direct: DirectJSONDecodable>(
        as type: Direct.Type, from tape: JSONTape
    ) throws(DocumentCodingError) -> Model {
        reinterpret(try TapeDecoder(tape: tape).decodeDirectDocument(Direct.self), as: Model.self)
    }
}
