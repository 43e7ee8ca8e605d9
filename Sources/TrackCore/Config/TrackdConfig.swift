/// The daemon's settings, read from `/etc/trackd/trackd.conf` at start-up and on SIGHUP.
///
/// One nested struct per `[section]`, in integer units named in each field. `TrackdConfig()`
/// holds the defaults, which suit a u-blox receiver on a Raspberry Pi's `/dev/serial0`; an empty
/// file gives exactly these. The keys, their ranges and their docs are in `TrackdConfig.sections`
/// (see docs/config.md), e.g. `[filter]` / `max-accuracy = 50` sets
/// `filter.maxAccuracyMillimetres` to 50_000.
public struct TrackdConfig: Equatable, Sendable {
    /// `[receiver]`: where the NMEA comes from.
    public var receiver = Receiver()
    /// `[filter]`: which fixes count.
    public var filter = Filter()
    /// `[sampling]`: which fixes are logged.
    public var sampling = Sampling()
    /// `[log]`: the track log on flash.
    public var log = Log()
    /// `[control]`: the socket `trackctl` talks to.
    public var control = Control()
    /// `[state]`: what survives power cuts.
    public var state = State()
    /// `[privacy]`: what the owner of the device allows.
    public var privacy = Privacy()
    /// `[board]`: LEDs and the button.
    public var board = Board()
    /// `[leds]`: the LED patterns, the default table (docs/wiring.md) with any slot overridden.
    public var leds = LEDTable()
    /// `[fences]`.
    public var fences = Fences()
    /// `[gpsd]`: gpsd's protocol for other programs on the board.
    public var gpsd = Gpsd()
    /// `[places]`: the offline gazetteer.
    public var places = Places()
    /// `[time]`: the receiver's time for chrony (the NTP shared-memory refclock).
    public var time = Time()

    /// The defaults.
    public init() {}

    /// `[receiver]`: the GPS receiver's serial port.
    public struct Receiver: Equatable, Sendable {
        /// Serial device path, e.g. `/dev/serial0` (the Pi's primary UART) or `/dev/ttyACM0`.
        public var device = "/dev/serial0"
        /// True when the file sets `device`: it then wins over a board file's `[receiver] device`.
        public var deviceIsSet = false
        /// Line speed: `auto` tries the common rates until checksummed sentences arrive.
        public var baud = Baud.auto
        /// First delay before reopening a port that failed, in milliseconds (1 s).
        public var reopenMinMilliseconds: Int64 = 1_000
        /// Longest delay between reopen attempts, in milliseconds (30 s); the delay grows up to it.
        public var reopenMaxMilliseconds: Int64 = 30_000
        /// Which receiver trackd sets up, and how (docs/receiver-control.md): `auto` finds out.
        public var type = ControlType.auto
        /// The fix interval trackd sets, in ms (1000: 1 Hz); nil (`keep`) leaves the receiver's.
        public var fixIntervalMilliseconds: Int? = 1000
        /// The sentences trackd tells the receiver to send; nil (`keep`) leaves them.
        public var sentences: SentenceRates? = .trackdDefault
        /// The baud trackd moves the receiver to once configured; nil (`keep`) leaves it.
        public var setBaud: Int?
        /// True: the receiver sleeps while the tracker stands still (`power-save = sleep`).
        public var powerSave = false
        /// How long the tracker stands still before the receiver sleeps, in ms (5 min).
        public var powerSaveAfterMilliseconds: Int64 = 300_000

        /// The defaults.
        public init() {}

        /// `[receiver] type`: the receiver's maker as trackd's commands go, or none at all.
        public enum ControlType: String, CaseIterable, Equatable, Sendable {
            /// Identify the receiver from what it sends and answers, then set it up.
            case auto
            /// u-blox: UBX, legacy CFG or CFG-VALSET as the protocol version says.
            case ublox
            /// MediaTek: PMTK.
            case mediatek
            /// Quectel: PMTK (L70, L76, L80) or PAIR (LC29H, LC79H), as it answers.
            case quectel
            /// Nothing is ever written to the receiver.
            case none
        }

        /// What trackd asks of the receiver once it is identified: rate, sentences and baud.
        public var settings: ReceiverSettings {
            ReceiverSettings(fixIntervalMilliseconds: fixIntervalMilliseconds, baud: setBaud, sentences: sentences)
        }

