/// Why a transfer was refused; nothing of a refused transfer is kept. Byte positions count from
/// the transfer's first byte; chunk offsets are the chunk's offset in its segment file.
public enum LogTransferError: Error, Equatable, Sendable {
    /// The bytes do not start with "TLSEND1\n" (the tracker's trackctl is too old, or something
    /// else wrote to standard output); `byteCount` bytes arrived.
    case notATransfer(byteCount: Int)
    /// The transfer ends after `byteCount` bytes, before its checksum: the connection was cut.
    case cut(byteCount: Int)
    /// The chunk at `offset` in segment `segment` does not match its own CRC: changed in transit.
    case chunkCRC(segment: UInt64, offset: Int)
    /// The framing is malformed at transfer byte `position` (an unknown tag, a bad varint).
    case malformed(position: Int)
    /// The transfer's checksum is `found`, its bytes give `computed`: changed in transit.
    case checksum(computed: UInt32, found: UInt32)
    /// Bytes follow the checksum (`extra` of them).
    case trailingBytes(extra: Int)

    /// One line, e.g. "segment 0000000003.tlog offset 1234: chunk CRC mismatch (changed in transit)".
    public var description: String {
        switch self {
        case .notATransfer(let count):
            return "not a log transfer (" + String(count) + " bytes; is trackctl on the tracker recent enough?)"
        case .cut(let count): return "transfer cut after " + String(count) + " bytes, before its checksum"
        case .chunkCRC(let segment, let offset):
            return "segment " + LogTransferError.segmentName(segment) + " offset " + String(offset)
                + ": chunk CRC mismatch (changed in transit)"
        case .malformed(let position): return "malformed transfer framing at byte " + String(position)
        case .checksum(let computed, let found):
            return "transfer checksum mismatch (computed " + String(computed, radix: 16) + ", sent "
                + String(found, radix: 16) + "): changed in transit"
        case .trailingBytes(let extra): return String(extra) + " bytes after the transfer's checksum"
        }
    }

    /// "0000000003.tlog" for 3 (the log's file name; TrackIO's `LogSegmentName` makes the same).
    static func segmentName(_ number: UInt64) -> String {
        var text = String(number)
        while text.utf8.count < 10 { text = "0" + text }
        return text + ".tlog"
    }
}
