import TrackCore

/// One fence event as the daemon keeps it: which fence, what, where and when.
struct FenceEventRecord: Equatable {
    var fence: Int
    var transition: FenceTransition
    var position: Coordinate
    var accuracyMillimetres: Int64
    var time: UTCTime
}

/// Counters of fence event commands and log records, for `trackctl status`.
struct FenceCommandCounters: Equatable {
    /// Most commands running at once (`fences.max-commands`).
    var limit = 4
    var started = 0
    var skipped = 0
    var failedToStart = 0
    var failedExits = 0
    var running = 0
    /// Events neither logged nor run: more than the queue holds arrived in one read.
    var dropped = 0
}

/// Enter, exit and dwell events waiting for the loop to log them and start their commands,
/// filled on the per-fix path and drained after each read: fixed capacity, no allocation.
struct FenceEventQueue {
    static var capacity: Int { 16 }
    var events = InlineArray<16, FenceEventRecord?>(repeating: nil)
    var count = 0

    mutating func push(_ event: FenceEventRecord, _ counters: inout FenceCommandCounters) {
        guard count < Self.capacity else {
            counters.dropped += 1
            return
        }
        events[count] = event
        count += 1
    }

    mutating func removeAll() -> (InlineArray<16, FenceEventRecord?>, Int) {
        defer {
            count = 0
            for index in 0..<Self.capacity { events[index] = nil }
        }
        return (events, count)
    }
}
