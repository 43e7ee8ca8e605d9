/// A slot of the LED table: one state or event of one line, named as its config key, e.g.
/// `.fix2D` is `fix-2d`.
public enum LEDPatternName: Int, CaseIterable, Equatable, Hashable, Sendable {
    /// led-fix, receiver silent.
    case fixSilent
    /// led-fix, sentences but no usable fix.
    case fixNoFix
    /// led-fix, 2D fix.
    case fix2D
    /// led-fix, 3D fix.
    case fix3D
    /// led-fix, serial port error.
    case fixPortError
    /// led-fix, the receiver asleep (power save).
    case fixAsleep
    /// led-status, permission `always`.
    case statusAlways
    /// led-status, `when-in-use` while in use.
    case statusInUse
    /// led-status, `when-in-use` while idle.
    case statusIdle
    /// led-status, `not-determined`.
    case statusNotDetermined
    /// led-status, `denied` (private mode).
    case statusDenied
    /// led-status, `restricted` (the config forbids logging).
    case statusRestricted
    /// led-status, storage error; pre-empts every other led-status pattern.
    case storageError
    /// led-status one-shot: a waypoint was saved.
    case waypointSaved
    /// led-status one-shot: private mode toggled.
    case privacyToggled
    /// led-fence, outside every fence.
    case fenceOutside
    /// led-fence, inside a fence.
    case fenceInside
    /// led-fence one-shot: a fence was entered or left.
    case fenceCrossed
    /// led-log between syncs.
    case logIdle
    /// led-log one-shot: the log was synced.
    case logSynced

    /// The config key naming this slot, e.g. `fix-2d`, `status-waypoint`.
    public var key: StaticString {
        switch self {
        case .fixSilent: return "fix-silent"
        case .fixNoFix: return "fix-no-fix"
        case .fix2D: return "fix-2d"
        case .fix3D: return "fix-3d"
        case .fixPortError: return "fix-port-error"
        case .fixAsleep: return "fix-asleep"
        case .statusAlways: return "status-always"
        case .statusInUse: return "status-in-use"
        case .statusIdle: return "status-idle"
        case .statusNotDetermined: return "status-not-determined"
        case .statusDenied: return "status-denied"
        case .statusRestricted: return "status-restricted"
        case .storageError: return "status-storage-error"
        case .waypointSaved: return "status-waypoint"
        case .privacyToggled: return "status-privacy"
        case .fenceOutside: return "fence-outside"
        case .fenceInside: return "fence-inside"
        case .fenceCrossed: return "fence-crossed"
        case .logIdle: return "log-idle"
        case .logSynced: return "log-synced"
        }
    }

    /// The line this slot drives.
    public var line: LEDLine {
        switch self {
        case .fixSilent, .fixNoFix, .fix2D, .fix3D, .fixPortError, .fixAsleep: return .fix
        case .statusAlways, .statusInUse, .statusIdle, .statusNotDetermined, .statusDenied,
             .statusRestricted, .storageError, .waypointSaved, .privacyToggled: return .status
        case .fenceOutside, .fenceInside, .fenceCrossed: return .fence
        case .logIdle, .logSynced: return .log
        }
    }

    /// The slot's mode and priority, which a config override keeps: storage error 3, waypoint
    /// 2, the other one-shots 1, the state patterns 0.
    public var role: (mode: LEDPattern.Mode, priority: UInt8) {
        switch self {
        case .storageError: return (.repeating, 3)
        case .waypointSaved: return (.once, 2)
        case .privacyToggled, .fenceCrossed, .logSynced: return (.once, 1)
        default: return (.repeating, 0)
        }
    }
}

/// Every LED pattern, one per `LEDPatternName` slot; `LEDTable()` is the default table of docs/wiring.md
/// and the config can replace any slot, e.g. `table[.fix2D] = try .parse("on 50 off 950")`.
///
/// Fixed size (20 patterns of at most 8 steps), no heap storage.
public struct LEDTable: Equatable, Sendable {
    private var patterns: InlineArray<20, LEDPattern>

