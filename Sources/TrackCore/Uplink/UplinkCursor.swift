/// A place between two records of the track log, record by record: the end of the last chunk
/// that passed its checks before a record's chunk (`chunk`, as `trackctl log send` names it)
/// and how many of the next chunk's records come before the place, e.g. "after the 2nd record
/// of the chunk that follows 3:1234:77:9f3a11c2".
///
/// Text form, as the uplink's cursor file stores it: the chunk cursor's (`LogCursor.text`),
/// then `+RECORDS` when RECORDS is not 0, e.g. `3:1234:77:9f3a11c2+2`, `start+1`, `start`.
/// With RECORDS 0 it is the `log send` cursor of the same place.
public struct UplinkCursor: Equatable, Sendable {
    /// The end of the last good chunk before the record's chunk (`.start` before the log's first).
    public var chunk: LogCursor
    /// Records of the first chunk with records after `chunk` that are before this place, 0….
    public var records: Int

    /// A cursor `records` records into the chunk after `chunk`.
    public init(chunk: LogCursor, records: Int = 0) {
        self.chunk = chunk
        self.records = records
    }

    /// Before the log's first record.
    public static var start: UplinkCursor { UplinkCursor(chunk: .start) }

    /// The text form, e.g. "3:1234:77:9f3a11c2+2".
    public var text: String {
        records == 0 ? chunk.text : chunk.text + "+" + String(records)
    }

    /// Parses the text form; nil for anything else, e.g. "3:1234:77:9f3a11c2+2", "start";
    /// "3:1234:77:9f3a11c2+" → nil.
    public init?(text: String) {
        let bytes = Array(text.utf8)
        guard let plus = bytes.firstIndex(of: UInt8(ascii: "+")) else {
            guard let chunk = LogCursor(text: text) else { return nil }
            self.init(chunk: chunk)
            return
        }
        let digits = bytes[(plus + 1)...]
        guard !digits.isEmpty, digits.count <= 9, let chunk = LogCursor(text: String(decoding: bytes[..<plus], as: UTF8.self)) else {
            return nil
        }
        var records = 0
        for digit in digits {
            guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
            records = records * 10 + Int(digit - UInt8(ascii: "0"))
        }
        self.init(chunk: chunk, records: records)
    }
}

extension LogCursor {
    /// True when the chunk ending at this cursor ends at or after `other`'s in the log
    /// (segment, then byte), e.g. 3:100 is at or after 2:5000; for stopping a backlog where the
    /// live stream took over.
    public func isAtOrAfter(_ other: LogCursor) -> Bool {
        segment != other.segment ? segment > other.segment : offset >= other.offset
    }
}
