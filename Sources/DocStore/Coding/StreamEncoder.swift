import Foundation

/// The `Encoder` behind `DocumentCodec.encode`: it appends JSON text to one byte
/// buffer while the model's `encode(to:)` runs — no intermediate tree, no
/// per-value allocation.
///
/// Streaming needs to know when a container is finished. Open containers are
/// kept on a stack of frames; writing into a container closes every container
/// opened inside it since (they are complete by then), and finishing a value
/// closes whatever it opened. Using a container after a sibling or its parent
/// has moved on (which a tree-building encoder would allow) is detected through
/// frame ids and reported as `unsupportedValue` instead of writing wrong JSON.
/// `superEncoder()` gets a separate buffer, spliced in when its parent closes.
///
/// An encoder is used by one call on one thread, and no access to its state
/// ever overlaps another, so the dynamic exclusivity checks Swift would do on
/// every class property access (a measurable share of encoding time) are
/// turned off for the hot properties with `@exclusivity(unchecked)`.
final class StreamEncoder: Encoder {
    @exclusivity(unchecked) var bytes = ByteBuffer()
    @exclusivity(unchecked) var codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    struct Frame {
        var id: UInt32
        var isObject: Bool
        var count: Int
    }

    /// Identifies an open container: its depth on the stack and its id, so a
    /// stale container is recognised.
    struct FrameRef {
        var depth: UInt32
        var id: UInt32
    }

    // Not private: the generated-coding path (StreamEncoder+Direct.swift) keeps
    // the same frames, base and depth as `writeNested` does.
    @exclusivity(unchecked) var frames: [Frame] = []
    @exclusivity(unchecked) private var nextFrameID: UInt32 = 1
    /// `frames.count` and `bytes.count` when the value being encoded began.
    @exclusivity(unchecked) var base = 0
    @exclusivity(unchecked) var valueStart = 0
    /// Super encoders, written into their frame when it closes.
    @exclusivity(unchecked) private var deferred: [(frameID: UInt32, key: String?, encoder: StreamEncoder)] = []
    /// The first misuse seen by a method that cannot throw.
    private(set) var misuse: DocumentCodingError?
    /// How many containers enclose this encoder's value in the document: 0, but
    /// for a `superEncoder()`, whose text is spliced into its parent's container.
    var enclosingDepth = 0

    /// Whether nothing has been written yet for the current value.
    var isAtValueStart: Bool { frames.count == base && bytes.count == valueStart }

    init(codingPath: [any CodingKey] = []) {
        self.codingPath = codingPath
    }

    /// Makes the encoder ready for another document, keeping its buffers: a batch
    /// of inserts then allocates nothing per document for them.
    func reset() {
        bytes.removeAll()
        codingPath.removeAll(keepingCapacity: true)
        frames.removeAll(keepingCapacity: true)
        nextFrameID = 1
        base = 0
        valueStart = 0
        deferred.removeAll()
        misuse = nil
    }

    // MARK: Frames

    func openFrame(isObject: Bool) -> FrameRef {
        if frames.count + enclosingDepth >= DocumentStore.maximumNestingDepth { recordNestingTooDeep() }
        bytes.append(isObject ? UInt8(ascii: "{") : UInt8(ascii: "["))
        let id = nextFrameID
        nextFrameID &+= 1
        frames.append(Frame(id: id, isObject: isObject, count: 0))
        return FrameRef(depth: UInt32(frames.count - 1), id: id)
    }

