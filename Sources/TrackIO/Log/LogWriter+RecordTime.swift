import TrackCore

extension LogWriter {
    /// Syncs the held records first when `time` (the next record's) is a sync interval or more
    /// after the first of them, or before it: so the records of one chunk span less than
    /// `syncIntervalMilliseconds` of record time, as the daemon's sync timer makes them on a
    /// tracker, also when records come faster than real time (`trackd --replay FILE --speed 0`,
    /// an import). E.g. with 5 s syncs and 1 Hz fixes, the fix at 12:00:05 goes to a new chunk
    /// after the ones from 12:00:00 to 12:00:04.
    mutating func syncIfSpanReached(before time: UTCTime, now: MonotonicTime) {
        guard let first = pending.first?.time.millisecondsSinceEpoch else { return }
        let next = time.millisecondsSinceEpoch
        if next &- first >= settings.syncIntervalMilliseconds || next < first { sync(now: now) }
    }
}
