/// The codec's entry points for the benchmark package only
/// (`@_spi(Benchmarks) import DocStore` in Benchmarks/): not public API, and not
/// part of any compatibility promise. They forward to ``DocumentCodec`` unchanged,
/// so the codec micro-benchmark measures exactly what the store calls.
@_spi(Benchmarks)
public enum BenchmarkCodec {
    /// The document's JSON bytes, as the store writes them.
    public static func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        try DocumentCodec.encode(value)
    }

    /// The value decoded from a document's JSON bytes, as the store reads them.
    public static func decode<T: Decodable>(_ type: T.Type, from bytes: UnsafeRawBufferPointer) throws -> T {
        try DocumentCodec.decode(type, from: bytes)
    }

    /// The document's JSON bytes through the model's `encode(to:)`, even when
    /// `@Document` generated direct coding for it: the figure before that code.
    public static func encodeThroughCodable<T: Encodable>(_ value: T) throws -> [UInt8] {
        let encoder = StreamEncoder()
        try DocumentCodec.encodeThroughCodable(value, with: encoder)
        return encoder.bytes.array
    }

    /// The value decoded through its `init(from:)`, even when `@Document`
    /// generated direct coding for it.
    public static func decodeThroughCodable<T: Decodable>(_ type: T.Type, from bytes: UnsafeRawBufferPointer) throws -> T {
        try DocumentCodec.decodeThroughCodable(type, from: bytes)
    }
}
