/// Writes a transfer (`LogTransferFormat`) piece by piece into `bytes`, keeping the checksum of
/// everything written; the caller sends `bytes` and empties it whenever it likes.
///
/// Example:
///
///     var encoder = LogTransferEncoder()                 // bytes: the magic
///     encoder.segment(3, from: 1234)
///     encoder.chunk(segmentBytes.span, 1234..<1254)      // one 20-byte data chunk
///     encoder.end(summary, cursor: newCursor)            // bytes end with the checksum
public struct LogTransferEncoder {
    /// Bytes written and not yet taken by the caller.
    public var bytes: [UInt8] = []
    /// Bytes written in all, taken or not.
    public private(set) var byteCount = 0
    var crc = CRC32C()

    /// An encoder that has written the magic.
    public init() {
        append(LogTransferFormat.magic)
    }

    /// Starts segment `number`'s bytes at `offset`.
    public mutating func segment(_ number: UInt64, from offset: Int) {
        var piece: [UInt8] = [LogTransferFormat.segmentTag]
        LogTransferEncoder.varint(number, &piece)
        LogTransferEncoder.varint(UInt64(offset), &piece)
        append(piece)
    }

    /// `source[range]`: one chunk that passed its checks, or (`damaged`) a stretch sent as is. A
    /// chunk that does not end with its own CRC-32C goes out with one after it (`checkedChunkTag`).
    public mutating func chunk(_ source: Span<UInt8>, _ range: Range<Int>, damaged: Bool = false) {
        let withCRC = !damaged && !LogTransfer.endsWithItsCRC(source, range)
        let tag = damaged ? LogTransferFormat.damagedTag : withCRC ? LogTransferFormat.checkedChunkTag : LogTransferFormat.chunkTag
        var piece: [UInt8] = [tag]
        LogTransferEncoder.varint(UInt64(range.count), &piece)
        append(piece)
        crc.update(source, range)
        bytes.reserveCapacity(bytes.count + range.count)
        for index in range { bytes.append(source[index]) }
        byteCount += range.count
        if withCRC {
            var trailer: [UInt8] = []
            LogTransferEncoder.littleEndian(CRC32C.checksum(of: source, range), &trailer)
            append(trailer)
        }
    }

    /// Ends the transfer: the summary, the new cursor and the checksum.
    public mutating func end(_ summary: LogTransferSummary, cursor: LogCursor) {
        var piece: [UInt8] = [LogTransferFormat.endTag]
        LogTransferEncoder.varint(UInt64(summary.fixCount), &piece)
        LogTransferEncoder.varint(UInt64(summary.recordCount), &piece)
        if let first = summary.firstTime, let last = summary.lastTime {
            piece.append(1)
            LogTransferEncoder.varint(Varint.zigzag(first.millisecondsSinceEpoch), &piece)
            LogTransferEncoder.varint(Varint.zigzag(last.millisecondsSinceEpoch), &piece)
        } else {
            piece.append(0)
        }
        LogTransferEncoder.varint(cursor.segment, &piece)
        LogTransferEncoder.varint(UInt64(cursor.offset), &piece)
        LogTransferEncoder.varint(cursor.sequence.map { UInt64($0) + 1 } ?? 0, &piece)
        LogTransferEncoder.littleEndian(cursor.crc, &piece)
        append(piece)
        var check: [UInt8] = []
        LogTransferEncoder.littleEndian(crc.value, &check)
        bytes.append(contentsOf: check)
        byteCount += check.count
    }

    mutating func append(_ piece: [UInt8]) {
        let span = piece.span
        crc.update(span, 0..<piece.count)
        bytes.append(contentsOf: piece)
        byteCount += piece.count
    }

    static func varint(_ value: UInt64, _ into: inout [UInt8]) {
        var rest = value
        while rest >= 0x80 {
            into.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        into.append(UInt8(rest))
    }

    static func littleEndian(_ value: UInt32, _ into: inout [UInt8]) {
        for index in 0..<4 { into.append(UInt8(truncatingIfNeeded: value >> (8 * UInt32(index)))) }
    }
}
