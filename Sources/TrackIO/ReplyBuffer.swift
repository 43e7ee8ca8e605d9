import TrackCore

/// A fixed-capacity output buffer allocated once, for control-socket replies.
/// Appends past the end are dropped and flagged; nothing grows after start-up.
/// Its owner frees the storage with `deallocate()` (copies share it).
public struct ReplyBuffer {
    let storage: UnsafeMutableRawBufferPointer
    /// Bytes written.
    public internal(set) var count = 0
    /// True when an append did not fit.
    public internal(set) var overflowed = false

    /// A buffer of `capacity` bytes.
    public init(capacity: Int) {
        storage = .allocate(byteCount: capacity, alignment: 16)
    }

    /// Frees the storage; the buffer must not be used afterwards.
    public func deallocate() { storage.deallocate() }

    /// Forgets the contents.
    public mutating func removeAll() {
        count = 0
        overflowed = false
    }

    /// Appends one byte.
    public mutating func append(_ byte: UInt8) {
        guard count < storage.count else { overflowed = true; return }
        storage[count] = byte
        count += 1
    }

    /// Appends a literal.
    @inline(never)
    public mutating func append(_ text: StaticString) {
        let start = text.utf8Start
        for offset in 0..<text.utf8CodeUnitCount { append(start[offset]) }
    }

    /// Appends a built line (or part of one).
    @inline(never)
    public mutating func append(_ line: inout TextBuffer) {
        line.withBytes { bytes in
            for index in bytes.indices { append(bytes[index]) }
        }
    }

    /// True when a line written at or after `offset` starts with `prefix`, e.g. doctor's
    /// `error` lines.
    public func contains(prefix: StaticString, from offset: Int) -> Bool {
        let start = prefix.utf8Start
        let length = prefix.utf8CodeUnitCount
        var lineStart = offset
        while lineStart + length <= count {
            var matched = true
            for index in 0..<length where storage[lineStart + index] != start[index] {
                matched = false
                break
            }
            if matched { return true }
            while lineStart < count && storage[lineStart] != UInt8(ascii: "\n") { lineStart += 1 }
            lineStart += 1
        }
        return false
    }

    /// The bytes from `offset` to the end.
    func bytes(from offset: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: storage[offset..<count])
    }
}