        /// A serial line speed.
        public enum Baud: Equatable, Sendable {
            /// Try `rates` in turn until checksummed sentences arrive.
            case auto
            /// A fixed speed in bits per second, one of `rates`, e.g. 9600.
            case fixed(bitsPerSecond: UInt32)

            /// The speeds the daemon sets, slowest first: 4800 (NMEA 0183's own) … 460800.
            public static let rates: [UInt32] = [4800, 9600, 19200, 38400, 57600, 115_200, 230_400, 460_800]
        }
    }

    /// `[filter]`: the limits a fix must meet before sampling or fences see it.
    public struct Filter: Equatable, Sendable {
        /// A fix older than this is stale, in milliseconds (5 s).
        public var maxAgeMilliseconds: Int64 = 5_000
        /// A fix whose horizontal accuracy is worse than this is dropped, in millimetres (65 m).
        public var maxAccuracyMillimetres: Int32 = 65_000
        /// User equivalent range error in millimetres (5 m): accuracy = HDOP × UERE when the
        /// receiver sends no GST, e.g. HDOP 1.2 → 6 m.
        public var uereMillimetres: Int32 = 5_000
        /// A fix implying a faster jump from the previous one is implausible, in mm/s (100 m/s).
        public var maxSpeedMillimetresPerSecond: Int32 = 100_000
        // Four is the fewest a receiver needs for a 3D solution (three coordinates plus its clock
        // offset). With three it holds an assumed altitude and reports a 2D fix whose error grows
        // with the error of that assumption, which HDOP does not include, so HDOP × UERE misses it.
        /// Fewest satellites used in a fix it may come from (4); 0 turns the check off.
        public var minSatellites: UInt8 = 4

        /// The defaults.
        public init() {}
    }

    /// `[sampling]`: the named profile and any of its values overridden; nil keeps the profile's.
    public struct Sampling: Equatable, Sendable {
        /// The named policy the overrides modify.
        public var profile = Profile.track
        /// Override: shortest time between logged fixes, in milliseconds.
        public var minPeriodMilliseconds: Int64?
        /// Override: distance from the last logged fix that triggers a record, in millimetres.
        public var minDistanceMillimetres: Int32?
        /// Override: course change that triggers a record, in millidegrees (0…180_000).
        public var minHeadingChangeMillidegrees: Int32?
        /// Override: speed change that triggers a record, in mm/s.
        public var minSpeedChangeMillimetresPerSecond: Int32?
        /// Override: longest time without a logged fix, in milliseconds.
        public var heartbeatMilliseconds: Int64?
        /// Override: fixes less accurate than this are not logged, in millimetres.
        public var accuracyLimitMillimetres: Int32?

        /// The defaults: the `track` profile, nothing overridden.
        public init() {}

        /// A named sampling policy, as spelled in the file, e.g. `profile = arrival`.
        public enum Profile: String, CaseIterable, Equatable, Sendable {
            /// Sparse: where the device was, not how it got there.
            case checkin
            /// The route, at walking to driving resolution.
            case track
            /// Dense and accurate, for the last part of a trip.
            case arrival
        }
    }

    /// `[log]`: the append-only track log.
    public struct Log: Equatable, Sendable {
        /// Folder of the segment files.
        public var directory = "/var/lib/trackd/log"
        /// Longest time between syncs to flash, in milliseconds (5 s): at most this much of the
        /// track is lost on a power cut.
        public var syncIntervalMilliseconds: Int64 = 5_000
        /// Most bytes all segments may take; the oldest go first (256 MiB).
        public var quotaBytes: Int64 = 256 << 20
        /// Size at which a segment is closed and the next begun, in bytes (1 MiB).
        public var segmentSizeBytes: Int64 = 1 << 20
        /// Longest time a segment stays open, in milliseconds (24 h).
        public var segmentAgeMilliseconds: Int64 = 86_400_000
        /// Record time between keyframe chunks, in milliseconds (300 s).
        public var keyframeIntervalMilliseconds: Int64 = 300_000
        /// True: every sync that made records durable is announced on stderr (`announce-syncs`).
        public var announceSyncs = false

        /// The defaults.
        public init() {}
    }

    /// `[control]`: the Unix socket for `trackctl`.
    public struct Control: Equatable, Sendable {
        /// Socket path.
        public var socket = "/run/trackd/control.sock"
        /// Group that may use the socket (mode 0660).
        public var group = "trackd"

