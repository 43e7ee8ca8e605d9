import TrackCore
import TrackIO

/// `trackctl log send [--after CURSOR] [--log DIR | --config FILE] [--from-ssh-command]`: the
/// chunks the log holds after CURSOR, framed (`LogTransferFormat`) on standard output, for
/// `trackctl pull` on the other end of an SSH connection. Read-only: safe while trackd writes.
///
/// Only whole chunks that pass their checks are sent: the closed segments and the checked
/// prefix of the open one (a chunk still being written is left for the next pull). Damage the
/// parity repairs arrives repaired; other damage arrives as the tracker holds it, marked, so the
/// copy reads exactly as the tracker's log does.
///
/// Exit 0 when the transfer was written; 1 when the log cannot be read or standard output
/// fails; 2 for bad arguments (or a command a restricted key may not run); 3 when the cursor
/// does not fit this log (it was reset or rewritten since the pull that made the cursor).
enum LogSend {
    static let usage: StaticString = """
        usage: trackctl log send [--after CURSOR] [--log DIR | --config FILE] [--from-ssh-command]

        Writes the log's chunks after CURSOR (default: all of them) to standard output, framed for
        `trackctl pull`, then the new cursor. Read-only. CURSOR is what pull recorded, e.g.
        3:1234:77:9f3a11c2, or `start`.

          --from-ssh-command   take --after from $SSH_ORIGINAL_COMMAND, refusing any other command:
                               for a key that may only send the log, in authorized_keys:
                               command="trackctl log send --from-ssh-command",restrict ssh-ed25519 AAAA…

        """

    /// Exit code when the cursor does not fit the log.
    static var cursorMismatch: Int32 { 3 }

    static func run(_ arguments: [String]) -> Int32 {
        if arguments.contains("-h") || arguments.contains("--help") {
            try? FileDescriptor.standardOutput.writeAll(usage)
            return 0
        }
        var rest = arguments
        guard let directory = LogCommand.directory(&rest) else { return 1 }
        var cursorText: String?
        var fromSSH = false
        var index = 0
        while index < rest.count {
            switch rest[index] {
            case "--after" where index + 1 < rest.count:
                cursorText = rest[index + 1]
                index += 2
            case "--from-ssh-command":
                fromSSH = true
                index += 1
            default:
                return refuse("unknown argument '" + rest[index] + "'", status: 2)
            }
        }
        if fromSSH {
            switch SSHOriginalCommand.cursor(environment("SSH_ORIGINAL_COMMAND")) {
            case .success(let text): cursorText = text
            case .failure(let refusal): return refuse(refusal.description, status: 2)
            }
        }
        guard let cursor = LogCursor(text: cursorText ?? "start") else {
            return refuse("--after: '" + (cursorText ?? "") + "' is not a cursor (SEGMENT:OFFSET:SEQUENCE:CRC or start)", status: 2)
        }
        var reader: LogReader<PosixLogFiles>
        do {
            reader = try LogReader(directory: directory)
        } catch {
            return refuse(error.description, status: 1)
        }
        return send(&reader, after: cursor)
    }

    /// Writes the transfer of everything in `reader`'s log after `cursor` to standard output.
    static func send(_ reader: inout LogReader<PosixLogFiles>, after cursor: LogCursor) -> Int32 {
        var output = BufferedOutput(.standardOutput)
        do throws(LogSendError) {
            let sent = try transfer(&reader, after: cursor, warn: warn) { (bytes) throws(Errno) in
                try output.write(bytes.span)
            }
            do throws(Errno) { try output.flush() } catch { throw .output(error) }
            warn("sent " + String(sent.byteCount) + " bytes, " + String(sent.summary.fixCount) + " fixes; cursor "
                + sent.cursor.text)
            return 0
        } catch {
            return refuse(error.description, status: error.isMismatch ? cursorMismatch : 1)
        }
    }

    /// What a transfer sent: its length, what its chunks hold and the new cursor.
    struct Sent: Equatable {
        var byteCount: Int
        var summary: LogTransferSummary
        var cursor: LogCursor
    }

