import CLinux
import TrackCore

/// One sample for the NTP shared-memory refclock: the receiver's UTC time of an epoch and the
/// system's CLOCK_REALTIME when that epoch's first byte arrived, both in nanoseconds since
/// 1970-01-01 (POSIX time, no leap seconds).
///
/// Example: an epoch stamped 12:00:00.000 that arrived when the system clock read
/// 12:00:00.043 is `NTPSample(receiverNanoseconds: t, systemNanoseconds: t + 43_000_000)`;
/// chrony then sees the system clock 43 ms ahead.
public struct NTPSample: Equatable, Sendable {
    /// The receiver's time of the epoch.
    public var receiverNanoseconds: Int64
    /// The system clock when the epoch began to arrive.
    public var systemNanoseconds: Int64

    /// A sample from the two clocks.
    public init(receiverNanoseconds: Int64, systemNanoseconds: Int64) {
        self.receiverNanoseconds = receiverNanoseconds
        self.systemNanoseconds = systemNanoseconds
    }

    /// Receiver minus system, in nanoseconds: positive when the system clock is behind.
    public var offsetNanoseconds: Int64 { receiverNanoseconds &- systemNanoseconds }
}

/// One unit of the NTP shared-memory refclock, the segment gpsd writes and chrony's
/// `refclock SHM N` (and ntpd's driver 28) reads: System V key 0x4E545030 + unit, gpsd's
/// `struct shmTime` (`clinux_shm_time`). Units 0 and 1 are created owner-only (0600, for a
/// reader running as root), 2 and 3 for everyone (0666), as gpsd does.
///
/// Attached once (start-up, a reload that changes the unit); each `write` follows the
/// count/valid protocol of mode 1 and allocates nothing.
///
/// Example: `var unit = try NTPSharedMemory(unit: 2)`, then once per good epoch
/// `unit.write(NTPSample(receiverNanoseconds: r, systemNanoseconds: s), precision: -1)`.
public struct NTPSharedMemory: ~Copyable {
    /// The key of unit 0, "NTP0" in ASCII.
    public static var baseKey: Int32 { 0x4E54_5030 }
    /// Stages of the reader's median filter (gpsd's value; chrony ignores it).
    static var sampleStages: Int32 { 3 }
    /// The leap field while nothing has been written: "not in sync" (NTP's LEAP_NOTINSYNC).
    static var leapNotInSync: Int32 { 3 }

    /// The segment's System V key, e.g. 0x4E545032 for unit 2.
    public let key: Int32
    private let segment: UnsafeMutablePointer<clinux_shm_time>
    /// False for a segment in ordinary memory (the tests'), deallocated instead of detached.
    private let shared: Bool

    /// The permission a unit's segment is created with: 0600 for units 0 and 1, 0666 above.
    public static func permission(unit: Int) -> Int32 { unit < 2 ? 0o600 : 0o666 }

    /// Attaches unit `unit` (0…3), creating its segment when absent. `baseKey` is for tests,
    /// which use keys of their own so they never touch the units a running chronyd reads.
    /// Throws the errno of shmget/shmat, e.g. EACCES when another user's 0600 segment exists.
    public init(unit: Int, baseKey: Int32 = NTPSharedMemory.baseKey) throws(Errno) {
        key = baseKey &+ Int32(truncatingIfNeeded: unit)
        guard let attached = clinux_shm_time_attach(key, Self.permission(unit: unit)) else { throw Errno.current }
        segment = attached
        shared = true
        Self.prepare(segment)
    }

    /// A segment in this process's memory, for tests of the layout and the protocol.
    public init(privateMemoryFor key: Int32) {
        self.key = key
        segment = .allocate(capacity: 1)
        segment.initialize(to: clinux_shm_time())
        shared = false
        Self.prepare(segment)
    }

    deinit {
        if shared { _ = clinux_shm_detach(segment) } else { segment.deallocate() }
    }

    /// Mode 1 (the reader checks `count` around its copy), no sample yet.
    private static func prepare(_ segment: UnsafeMutablePointer<clinux_shm_time>) {
        clinux_store_volatile(&segment.pointee.valid, 0)
        segment.pointee.mode = 1
        segment.pointee.leap = leapNotInSync
        segment.pointee.nsamples = sampleStages
    }

    /// Publishes `sample` with `precision` (log2 of seconds, e.g. -1 ≈ 0.5 s): valid cleared
    /// and count incremented, a barrier, the timestamps (seconds, microseconds and
    /// nanoseconds), leap "no warning" and the precision, a barrier, count incremented again,
    /// valid set last. A reader that copied the fields while they changed sees a count that
    /// moved, or valid 0, and drops its copy.
    public mutating func write(_ sample: NTPSample, precision: Int32) {
        beginWrite()
        fill(sample, precision: precision)
        endWrite()
    }

    /// The protocol's first step: valid 0, count + 1, then a barrier.
    mutating func beginWrite() {
        clinux_store_volatile(&segment.pointee.valid, 0)
        clinux_store_volatile(&segment.pointee.count, clinux_load_volatile(&segment.pointee.count) &+ 1)
        clinux_memory_barrier()
    }

    /// The protocol's middle: the values.
    mutating func fill(_ sample: NTPSample, precision: Int32) {
        let clock = Self.split(sample.receiverNanoseconds)
        let receive = Self.split(sample.systemNanoseconds)
        segment.pointee.clockTimeStampSec = time_t(clock.seconds)
        segment.pointee.clockTimeStampUSec = Int32(clock.nanoseconds / 1_000)
        segment.pointee.clockTimeStampNSec = UInt32(clock.nanoseconds)
        segment.pointee.receiveTimeStampSec = time_t(receive.seconds)
        segment.pointee.receiveTimeStampUSec = Int32(receive.nanoseconds / 1_000)
        segment.pointee.receiveTimeStampNSec = UInt32(receive.nanoseconds)
        segment.pointee.leap = 0
        segment.pointee.precision = precision
    }

    /// The protocol's last step: a barrier, count + 1, valid 1.
    mutating func endWrite() {
        clinux_memory_barrier()
        clinux_store_volatile(&segment.pointee.count, clinux_load_volatile(&segment.pointee.count) &+ 1)
        clinux_store_volatile(&segment.pointee.valid, 1)
    }

    /// Seconds and the nanoseconds within them (0…999_999_999, also before 1970).
    static func split(_ nanoseconds: Int64) -> (seconds: Int64, nanoseconds: Int64) {
        var seconds = nanoseconds / 1_000_000_000
        var rest = nanoseconds % 1_000_000_000
        if rest < 0 {
            seconds -= 1
            rest += 1_000_000_000
        }
        return (seconds, rest)
    }

    /// The segment as a reader sees it (tests, and doctor's look at what was last written).
    public var snapshot: clinux_shm_time { segment.pointee }
}

extension NTPSharedMemory {
    /// True when this process runs as root (effective uid 0): `[time] shm = auto` then picks
    /// unit 0, else unit 2.
    public static var runningAsRoot: Bool { geteuid() == 0 }
}
