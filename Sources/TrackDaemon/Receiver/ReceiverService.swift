import TrackCore
import TrackIO

/// The receiver: the source of its bytes (a UART, a replay, a test's script), the NMEA core
/// over them and what the last seconds brought. The loop reads it when its descriptor is ready
/// or its deadline has passed; the daemon then pulls the fixes out one at a time, each handled
/// in its own scope (`while let fix = receiver.nextFix()`). Nothing here allocates after start.
struct ReceiverService<Source: ReceiverSource & ~Copyable>: ~Copyable {
    /// The window status and doctor judge the receiver on: the last 5 s.
    static var recentMilliseconds: Int64 { 5_000 }
    /// Bytes taken per read; a flooding device gets at most 16 reads per wake-up.
    static var readBytes: Int { 4096 }

    var source: Source
    var core = NMEAReceiver()
    let input: UnsafeMutableRawBufferPointer
    var inputCount = 0
    var inputOffset = 0
    /// Bytes and sentences of the last seconds, and the totals already counted into them.
    var activity = RecentActivity()
    var acceptedCounted = 0
    var rejectedCounted = 0
    var bytesRead = 0
    var lastByteAt: MonotonicTime?
    /// The system clock (CLOCK_REALTIME, ns since 1970) at the last read that brought bytes and
    /// at the one before it: when the bytes of a sentence arrived, to within one read.
    var readRealtime: Int64 = 0
    var previousReadRealtime: Int64 = 0
    /// When the epoch in progress began to arrive (its first sentence's `$`); nil until an epoch
    /// boundary has been seen since start or since the source was lost.
    var epochReceivedAt: Int64?
    /// When the epoch of the fix `nextFix` last returned began to arrive; nil when unknown.
    private(set) var fixReceivedAt: Int64?

    init(source: consuming Source) {
        self.source = source
        input = .allocate(byteCount: Self.readBytes, alignment: 16)
    }

    deinit { input.deallocate() }

    /// Opens (or reopens after the backoff) the source; a failure stays in its status.
    mutating func open(now: MonotonicTime) {
        do {
            try source.open(now: now)
        } catch {
            // The source keeps the error and a retry deadline; status and doctor explain.
        }
    }

    /// The descriptor to watch, and the source's own deadline (pacing, backoff, auto-baud).
    func arm(_ loop: inout EventLoop, slot: Int) {
        loop.watch(slot, source.descriptor)
        loop.wake(by: source.nextDeadline())
    }

    /// True when the source should be read at this wake-up.
    func wantsRead(_ loop: borrowing EventLoop, slot: Int, now: MonotonicTime) -> Bool {
        loop.isReady(slot) || source.nextDeadline().map { $0 <= now } == true
    }

    /// A closed source whose retry time has come is opened again (a replay at its end names no
    /// time and stays closed).
    mutating func reopenIfDue(now: MonotonicTime) {
        guard source.descriptor == nil, !source.status.isOpen, let retry = source.nextDeadline(), retry <= now else { return }
        open(now: now)
    }

    /// What one read brought.
    enum ReadResult {
        /// Bytes to pull fixes from.
        case bytes
        /// Nothing now.
        case nothing
        /// The source failed and closed itself (the loop reopens it after its backoff).
        case lost
    }

    /// Reads what the source has; call `nextFix` until nil before the next read. `realtime` is
    /// the system clock of this wake-up (ns since 1970), the arrival time of what is read.
    mutating func read(now: MonotonicTime, realtime: Int64 = 0) -> ReadResult {
        let count: Int
        do {
            count = try source.read(into: input, now: now)
        } catch {
            epochReceivedAt = nil
            return .lost
        }
        guard count > 0 else { return .nothing }
        previousReadRealtime = readRealtime
        readRealtime = realtime
        inputCount = count
        inputOffset = 0
        bytesRead += count
        lastByteAt = now
        return .bytes
    }

    /// The next fix in the bytes of the last read, nil once they are used up (the counters and
    /// the recent activity are brought up to date then).
    mutating func nextFix(now: MonotonicTime) -> Fix? {
        let bytes = UnsafeRawBufferPointer(rebasing: input[0..<inputCount])
        if let fix = core.next(bytes, from: &inputOffset) {
            // The sentence that completed this epoch is the first of the next one.
            fixReceivedAt = epochReceivedAt
            epochReceivedAt = sentenceArrival(bytes)
            return fix
        }
        let counters = core.counters
        let rejected = counters.badChecksum + counters.malformed + counters.overlong
        activity.record(bytes: inputCount, accepted: counters.accepted - acceptedCounted,
                        rejected: rejected - rejectedCounted, now: now)
        acceptedCounted = counters.accepted
        rejectedCounted = rejected
        inputCount = 0
        inputOffset = 0
        return nil
    }

    /// When the sentence that just ended at `inputOffset` began to arrive: this read's time if
    /// its `$` is in this read's bytes, else the previous read's (a receiver's burst often
    /// starts with a read of a byte or two, and the port then holds off while the rest comes).
    private func sentenceArrival(_ bytes: UnsafeRawBufferPointer) -> Int64 {
        // `$`, the body, `*hh` and the line end (CR, LF, or CR LF taken together).
        var length = core.framer.sentence.count + 5
        if inputOffset >= 2 && bytes[inputOffset - 1] == 0x0A && bytes[inputOffset - 2] == 0x0D { length += 1 }
        return inputOffset >= length ? readRealtime : previousReadRealtime
    }

    /// Tells the source how the core judged its bytes so far (auto-baud keeps a rate that
    /// gives checksummed sentences).
    mutating func observe(now: MonotonicTime) {
        let counters = core.counters
        source.observe(acceptedSentences: counters.accepted,
                       rejectedSentences: counters.badChecksum + counters.malformed + counters.overlong, now: now)
    }

    /// Accepted sentences per second over the last 5 s, in tenths.
    func sentencesPerSecondTenths(now: MonotonicTime) -> Int {
        activity.sentencesPerSecondTenths(overLast: Self.recentMilliseconds, now: now)
    }
}
