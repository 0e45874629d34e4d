/// Encodes and decodes a collection's documents, naming the collection and key in
/// every error. Untyped collections (`JSONValue`) skip Codable altogether; models
/// with generated coding (`@Document`) use it. Loops over many documents find the
/// model's coding once (`encoding:` / `decoding:`), not once a document.
enum ModelCoding {
    /// Encodes a model to JSON text, for callers that keep the bytes beyond one call.
    static func encode<Model: Encodable>(_ model: Model, collection: String, key: DocumentKey?) throws -> [UInt8] {
        try withEncoded(model, collection: collection, key: key) { Array($0) }
    }

    /// Encodes a model with a reusable encoder and passes its JSON text to `body`
    /// without copying it.
    static func withEncoded<Model: Encodable, R>(
        _ model: Model, encoder: StreamEncoder = StreamEncoder(), encoding: DocumentEncoding<Model> = .init(),
        collection: String, key: DocumentKey?, _ body: (UnsafeRawBufferPointer) throws -> R
    ) throws -> R {
        if Model.self == JSONValue.self, let json = model as? JSONValue {
            guard let bytes = DocumentCodec.serializeDocument(json) else {
                throw DocStoreError.nestingTooDeep(collection: collection, key: key, limit: DocumentStore.maximumNestingDepth)
            }
            return try bytes.withUnsafeBytes(body)
        }
        do {
            try DocumentCodec.encode(model, with: encoder, as: encoding)
        } catch where error.kind == .nestingTooDeep {
            throw DocStoreError.nestingTooDeep(collection: collection, key: key, limit: DocumentStore.maximumNestingDepth)
        } catch {
            throw DocStoreError.encodingFailed(collection: collection, key: key, codingPath: error.codingPath, reason: error.reason)
        }
        return try encoder.bytes.withUnsafeBytes(body)
    }

    static func decode<Model: Decodable>(
        _ type: Model.Type, from bytes: UnsafeRawBufferPointer, collection: String, key: DocumentKey,
        decoding: DocumentDecoding<Model> = .init()
    ) throws -> Model {
        do {
            if Model.self == JSONValue.self, let json = try DocumentCodec.parse(bytes) as? Model {
                return json
            }
            return try DocumentCodec.decode(type, from: bytes, as: decoding)
        } catch {
            if case .invalidJSON = error.kind {
                throw DocStoreError.corruptDocument(collection: collection, key: key, reason: error.description)
            }
            throw DocStoreError.decodingFailed(collection: collection, key: key, codingPath: error.codingPath, reason: error.reason)
        }
    }
}
