/// A growable output buffer of bytes for the JSON writers.
///
/// `[UInt8].append` checks uniqueness and capacity on every call and is not
/// always inlined; writing a document is hundreds of tiny appends, so the
/// writers use this plain buffer (one capacity check per append, doubling
/// growth) and copy it into an array once at the end. Noncopyable, so the
/// memory has exactly one owner and is freed exactly once.
struct ByteBuffer: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int = 256) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deallocate()
    }

    var isEmpty: Bool { count == 0 }

    /// Forgets the bytes written, keeping the memory for the next document.
    mutating func removeAll() {
        count = 0
    }

    /// The bytes written so far, without a copy; valid during `body` only.
    func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try body(UnsafeRawBufferPointer(start: base, count: count))
    }

    /// A copy of the bytes written so far.
    var array: [UInt8] {
        Array(UnsafeBufferPointer(start: base, count: count))
    }

    /// Makes room for `extra` more bytes.
    @inline(__always)
    mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(to: count + extra) }
    }

    private mutating func grow(to minimum: Int) {
        var newCapacity = capacity * 2
        while newCapacity < minimum { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    /// Two bytes with one capacity check (`":`, `{}`…).
    @inline(__always)
    mutating func append(_ first: UInt8, _ second: UInt8) {
        reserve(2)
        base[count] = first
        base[count + 1] = second
        count += 2
    }

    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        (base + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    mutating func append(_ other: borrowing ByteBuffer) {
        append(UnsafeBufferPointer(start: other.base, count: other.count))
    }

    /// Appends ASCII/UTF-8 text (number descriptions, base64) without escaping.
    mutating func append(utf8 text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    /// Direct access to `extra` reserved bytes after the end; `body` returns how
    /// many it wrote.
    @inline(__always)
    mutating func write(reserving extra: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        reserve(extra)
        count += body(base + count)
    }
}
