import TrackCore

/// Something a log reader skipped or noticed, e.g. a CRC mismatch in segment 3 at offset 1,234
/// with 210 bytes skipped up to the next keyframe. Problems are values the reader collects;
/// damage never stops it and never traps.
public struct LogProblem: Equatable, Sendable {
    /// The segment's file name, e.g. "0000000003.tlog".
    public var segment: String
    /// Byte offset in the segment where the problem starts.
    public var offset: Int
    /// Bytes not read because of it (0 when nothing was skipped, e.g. a sequence gap).
    public var skippedByteCount: Int
    /// What it was.
    public var kind: LogProblemKind

    /// A problem in `segment` at `offset`.
    public init(segment: String, offset: Int, skippedByteCount: Int, kind: LogProblemKind) {
        self.segment = segment
        self.offset = offset
        self.skippedByteCount = skippedByteCount
        self.kind = kind
    }

    /// One line, e.g. "0000000003.tlog offset 1234: CRC mismatch at offset 1240, skipped 210 bytes".
    public var description: String {
        var line = segment + " offset " + String(offset) + ": " + kind.description
        if skippedByteCount > 0 { line += ", skipped " + String(skippedByteCount) + " bytes" }
        return line
    }

    /// True for damage that loses records (a torn tail, a damaged chunk, an unreadable file, a
    /// sequence gap); false for a rewritten chunk's duplicate and for damage the parity
    /// repaired, which lose nothing.
    public var losesRecords: Bool {
        switch kind {
        case .duplicateChunks, .repaired, .damagedParity: return false
        default: return true
        }
    }
}

/// The kinds of `LogProblem`.
public enum LogProblemKind: Equatable, Sendable {
    /// The file ends inside a chunk: a write cut by power loss or a failed sync (normal after a
    /// power cut; at most one sync interval of records).
    case tornTail
    /// A chunk failed its checks (framing, version, CRC, malformed records); the reader skipped
    /// to the next keyframe that passes its CRC (or the end of the segment).
    case damaged(LogError)
    /// Sequence numbers jumped: `count` chunks between the last chunk read and this keyframe are
    /// missing (damaged, deleted or never synced).
    case missingChunks(count: UInt32)
    /// The chunk with `sequence` (and its context) was already read: a copy written again after
    /// a failed sync. Its records are not returned twice.
    case duplicateChunks(sequence: UInt32)
    /// The segment could not be read at all.
    case unreadable(Errno)
    /// A chunk failed its checks (`LogError`) and was repaired from the parity chunk of its
    /// group: every record was read; the file still holds the damage.
    case repaired(LogError)
    /// A parity chunk failed its checks (`LogError`): no records lost, but damage in its group
    /// can no longer be repaired.
    case damagedParity(LogError)

    /// The kind in words, e.g. "CRC mismatch at offset 1240".
    public var description: String {
        switch self {
        case .tornTail: return "torn tail (incomplete last chunk)"
        case .damaged(let error): return "damaged chunk: " + error.description
        case .missingChunks(let count): return String(count) + " chunks missing before this keyframe"
        case .duplicateChunks(let sequence):
            return "chunk " + String(sequence) + " already read (rewritten after a failed sync), not repeated"
        case .unreadable(let errno): return "unreadable: " + errno.message
        case .repaired(let error): return "damaged chunk repaired from its group's parity: " + error.description
        case .damagedParity(let error): return "damaged parity chunk (no records lost): " + error.description
        }
    }
}