    func closeFrames(downTo depth: Int) {
        while frames.count > depth {
            if !deferred.isEmpty { flushDeferred(frameIndex: frames.count - 1) }
            let frame = frames.removeLast()
            bytes.append(frame.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
        }
    }

    /// Starts the next member of a container: closes containers nested in it,
    /// writes the separator and the key. Returns false when the container is no
    /// longer the one open at its depth; the caller then reports `staleContainer`.
    func beginElement(_ frame: FrameRef, key: String?) -> Bool {
        let depth = Int(frame.depth)
        guard depth < frames.count, frames[depth].id == frame.id else { return false }
        if frames.count > depth + 1 { closeFrames(downTo: depth + 1) }
        if frames[depth].count > 0 { bytes.append(UInt8(ascii: ",")) }
        frames[depth].count += 1
        if let key {
            JSONWriter.appendString(key, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
        }
        return true
    }

    func elementCount(_ frame: FrameRef) -> Int {
        let depth = Int(frame.depth)
        guard depth < frames.count, frames[depth].id == frame.id else { return 0 }
        return frames[depth].count
    }

    /// Records that a container opens one level deeper than DocStore's limit
    /// (the encoding then fails; `writeNested` stops descending further).
    private func recordNestingTooDeep() {
        guard misuse?.kind != .nestingTooDeep else { return }
        misuse = DocumentCodingError(.nestingTooDeep, at: codingPath,
                                     "nests arrays and objects deeper than \(DocumentStore.maximumNestingDepth) levels")
    }

    func recordMisuse(at path: [any CodingKey], _ reason: String) {
        if misuse == nil { misuse = DocumentCodingError(.unsupportedValue, at: path, reason) }
    }

    /// Records and returns the error for a write into a container that was
    /// already closed (kept off `beginElement`'s fast path).
    @discardableResult
    func staleContainer(at path: [any CodingKey]) -> DocumentCodingError {
        recordMisuse(at: path, "a container was written to after a later container; encode members in order")
        return misuse ?? DocumentCodingError(.unsupportedValue, at: path, "container used out of order")
    }

    // MARK: Values

    /// Writes any value at the current position (after a key or separator).
    func writeValue<T: Encodable>(_ value: T, path: [any CodingKey], key: (any CodingKey)?) throws {
        // The common primitives first: a metatype comparison each, no dynamic cast.
        if T.self == String.self {
            JSONWriter.appendString(reinterpret(value, as: String.self), to: &bytes)
        } else if T.self == Int.self {
            JSONWriter.appendInteger(reinterpret(value, as: Int.self), to: &bytes)
        } else if T.self == Double.self {
            try writeFloatingPoint(reinterpret(value, as: Double.self), path: path, key: key)
        } else if T.self == Bool.self {
            writeBool(reinterpret(value, as: Bool.self))
        } else if T.self == Date.self {
            guard ISO8601Date.append(reinterpret(value, as: Date.self), to: &bytes) else {
                throw DocumentCodingError(.unsupportedValue, at: extendedPath(path, key),
                                          "dates must be finite and within years 0001...9999")
            }
        } else if T.self == Data.self {
            JSONWriter.appendString(reinterpret(value, as: Data.self).base64EncodedString(), to: &bytes)
        } else if T.self == URL.self {
            JSONWriter.appendString(reinterpret(value, as: URL.self).absoluteString, to: &bytes)
        } else if T.self == Decimal.self {
            let decimal = reinterpret(value, as: Decimal.self)
            guard !decimal.isNaN else {
                throw DocumentCodingError(.unsupportedValue, at: extendedPath(path, key), "Decimal.nan cannot be stored in JSON")
            }
            // `description` is plain notation with the exact digits.
            bytes.append(utf8: decimal.description)
        } else {
            try writeNested(value, path: path, key: key)
        }
    }

    /// Runs a value's own `encode(to:)` with this encoder positioned on it.
    private func writeNested<T: Encodable>(_ value: T, path: [any CodingKey], key: (any CodingKey)?) throws {
        // Past the limit the encoding has failed already: stop a recursive model
        // here rather than at the end of the stack.
        if frames.count + enclosingDepth > DocumentStore.maximumNestingDepth, let misuse { throw misuse }
        // Keep `codingPath` right for the value's code (and its errors) without
        // copying the array in the common case where it already equals `path`.
        var replacedPath: [any CodingKey]?
        if let key {
            if path.count == codingPath.count {
                codingPath.append(key)
            } else {
                replacedPath = codingPath
                codingPath = path + [key]
            }
        }
        let savedBase = base
        let savedStart = valueStart
        base = frames.count
        valueStart = bytes.count
        defer {
            base = savedBase
            valueStart = savedStart
            if let replacedPath {
                codingPath = replacedPath
            } else if key != nil {
                codingPath.removeLast()
            }
        }
        try value.encode(to: self)
        closeFrames(downTo: base)
        // A value that wrote nothing is an empty object, as with JSONEncoder.
        if bytes.count == valueStart {
            bytes.append(UInt8(ascii: "{"), UInt8(ascii: "}"))
        }
    }

    func writeFloatingPoint<F: BinaryFloatingPoint & LosslessStringConvertible>(
        _ value: F, path: [any CodingKey], key: (any CodingKey)?
    ) throws(DocumentCodingError) {
        guard value.isFinite else {
            let name = value.isNaN ? "\(F.self).nan" : (value < 0 ? "-\(F.self).infinity" : "\(F.self).infinity")
            throw DocumentCodingError(.unsupportedValue, at: extendedPath(path, key), "\(name) cannot be stored in JSON")
        }
        JSONWriter.appendFinite(value, to: &bytes)
    }

    func writeBool(_ value: Bool) {
        bytes.append(utf8: value ? "true" : "false")
    }

    func writeNull() {
        bytes.append(utf8: "null")
    }

    // MARK: Encoder

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(StreamKeyedContainer(encoder: self, frame: containerFrame(isObject: true), codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        StreamUnkeyedContainer(encoder: self, frame: containerFrame(isObject: false), codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        self
    }

    /// The container of the current value: asking twice (a class and its
    /// superclass sharing one encoder) continues the same container.
    private func containerFrame(isObject: Bool) -> FrameRef {
        if frames.count > base {
            if frames[base].isObject != isObject {
                recordMisuse(at: codingPath, "a value asked for both a keyed and an unkeyed container")
            }
            closeFrames(downTo: base + 1)
            return FrameRef(depth: UInt32(base), id: frames[base].id)
        }
        if bytes.count != valueStart {
            recordMisuse(at: codingPath, "a value asked for a container after encoding a single value")
        }
        return openFrame(isObject: isObject)
    }

    // MARK: Super encoders

    /// An encoder for a `super` member of the container at `frame`; what it
    /// writes is added when that container closes.
    func makeSuperEncoder(in frame: FrameRef, key: String?, codingPath: [any CodingKey]) -> StreamEncoder {
        let encoder = StreamEncoder(codingPath: codingPath)
        encoder.enclosingDepth = enclosingDepth + Int(frame.depth) + 1
        deferred.append((frame.id, key, encoder))
        return encoder
    }

    private func flushDeferred(frameIndex: Int) {
        let id = frames[frameIndex].id
        for pending in deferred where pending.frameID == id {
            let sub = pending.encoder
            sub.closeFrames(downTo: 0)
            if let problem = sub.misuse, misuse == nil { misuse = problem }
            if frames[frameIndex].count > 0 { bytes.append(UInt8(ascii: ",")) }
            frames[frameIndex].count += 1
            if let key = pending.key {
                JSONWriter.appendString(key, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
            }
            if sub.bytes.isEmpty {
                bytes.append(UInt8(ascii: "{"), UInt8(ascii: "}"))
            } else {
                bytes.append(sub.bytes)
            }
        }
        deferred.removeAll { $0.frameID == id }
    }
}

/// A value of generic type `T` seen as `U`, for callers that have checked
/// `T.self == U.self` (a pointer comparison). Unlike `as?` in unspecialized
/// generic code, this costs no runtime cast.
@inline(__always)
func reinterpret<T, U>(_ value: T, as type: U.Type) -> U {
    withUnsafePointer(to: value) { UnsafeRawPointer($0).load(as: U.self) }
}

/// `path` plus `key` when there is one: the coding path of a value inside a container.
func extendedPath(_ path: [any CodingKey], _ key: (any CodingKey)?) -> [any CodingKey] {
    guard let key else { return path }
    return path + [key]
}