    /// The default table (see `LEDTable.defaultPattern(for:)`).
    public init() {
        patterns = InlineArray(repeating: .off)
        for name in LEDPatternName.allCases {
            patterns[name.rawValue] = Self.defaultPattern(for: name)
        }
    }

    /// The pattern in `name`'s slot. Setting one applies the slot's mode and priority
    /// (`LEDPatternName.role`) whatever the new pattern says.
    public subscript(name: LEDPatternName) -> LEDPattern {
        get { patterns[name.rawValue] }
        set { patterns[name.rawValue] = newValue.with(mode: name.role.mode, priority: name.role.priority) }
    }

    /// Replaces `name`'s slot with the pattern `text` describes, e.g. `"on 100 off 900"`.
    /// Throws the parser's error (with its byte offset into `text`) and leaves the slot as it was.
    public mutating func override(_ name: LEDPatternName, with text: String) throws(LEDPatternError) {
        self[name] = try LEDPattern.parse(text)
    }

    public static func == (lhs: LEDTable, rhs: LEDTable) -> Bool {
        for name in LEDPatternName.allCases where lhs[name] != rhs[name] { return false }
        return true
    }
}

extension LEDTable {
    /// The default pattern of each slot, from the LED table of docs/wiring.md:
    ///
    /// | slot | pattern (ms) |
    /// |---|---|
    /// | fix-silent | off |
    /// | fix-no-fix | on 500 off 500 (1 Hz) |
    /// | fix-2d | on 100 off 100 on 100 off 700 (double flash) |
    /// | fix-3d | solid |
    /// | fix-port-error | on 100 off 100 (5 Hz) |
    /// | fix-asleep | on 50 off 4950 (a blip every 5 s) |
    /// | status-always, status-in-use | solid |
    /// | status-idle | on 250 off 4750 (0.2 Hz, a longer blip than denied's) |
    /// | status-not-determined | on 50 off 150 on 50 off 1750 (double blip every 2 s) |
    /// | status-denied, status-restricted | on 50 off 4950 |
    /// | status-storage-error | on 100 off 100, priority 3 |
    /// | status-waypoint | off 150 on 100 off 100 on 100 off 100 on 100 off 150, once, priority 2 |
    /// | status-privacy | off 250 on 1000 off 250, once, priority 1 |
    /// | fence-outside / fence-inside | off / solid |
    /// | fence-crossed | as status-waypoint, once, priority 1 |
    /// | log-idle | off |
    /// | log-synced | on 50, once, priority 1 |
    ///
    /// The flashes start and end with a dark gap so they show on a lit line as well as a dark one.
    public static func defaultPattern(for name: LEDPatternName) -> LEDPattern {
        let base: LEDPattern
        switch name {
        case .fixSilent, .fenceOutside, .logIdle: base = .off
        case .fix3D, .statusAlways, .statusInUse, .fenceInside: base = .solid
        case .fixNoFix: base = blink([1, 500, 0, 500])
        case .fix2D: base = blink([1, 100, 0, 100, 1, 100, 0, 700])
        case .fixPortError, .storageError: base = blink([1, 100, 0, 100])
        case .statusIdle: base = blink([1, 250, 0, 4750])
        case .statusNotDetermined: base = blink([1, 50, 0, 150, 1, 50, 0, 1750])
        case .statusDenied, .statusRestricted, .fixAsleep: base = blink([1, 50, 0, 4950])
        case .waypointSaved, .fenceCrossed:
            base = blink([0, 150, 1, 100, 0, 100, 1, 100, 0, 100, 1, 100, 0, 150])
        case .privacyToggled: base = blink([0, 250, 1, 1000, 0, 250])
        case .logSynced: base = blink([1, 50])
        }
        return base.with(mode: name.role.mode, priority: name.role.priority)
    }

    /// A pattern from alternating level, milliseconds pairs (start-up only; the table is valid).
    private static func blink(_ pairs: [Int32]) -> LEDPattern {
        var steps: [LEDStep] = []
        var index = 0
        while index + 1 < pairs.count {
            steps.append(LEDStep(on: pairs[index] != 0, milliseconds: pairs[index + 1]))
            index += 2
        }
        return LEDPattern(steps: steps) ?? .off
    }
}
