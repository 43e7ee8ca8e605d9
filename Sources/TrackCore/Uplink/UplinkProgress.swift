/// A stretch of the log that became a backlog: from `from` (the next record to send) to the
/// chunk end `until` (where the live stream took over), e.g. the fixes logged while the broker
/// was down.
public struct UplinkBacklogRange: Equatable, Sendable {
    public var from: UplinkCursor
    public var until: LogCursor

    /// A backlog range.
    public init(from: UplinkCursor, until: LogCursor) {
        self.from = from
        self.until = until
    }
}

/// How far one uplink target has been acknowledged, all that must survive a restart or a
/// power cut (the cursor file holds one per target), e.g. live at `4:100:80:01020304` and one
/// backlog from `3:1234:77:9f3a11c2+2` to `3:9000:79:aabbccdd`.
///
/// The order rule (docs/uplink.md): records go out in log order within each of two streams.
/// The live stream sends from `live` as records are synced; when what waits there is older than
/// the live window, it becomes a backlog range (`moveToBacklog`) and the live stream jumps to the
/// log's durable end. Backlog ranges drain oldest first, at a bounded rate, beside the live
/// stream. So nothing is lost or reordered within a stream, each record is acknowledged
/// once per cursor, and after a restart each stream resumes where it was acknowledged.
/// At most `maximumBacklogRanges` ranges are kept: one more outage while they drain joins the
/// newest range with the new one, so the live records sent between them go again (said in
/// docs/uplink.md).
public struct UplinkProgress: Equatable, Sendable {
    /// Backlog ranges kept apart: 4.
    public static var maximumBacklogRanges: Int { 4 }

    /// The live stream's next record.
    public var live: UplinkCursor
    var ranges: InlineArray<4, UplinkBacklogRange>
    /// Backlog ranges waiting, 0…4.
    public internal(set) var backlogCount = 0
    /// The time of the newest record acknowledged (either stream), nil before the first.
    public var lastAcknowledgedTime: UTCTime?

    /// Nothing acknowledged: the live stream starts at `live` (`.start`: the whole log).
    public init(live: UplinkCursor = .start) {
        self.live = live
        ranges = InlineArray(repeating: UplinkBacklogRange(from: .start, until: .start))
    }

    /// The oldest backlog range, which drains first; nil when there is none.
    public var backlog: UplinkBacklogRange? { backlogCount > 0 ? ranges[0] : nil }

    /// Backlog range `index` (0 = oldest), 0 ≤ index < backlogCount.
    public func backlogRange(_ index: Int) -> UplinkBacklogRange {
        precondition(index >= 0 && index < backlogCount, "backlog range out of range")
        return ranges[index]
    }

    /// The live stream's record with `time` was acknowledged: resume after `cursor`.
    public mutating func acknowledgeLive(_ cursor: UplinkCursor, recordTime: UTCTime) {
        live = cursor
        note(recordTime)
    }

    /// The oldest backlog range's record with `time` was acknowledged: resume after `cursor`.
    public mutating func acknowledgeBacklog(_ cursor: UplinkCursor, recordTime: UTCTime) {
        guard backlogCount > 0 else { return }
        ranges[0].from = cursor
        note(recordTime)
    }

    /// The oldest backlog range is sent to its end (its reader reached `until`): it is dropped.
    public mutating func finishBacklog() {
        guard backlogCount > 0 else { return }
        for index in 1..<backlogCount { ranges[index - 1] = ranges[index] }
        backlogCount -= 1
    }

    /// What waits on the live stream from `live` up to the chunk end `end` becomes the newest
    /// backlog range and the live stream goes on from `end`. With all ranges in use the new
    /// stretch joins the newest range; returns false then (the live records sent between the
    /// two go again).
    @discardableResult
    public mutating func moveToBacklog(until end: LogCursor) -> Bool {
        // Nothing waits: nothing to move.
        if live == UplinkCursor(chunk: end) { return true }
        let kept: Bool
        if backlogCount < Self.maximumBacklogRanges {
            ranges[backlogCount] = UplinkBacklogRange(from: live, until: end)
            backlogCount += 1
            kept = true
        } else {
            ranges[backlogCount - 1].until = end
            kept = false
        }
        live = UplinkCursor(chunk: end)
        return kept
    }

    private mutating func note(_ time: UTCTime) {
        if let last = lastAcknowledgedTime, last >= time { return }
        lastAcknowledgedTime = time
    }

    public static func == (lhs: UplinkProgress, rhs: UplinkProgress) -> Bool {
        guard lhs.live == rhs.live, lhs.backlogCount == rhs.backlogCount, lhs.lastAcknowledgedTime == rhs.lastAcknowledgedTime else {
            return false
        }
        for index in 0..<lhs.backlogCount where lhs.ranges[index] != rhs.ranges[index] { return false }
        return true
    }
}
