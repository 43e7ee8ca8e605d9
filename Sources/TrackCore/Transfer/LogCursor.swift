/// Where a pull of the track log stopped: the end of the last chunk sent, in segment `segment`
/// at byte `offset`, with that chunk's CRC (so the tracker can tell its log still holds the same
/// bytes there) and the sequence number of the last chunk that carried records.
///
/// Text form, as `trackctl log send --after` takes it and `pull.cursor` stores it:
/// `"start"` (nothing pulled yet) or `SEGMENT:OFFSET:SEQUENCE:CRC`, e.g. `"3:1234:77:9f3a11c2"`
/// (segment 3, byte 1,234, sequence 77, CRC-32C 0x9F3A11C2 in eight lower-case hex digits;
/// SEQUENCE is `-` when no chunk with records was sent yet; the CRC is read in either case).
/// Only digits, hex, `:` and `-`: safe in a remote shell command line.
public struct LogCursor: Equatable, Sendable {
    /// The segment number of the last chunk sent, e.g. 3; 0 with `offset` 0 for `start`.
    public var segment: UInt64
    /// The byte just after the last chunk sent, in that segment, e.g. 1234.
    public var offset: Int
    /// The sequence number of the last chunk with records sent, nil before the first.
    public var sequence: UInt32?
    /// The CRC-32C stored in the last 4 bytes before `offset` (the CRC of the chunk ending there).
    public var crc: UInt32

    /// A cursor at the end of the chunk ending at `offset` in `segment`.
    public init(segment: UInt64, offset: Int, sequence: UInt32?, crc: UInt32) {
        self.segment = segment
        self.offset = offset
        self.sequence = sequence
        self.crc = crc
    }

    /// The cursor before anything was pulled: everything the log holds comes next.
    public static var start: LogCursor { LogCursor(segment: 0, offset: 0, sequence: nil, crc: 0) }

    /// True for `start`.
    public var isStart: Bool { segment == 0 }

    /// The text form, e.g. "3:1234:77:9f3a11c2" or "start".
    public var text: String {
        guard !isStart else { return "start" }
        let hex = String(decoding: stride(from: 28, through: 0, by: -4).map {
            HexDigit.character(UInt8(truncatingIfNeeded: crc >> UInt32($0)))
        }, as: UTF8.self)
        return String(segment) + ":" + String(offset) + ":" + (sequence.map { String($0) } ?? "-") + ":" + hex
    }

    /// Parses the text form; nil for anything else, e.g. "3:1234:77:9f3a11c2", "start";
    /// "3:1234" → nil. Surrounding spaces and a final newline are allowed (a cursor file).
    public init?(text: String) {
        var bytes = Array(text.utf8)
        while let last = bytes.last, last == 10 || last == 13 || last == 32 { bytes.removeLast() }
        while let first = bytes.first, first == 32 { bytes.removeFirst() }
        if bytes == Array("start".utf8) {
            self = .start
            return
        }
        var fields: [[UInt8]] = [[]]
        for byte in bytes {
            if byte == UInt8(ascii: ":") { fields.append([]) } else { fields[fields.count - 1].append(byte) }
        }
        guard fields.count == 4,
              let segment = try? DecimalText.unsigned(fields[0][...]), segment >= 1,
              let offset = try? DecimalText.unsigned(fields[1][...], maximum: Int64(Int32.max)), offset >= 4,
              fields[3].count == 8, let crc = HexDigit.read(fields[3][...]) else { return nil }
        var sequence: UInt32?
        if fields[2] != [UInt8(ascii: "-")] {
            guard let value = try? DecimalText.unsigned(fields[2][...], maximum: Int64(UInt32.max)) else { return nil }
            sequence = UInt32(value)
        }
        self.init(segment: UInt64(segment), offset: Int(offset), sequence: sequence, crc: UInt32(crc))
    }
}