    /// Builds the transfer of everything in `reader`'s log after `cursor`, handing its bytes to
    /// `write` in pieces of about 64 KiB (one segment at a time at most); notes such as
    /// segments deleted before they were pulled go to `warn`.
    static func transfer<Files: LogFileLayer>(
        _ reader: inout LogReader<Files>, after cursor: LogCursor, warn: (String) -> Void,
        write: ([UInt8]) throws(Errno) -> Void
    ) throws(LogSendError) -> Sent {
        if !cursor.isStart {
            guard let newest = reader.segmentNumbers.last, newest >= cursor.segment else {
                throw .reset(newest: reader.segmentNumbers.last, cursor: cursor)
            }
            reader.skipSegments(before: cursor.segment)
        }
        var encoder = LogTransferEncoder()
        var summary = LogTransferSummary()
        var next = cursor
        var first = true
        while let scan = reader.nextSegmentScan() {
            var start = 0
            if !cursor.isStart, scan.info.number == cursor.segment {
                guard fits(cursor, scan) else { throw .rewritten(cursor: cursor) }
                start = cursor.offset
            } else if first, !cursor.isStart, let sequence = cursor.sequence,
                      let firstSequence = scan.chunks.first(where: { $0.sequence != nil })?.sequence,
                      Int32(bitPattern: firstSequence &- sequence) > 1 {
                // Quota (or a person) deleted segments before they were pulled: say so; the copy's
                // reader reports the same gap from the sequence numbers.
                warn(String(firstSequence &- sequence &- 1) + " chunks after the cursor were deleted before they were pulled (quota?); sending from "
                    + scan.info.name)
            }
            first = false
            var position = start
            let bytes = scan.bytes.span
            for chunk in scan.chunks where chunk.offset >= start {
                if position == start { encoder.segment(scan.info.number, from: start) }
                // Damage the parity could not mend goes as the tracker holds it: the copy then
                // reads (and reports) exactly as the tracker's log does.
                if chunk.offset > position { encoder.chunk(bytes, position..<chunk.offset, damaged: true) }
                encoder.chunk(bytes, chunk.offset..<chunk.end)
                position = chunk.end
                summary.add(chunk.records)
                if let sequence = chunk.sequence { next.sequence = sequence }
            }
            if position > start {
                next = LogCursor(segment: scan.info.number, offset: position, sequence: next.sequence,
                                 crc: crcBefore(position, in: scan.bytes))
            }
            if encoder.bytes.count >= 1 << 16 {
                do throws(Errno) { try write(encoder.bytes) } catch { throw .output(error) }
                encoder.bytes.removeAll(keepingCapacity: true)
            }
        }
        encoder.end(summary, cursor: next)
        do throws(Errno) { try write(encoder.bytes) } catch { throw .output(error) }
        return Sent(byteCount: encoder.byteCount, summary: summary, cursor: next)
    }

    /// True when `scan` has a chunk ending at the cursor's offset whose CRC is the cursor's.
    static func fits(_ cursor: LogCursor, _ scan: LogSegmentScan) -> Bool {
        scan.chunks.contains { $0.end == cursor.offset } && crcBefore(cursor.offset, in: scan.bytes) == cursor.crc
    }

    /// The little-endian CRC in the 4 bytes before `end`.
    static func crcBefore(_ end: Int, in bytes: [UInt8]) -> UInt32 {
        guard end >= 4, end <= bytes.count else { return 0 }
        var value: UInt32 = 0
        for index in 0..<4 { value |= UInt32(bytes[end - 4 + index]) << (8 * UInt32(index)) }
        return value
    }

    static func warn(_ text: String) {
        try? FileDescriptor.standardError.writeAll("trackctl log send: " + text + "\n")
    }

    static func refuse(_ text: String, status: Int32) -> Int32 {
        warn(text)
        if status == 2 { try? FileDescriptor.standardError.writeAll(usage) }
        return status
    }
}
