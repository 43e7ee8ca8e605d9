import TrackCore
import TrackIO

/// The receiver: the source of its bytes (a UART, a replay, a test's script), the stream over
/// them (NMEA through the receiver core, the UBX frames lifted out), receiver control (what
/// the receiver is, what it is told and whether it sleeps: `ReceiverControl`) and what the
/// last seconds brought. The loop reads it when its descriptor is ready or its deadline has
/// passed; the daemon then pulls the fixes out one at a time, each handled in its own scope
/// (`while let fix = receiver.nextFix(…)`), the replies going to control on the way. It says
/// in the journal when the source is lost and when it is open again. Nothing here allocates
/// after start.
struct ReceiverService<Source: ReceiverSource & ~Copyable>: ~Copyable {
    /// Bytes taken per read; a flooding device gets at most 16 reads per wake-up.
    static var readBytes: Int { 4096 }

    var source: Source
    var stream = ReceiverStream()
    var controller: ReceiverControl
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
    /// The receiver's time of the last epoch that had one: where a sleep record starts.
    var lastEpochTime: UTCTime?
    /// What the journal was last told: whether the source was open, after how many opens.
    var saidOpen = false
    var saidOpens = 0

    init(source: consuming Source, controller settings: ReceiverControl.Settings) {
        controller = ReceiverControl(settings, takesCommands: source.takesCommands)
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
        journal()
    }

    /// Applies a reload: new receiver control settings from now on (the plan goes again when
    /// they changed), and a changed port is opened again (and set up again).
    mutating func apply(_ plan: ReloadPlan, now: MonotonicTime) {
        controller.apply(ReceiverControl.Settings(plan.config.receiver), takesCommands: source.takesCommands, now: now)
        guard source.reconfigure(plan.serial) else { return }
        open(now: now)
    }

    /// Closes the source (SIGTERM).
    mutating func close() { source.close() }

    /// True while the receiver sleeps (power save): its silence is not a fault.
    var isAsleep: Bool { controller.power.isAsleep }

    /// The receiver's time of the last epoch before its last sleep, until the next sleep:
    /// the track log starts the sleep record there.
    var sleptAfter: UTCTime? { controller.power.sleptAfter }

    /// The source's state: its path, baud, whether open, its opens and last error.
    var sourceStatus: SourceStatus { source.status }

    /// True once a sentence was accepted since start (gpsd names its driver then).
    var seenSentences: Bool { stream.nmea.counters.accepted > 0 }

    /// What the core made of the bytes so far.
    var counters: NMEACounters { stream.nmea.counters }

    /// What status and doctor show of the receiver.
    var facts: StatusModel.ReceiverFacts {
        StatusModel.ReceiverFacts(source: source.status, counters: stream.nmea.counters, activity: activity,
                                  bytesRead: bytesRead, lastByteAt: lastByteAt, controller: controller)
    }

    /// The satellites in view as the last GSV sets and GSAs gave them.
    var sky: SkyView { stream.nmea.assembler.sky }

    /// The descriptor to watch, and the source's own deadline (pacing, backoff, auto-baud) and
    /// receiver control's (a command, an answer, the baud, a wake).
    func arm(_ loop: inout EventLoop, slot: Int) {
        loop.watch(slot, source.descriptor)
        loop.wake(by: source.nextDeadline())
        if source.status.isOpen { loop.wake(by: controller.nextDeadline) }
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
        // A read can close the source (unplugged, a replay's end, auto-baud trying the next rate).
        defer { journal() }
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
    /// the recent activity are brought up to date then). Replies (ACKs, versions, TXT) go to
    /// receiver control on the way. When `sentences` takes them, it is handed each verified
    /// sentence too (the one that completes an epoch before its fix); otherwise the stream
    /// runs its loop without those stops.
    mutating func nextFix<Sink: NMEASentenceSink & ~Copyable>(now: MonotonicTime, sentences: inout Sink) -> Fix? {
        let bytes = UnsafeRawBufferPointer(rebasing: input[0..<inputCount])
        while let event = stream.next(bytes, from: &inputOffset, sentences: &sentences) {
            switch event {
            case .reply:
                controller.observe(stream.reply, now: now)
            case .fix:
                // The sentence that completed this epoch is the first of the next one.
                fixReceivedAt = epochReceivedAt
                epochReceivedAt = sentenceArrival(bytes)
                lastEpochTime = stream.fix.time ?? lastEpochTime
                return stream.fix
            }
        }
        let counters = stream.nmea.counters
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
        var length = stream.nmea.framer.sentence.count + 5
        if inputOffset >= 2 && bytes[inputOffset - 1] == 0x0A && bytes[inputOffset - 2] == 0x0D { length += 1 }
        return inputOffset >= length ? readRealtime : previousReadRealtime
    }

    /// Tells the source how the core judged its bytes so far (auto-baud keeps a rate that
    /// gives checksummed sentences).
    mutating func observe(now: MonotonicTime) {
        let counters = stream.nmea.counters
        source.observe(acceptedSentences: counters.accepted,
                       rejectedSentences: counters.badChecksum + counters.malformed + counters.overlong, now: now)
    }

    /// Says a lost source (with its error; "trying again" unless a replay ended) and a source
    /// open again, once each.
    mutating func journal() {
        let status = source.status
        guard status.isOpen != saidOpen || status.opens != saidOpens else { return }
        var line = TextBuffer()
        if status.isOpen && saidOpens > 0 {
            line.append("receiver ")
            line.append(string: status.path)
            line.append(": open again")
            Journal.say(&line)
        } else if !status.isOpen, let error = status.lastError {
            line.append("receiver: ")
            line.append(string: error.description)
            if case .endOfInput = error {} else { line.append("; trying again") }
            Journal.say(&line)
        }
        saidOpen = status.isOpen
        saidOpens = status.opens
    }
}
