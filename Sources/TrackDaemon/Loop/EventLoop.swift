import TrackCore
import TrackIO

/// The loop, and nothing of GPS: one `poll` over a fixed table of slots, a fixed heap of
/// timers on the monotonic clock, and one clock reading per wake-up.
///
/// Each service owns the slots and timer ids it is given (`Slots`, `TimerID`) and, before every
/// wait, says which descriptors it wants watched and when it wants to be woken; after the wait
/// it asks which of its slots are ready and which of its timers are due. Nothing here allocates.
///
///     var loop = EventLoop()
///     loop.watch(Slots.receiver, port.descriptor)
///     loop.schedule(TimerID.logSync, at: now.adding(milliseconds: 5_000))
///     now = try loop.wait(now: now)            // the one clock reading of the next wake-up
///     if loop.isReady(Slots.receiver) { … }
public struct EventLoop: ~Copyable {
    var poller = Poller()
    var timers = TimerHeap()
    /// Timers that were due at the last wake-up, by id (bit `id`).
    var due: UInt64 = 0
    /// A deadline for this wait only (e.g. a source's own retry time), cleared after it.
    var extraDeadline: MonotonicTime?
    /// The system clock (CLOCK_REALTIME, ns since 1970) read with the monotonic one at the last
    /// wake-up: when what the descriptors brought arrived (the time service's receive time).
    /// A test that wakes the loop itself sets it.
    public var realtimeNanoseconds: Int64 = 0

    /// An empty table and no timers.
    public init() {}

    /// Wake-ups so far (poll returns).
    public var wakeUps: Int { poller.wakeUps }

    /// Watches `descriptor` in `slot` for input (and output when `writable`); nil clears it.
    public mutating func watch(_ slot: Int, _ descriptor: FileDescriptor?, writable: Bool = false) {
        poller.watch(slot, descriptor, writable: writable)
    }

    /// True when the last wait found `slot` readable, hung up or in error.
    public func isReady(_ slot: Int) -> Bool { poller.isReady(slot) }

    /// True when the last wait found `slot` writable.
    public func isWritable(_ slot: Int) -> Bool { poller.isWritable(slot) }

    /// Sets timer `id` to fire at `deadline` (moving it if set).
    public mutating func schedule(_ id: Int, at deadline: MonotonicTime) { timers.schedule(id, at: deadline) }

    /// Cancels timer `id`.
    public mutating func cancel(_ id: Int) { timers.cancel(id) }

    /// True when timer `id` is set.
    public func isScheduled(_ id: Int) -> Bool { timers.isPending(id) }

    /// Also wake by `deadline` this once (nil: nothing more).
    public mutating func wake(by deadline: MonotonicTime?) {
        guard let deadline else { return }
        extraDeadline = extraDeadline.map { min($0, deadline) } ?? deadline
    }

    /// Waits until a slot is ready or the earliest deadline passes; returns the clock reading of
    /// the new wake-up and collects the timers due by then. EINTR is a wake-up with nothing ready.
    public mutating func wait(now: MonotonicTime) throws(Errno) -> MonotonicTime {
        let deadline = timers.earliest.map { extra in extraDeadline.map { min($0, extra) } ?? extra } ?? extraDeadline
        extraDeadline = nil
        try poller.wait(until: deadline, now: now)
        let woke = SystemClock.monotonic()
        realtimeNanoseconds = SystemClock.realtimeNanoseconds()
        collectDue(now: woke)
        return woke
    }

    /// The earliest deadline the next wait would wake by (a timer, or this wait's extra one).
    var nextDeadline: MonotonicTime? { earliest(timers.earliest, extraDeadline) }

    /// A wake-up at `now` that a test makes: the descriptors are polled without waiting (a pipe
    /// the fake GPIO wrote to shows ready), and the timers due by `now` are collected, with no
    /// clock read.
    mutating func wakeWithoutWaiting(now: MonotonicTime) {
        extraDeadline = nil
        try? poller.wait(until: now, now: now)
        collectDue(now: now)
    }

    /// True when the last wait found a descriptor ready (a test then wakes again at once, as
    /// the real poll would return at once).
    var anyReady: Bool { poller.anyReady }

    /// Takes every timer due by `now` off the heap into the due set (for `wait`, and for tests
    /// that step the loop without polling).
    public mutating func collectDue(now: MonotonicTime) {
        due = 0
        while let id = timers.popExpired(now: now) { due |= 1 << UInt64(id) }
    }

    /// True when timer `id` was due at this wake-up; each service asks for its own.
    public func isDue(_ id: Int) -> Bool { due & (1 << UInt64(id)) != 0 }

    /// Marks every slot as not ready: a wake-up that was not a poll (tests stepping the loop).
    public mutating func clearReadiness() { poller.clearReadiness() }

    /// Marks `slot` ready, as a poll finding input would (tests stepping the loop).
    public mutating func markReady(_ slot: Int) { poller.markReady(slot) }
}