        /// The defaults.
        public init() {}
    }

    /// `[state]`: permission state, odometer and counters.
    public struct State: Equatable, Sendable {
        /// The state file, written atomically.
        public var file = "/var/lib/trackd/state"

        /// The defaults.
        public init() {}
    }

    /// `[privacy]`: what the device's owner allows, fixed at start-up.
    public struct Privacy: Equatable, Sendable {
        /// True: the permission is `restricted`; nothing is logged and no command changes it.
        public var restricted = false

        /// The defaults.
        public init() {}
    }

    /// `[board]`: the board's GPIO pin map, overrides of its lines, and the button's timing.
    public struct Board: Equatable, Sendable {
        /// Path of the pin map, e.g. `/etc/trackd/board.conf`; nil (the default) = no LEDs, no button.
        public var file: String?
        /// Lines (and the chip) set in trackd.conf, laid over the board file's.
        public var overrides = BoardMap()
        /// The simulated board of the demo and the tests: LEDs and button on the fake backend.
        public var simulated = false
        /// The in-use input's active level: false (default) = active low, like the button.
        public var inUseActiveHigh = false
        /// How long an input must hold a level before it counts, in milliseconds (30 ms).
        public var debounceMilliseconds: Int64 = 30
        /// How long the button is held for a long press (toggle private mode), in ms (3 s).
        public var longPressMilliseconds: Int64 = 3_000

        /// The defaults.
        public init() {}
    }

    /// `[fences]`: the fences file, how transitions are confirmed, and event commands.
    public struct Fences: Equatable, Sendable {
        /// The GeoJSON fences file; a missing file means no fences.
        public var file = "/etc/trackd/fences.geojson"
        /// Radius range, k of n and the hysteresis band (see `FenceSettings`).
        public var settings = FenceSettings()
        /// Most event commands running at once; further events' commands are dropped and counted.
        public var maxCommands = 4

        /// The defaults.
        public init() {}
    }

    /// `[gpsd]`: the TCP sockets where trackd speaks gpsd's JSON protocol (gpspipe, cgps,
    /// python's gps module and programs built on libgps).
    public struct Gpsd: Equatable, Sendable {
        /// Addresses to listen on; empty: the service is off.
        public var listen: [ListenAddress] = [
            ListenAddress(parsing: "127.0.0.1:2947"), ListenAddress(parsing: "[::1]:2947"),
        ].compactMap { $0 }
        /// Most clients connected at once (8); further connections are refused.
        public var maxClients = 8

        /// Most `listen` addresses.
        public static var maxListeners: Int { 4 }
        /// Most clients `max-clients` may allow.
        public static var clientLimit: Int { 16 }

        /// The defaults.
        public init() {}
    }

    /// `[places]`: the gazetteer that names the daemon's position, and its throttle.
    public struct Places: Equatable, Sendable {
        /// False: no place names, the table is not mapped (`enabled = no`).
        public var enabled = true
        /// The table `scripts/build-places` compiles, e.g. `/usr/share/trackd/places.bin`.
        public var file = "/usr/share/trackd/places.bin"
        /// Distance to move from the last lookup before the next, in millimetres (200 m).
        public var minimumMoveMillimetres: Int64 = 200_000

        /// The defaults.
        public init() {}
    }

    /// `[time]`: which unit of the NTP shared-memory refclock trackd writes the receiver's
    /// time to, and the precision it states.
    public struct Time: Equatable, Sendable {
        /// Which unit: `auto` (0 when trackd runs as root, else 2), `off`, or a unit 0…3.
        public enum Unit: Equatable, Sendable {
            case auto
            case off
            case unit(Int)

            /// The unit for a process running as root (`isRoot`) or not, nil when off, e.g.
            /// `.auto` → 2 for the `trackd` user.
            public func resolved(isRoot: Bool) -> Int? {
                switch self {
                case .auto: isRoot ? 0 : 2
                case .off: nil
                case .unit(let unit): unit
                }
            }
        }

        /// `shm`, by default `auto`.
        public var shm = Unit.auto
        /// The precision written with each sample, log2 of seconds: -1 ≈ 0.5 s, what gpsd
        /// states for time from NMEA alone.
        public var precisionLog2Seconds: Int32 = -1

        /// The defaults.
        public init() {}
    }
}
