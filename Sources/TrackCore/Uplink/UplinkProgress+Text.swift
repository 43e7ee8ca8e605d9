// The text of cursors and progress written without the heap (the uplink saves its cursor file
// from the daemon loop), and read back at start.

extension LogCursor {
    /// Appends the text form, e.g. "3:1234:77:9f3a11c2" or "start", as `text` gives it.
    public func write(to buffer: inout TextBuffer) {
        guard !isStart else {
            buffer.append("start")
            return
        }
        buffer.append(integer: Int64(clamping: segment))
        buffer.append(UInt8(ascii: ":"))
        buffer.append(integer: Int64(offset))
        buffer.append(UInt8(ascii: ":"))
        if let sequence { buffer.append(integer: Int64(sequence)) } else { buffer.append(UInt8(ascii: "-")) }
        buffer.append(UInt8(ascii: ":"))
        var shift: UInt32 = 28
        while true {
            buffer.append(HexDigit.character(UInt8((crc >> shift) & 0xF)))
            if shift == 0 { break }
            shift -= 4
        }
    }
}

extension UplinkCursor {
    /// Appends the text form, e.g. "3:1234:77:9f3a11c2+2".
    public func write(to buffer: inout TextBuffer) {
        chunk.write(to: &buffer)
        if records != 0 {
            buffer.append(UInt8(ascii: "+"))
            buffer.append(integer: Int64(records))
        }
    }
}

extension UplinkProgress {
    /// Appends the progress as space-separated words: `live=CURSOR`, then one
    /// `backlog=FROM/UNTIL` per range (oldest first), then `acked=MILLISECONDS` when a record
    /// was acknowledged, e.g. `live=4:100:80:01020304 backlog=start+2/3:900:9:0a0b0c0d acked=1750507289000`.
    public func write(to buffer: inout TextBuffer) {
        buffer.append("live=")
        live.write(to: &buffer)
        for index in 0..<backlogCount {
            buffer.append(" backlog=")
            ranges[index].from.write(to: &buffer)
            buffer.append(UInt8(ascii: "/"))
            ranges[index].until.write(to: &buffer)
        }
        if let time = lastAcknowledgedTime {
            buffer.append(" acked=")
            buffer.append(integer: time.millisecondsSinceEpoch)
        }
    }

    /// Reads what `write` wrote; nil for anything else (a word it does not know, a bad cursor,
    /// no `live=`, more than four ranges).
    public init?(words: [Substring]) {
        var live: UplinkCursor?
        var progress = UplinkProgress()
        for word in words {
            if word.hasPrefix("live="), live == nil {
                guard let cursor = UplinkCursor(text: String(word.dropFirst(5))) else { return nil }
                live = cursor
            } else if word.hasPrefix("backlog=") {
                let parts = word.dropFirst(8).split(separator: "/", omittingEmptySubsequences: false)
                guard parts.count == 2, progress.backlogCount < Self.maximumBacklogRanges,
                      let from = UplinkCursor(text: String(parts[0])), let until = LogCursor(text: String(parts[1])) else { return nil }
                progress.ranges[progress.backlogCount] = UplinkBacklogRange(from: from, until: until)
                progress.backlogCount += 1
            } else if word.hasPrefix("acked="), progress.lastAcknowledgedTime == nil,
                      let milliseconds = Int64(String(word.dropFirst(6))) {
                progress.lastAcknowledgedTime = UTCTime(millisecondsSinceEpoch: milliseconds)
            } else {
                return nil
            }
        }
        guard let live else { return nil }
        progress.live = live
        self = progress
    }
}
