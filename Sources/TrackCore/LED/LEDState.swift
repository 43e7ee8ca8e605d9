/// One of the four status LEDs, named as in the board pin map, e.g. `.fix` is `led-fix`.
public enum LEDLine: Int, CaseIterable, Equatable, Hashable, Sendable {
    /// `led-fix`: what the receiver is doing.
    case fix
    /// `led-status`: permission state, storage errors, acknowledgements.
    case status
    /// `led-fence`: inside a geofence, crossings.
    case fence
    /// `led-log`: a flash per sync of the track log.
    case log

    /// The pin map's name for the line, e.g. `led-fix`.
    public var name: StaticString {
        switch self {
        case .fix: return "led-fix"
        case .status: return "led-status"
        case .fence: return "led-fence"
        case .log: return "led-log"
        }
    }
}

/// The levels of the four LED lines at one instant, e.g. `levels[.fix] == true` when led-fix is lit.
public struct LEDLevels: Equatable, Hashable, Sendable {
    /// One bit per `LEDLine.rawValue`, 1 = lit.
    public var bits: UInt8

    /// Levels from their bits (bit 0 = led-fix … bit 3 = led-log); all dark by default.
    public init(bits: UInt8 = 0) { self.bits = bits & 0x0F }

    /// Whether `line` is lit.
    public subscript(line: LEDLine) -> Bool {
        get { bits & (1 << UInt8(line.rawValue)) != 0 }
        set {
            let mask: UInt8 = 1 << UInt8(line.rawValue)
            bits = newValue ? bits | mask : bits & ~mask
        }
    }
}

/// What the receiver is doing, as `led-fix` shows it.
public enum ReceiverLEDState: Equatable, Sendable {
    /// No bytes from the receiver: led-fix off.
    case silent
    /// Sentences arrive, but no usable fix: slow blink.
    case noFix
    /// A usable 2D fix: double flash.
    case fix2D
    /// A usable 3D fix: solid.
    case fix3D
    /// The serial port failed (gone, I/O error): fast blink.
    case portError
    /// The receiver sleeps (power save while the tracker stands still): a blip every 5 s.
    case asleep
}

/// The permission state as `led-status` shows it (the state machine itself lives elsewhere).
public enum PermissionLEDState: Equatable, Sendable {
    /// First boot, nothing logged yet: double blip every 2 s.
    case notDetermined
    /// The config forbids logging: the denied blip.
    case restricted
    /// Private mode: a 50 ms blip every 5 s.
    case denied
    /// Logging only while in use: solid when `inUse`, a slow blip when idle.
    case whenInUse(inUse: Bool)
    /// Always logging: solid.
    case always
}

/// The one-shot LED events: for each kind, when it last happened (nil: not since start-up).
///
/// Only the latest trigger of each kind is kept: a second waypoint during the first one's
/// flashes restarts them. Fixed size, no allocation.
public struct LEDEvents: Equatable, Sendable {
    /// A waypoint was saved (button or `trackctl mark`): 3 quick flashes on led-status.
    public var waypointSaved: MonotonicTime?
    /// Private mode was toggled: one 1 s flash on led-status.
    public var privacyToggled: MonotonicTime?
    /// A fence was entered or left: 3 quick flashes on led-fence.
    public var fenceCrossed: MonotonicTime?
    /// The track log was synced to flash: a short flash on led-log.
    public var logSynced: MonotonicTime?

    /// Events at the given times; none by default.
    public init(waypointSaved: MonotonicTime? = nil, privacyToggled: MonotonicTime? = nil,
                fenceCrossed: MonotonicTime? = nil, logSynced: MonotonicTime? = nil) {
        self.waypointSaved = waypointSaved
        self.privacyToggled = privacyToggled
        self.fenceCrossed = fenceCrossed
        self.logSynced = logSynced
    }
}

/// Everything the LEDs show: the states, and the one-shot events with their start times.
public struct LEDInputs: Equatable, Sendable {
    /// The receiver's state for led-fix.
    public var receiver: ReceiverLEDState
    /// The permission state for led-status.
    public var permission: PermissionLEDState
    /// A storage error (an fsync failed): fast blink on led-status, above everything else.
    public var storageError: Bool
    /// Inside at least one geofence: led-fence on.
    public var insideFence: Bool
    /// The one-shot events.
    public var events: LEDEvents

    /// Inputs; by default a silent receiver, not-determined, no error, outside, no events.
    public init(receiver: ReceiverLEDState = .silent, permission: PermissionLEDState = .notDetermined,
                storageError: Bool = false, insideFence: Bool = false, events: LEDEvents = LEDEvents()) {
        self.receiver = receiver
        self.permission = permission
        self.storageError = storageError
        self.insideFence = insideFence
        self.events = events
    }
}

/// What the LEDs show at `now`, and when that next changes.
public struct LEDFrame: Equatable, Sendable {
    /// The four lines' levels at `now`.
    public var levels: LEDLevels
    /// The first instant after `now` at which a line changes level when the inputs stay as
    /// they are; nil when no line will ever change (all steady). The loop sleeps until then.
    public var nextEdge: MonotonicTime?

    /// A frame of `levels` whose next change is at `nextEdge`.
    public init(levels: LEDLevels, nextEdge: MonotonicTime?) {
        self.levels = levels
        self.nextEdge = nextEdge
    }
}
