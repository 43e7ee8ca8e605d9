/// A position at the log's precision: integer 1e-7 degrees (about 1.1 cm of latitude), e.g.
/// 48.1173°N 11.5167°E is `LogPosition(latitudeE7: 481_173_000, longitudeE7: 115_167_000)`.
///
/// Latitude −900_000_000…900_000_000, longitude −1_800_000_000…1_800_000_000 in valid data; any
/// `Int32` round-trips through the codec.
public struct LogPosition: Equatable, Hashable, Sendable {
    /// Latitude in 1e-7 degrees, north positive.
    public var latitudeE7: Int32
    /// Longitude in 1e-7 degrees, east positive.
    public var longitudeE7: Int32

    /// A position from 1e-7 degree units.
    public init(latitudeE7: Int32, longitudeE7: Int32) {
        self.latitudeE7 = latitudeE7
        self.longitudeE7 = longitudeE7
    }

    /// `coordinate` rounded to the nearest 1e-7° (half away from zero), e.g. 48_117_300_049 nanodegrees
    /// → 481_173_000; values outside ±214.7° are clamped.
    public init(_ coordinate: Coordinate) {
        latitudeE7 = Self.e7(coordinate.latitudeNanodegrees)
        longitudeE7 = Self.e7(coordinate.longitudeNanodegrees)
    }

    /// The position in nanodegrees (exact: 1e-7° is 100 nanodegrees).
    public var coordinate: Coordinate {
        Coordinate(latitudeNanodegrees: Int64(latitudeE7) * 100, longitudeNanodegrees: Int64(longitudeE7) * 100)
    }

    static func e7(_ nanodegrees: Int64) -> Int32 {
        let rounded = nanodegrees >= 0 ? (nanodegrees + 50) / 100 : (nanodegrees - 50) / 100
        return Int32(clamping: rounded)
    }
}

/// One recorded fix at the log's precision, e.g. 12:00:00Z at 48.1173°N 11.5167°E, 545.4 m,
/// 5.14 m/s, course 84.4°, ±3.2 m, 3D.
///
/// Absent optionals are stored as absent (nil round-trips as nil, never as 0).
public struct LogFix: Equatable, Sendable {
    /// UTC time in milliseconds since the epoch.
    public var time: UTCTime
    /// Position in 1e-7 degrees.
    public var position: LogPosition
    /// Altitude above mean sea level in decimetres, e.g. 5454 for 545.4 m.
    public var altitudeDecimetres: Int32?
    /// Speed over ground in cm/s, e.g. 514 for 5.14 m/s.
    public var speedCentimetresPerSecond: Int32?
    /// Course over ground, true, in centidegrees 0…35_999, e.g. 8_440 for 84.4°.
    public var courseCentidegrees: Int32?
    /// Horizontal accuracy (1σ or HDOP × UERE, as the filter estimated it) in decimetres, e.g. 32.
    public var accuracyDecimetres: Int32?
    /// Fix dimension.
    public var mode: FixMode

    /// A fix; the optionals default to absent.
    public init(time: UTCTime, position: LogPosition, altitudeDecimetres: Int32? = nil,
                speedCentimetresPerSecond: Int32? = nil, courseCentidegrees: Int32? = nil,
                accuracyDecimetres: Int32? = nil, mode: FixMode) {
        self.time = time
        self.position = position
        self.altitudeDecimetres = altitudeDecimetres
        self.speedCentimetresPerSecond = speedCentimetresPerSecond
        self.courseCentidegrees = courseCentidegrees
        self.accuracyDecimetres = accuracyDecimetres
        self.mode = mode
    }
}

/// What a geofence saw, as stored in the log: 0 enter, 1 exit, 2 dwell.
public enum FenceEventKind: UInt8, Equatable, Sendable {
    /// The position came inside the fence.
    case enter = 0
    /// The position left the fence.
    case exit = 1
    /// The position stayed inside for the fence's dwell time.
    case dwell = 2
}

/// The persisted permission state, as stored in the log: 0 not-determined … 4 always.
public enum LogPermissionState: UInt8, Equatable, Sendable {
    /// First boot, nothing logged yet.
    case notDetermined = 0
    /// Logging prevented by configuration.
    case restricted = 1
    /// Private mode: nothing logged.
    case denied = 2
    /// Log only while the in-use input is active or a trip is detected.
    case whenInUse = 3
    /// Log always.
    case always = 4
}

/// One entry of the track log. Times are UTC milliseconds since the epoch.
///
/// Example: `.waypoint(time: t, position: p, label: LogLabel("camp 2")!)` for a button press.
public enum LogRecord: Equatable, Sendable {
    /// A recorded fix.
    case fix(LogFix)
    /// A marked place with a label of up to 64 bytes (may be empty).
    case waypoint(time: UTCTime, position: LogPosition, label: LogLabel)
    /// A geofence transition: fence id (index in the fence file, 0…2^32−1), kind, and the position
    /// that caused it.
    case fenceEvent(time: UTCTime, fenceID: UInt32, kind: FenceEventKind, position: LogPosition)
    /// The permission state changed from `old` to `new`.
    case permissionChange(time: UTCTime, old: LogPermissionState, new: LogPermissionState)
    /// The daemon started; `bootID` is the first 8 bytes of the kernel's boot id, as one integer.
    case bootMarker(time: UTCTime, bootID: UInt64)
    /// Nothing was recorded between `from` and `to` (no fix, permission off, storage error).
    case gap(from: UTCTime, to: UTCTime)
    /// The receiver slept from `from` to `to` (power save while the tracker stood still): a
    /// planned pause, a stop and not a lost signal, with nothing recorded in it. Format 6:
    /// the writer starts a keyframe of version 6 for it (docs/log-format.md).
    case receiverAsleep(from: UTCTime, to: UTCTime)

    /// The record's time (`from` for a gap or a sleep).
    public var time: UTCTime {
        switch self {
        case .fix(let fix): return fix.time
        case .waypoint(let time, _, _), .fenceEvent(let time, _, _, _), .permissionChange(let time, _, _),
             .bootMarker(let time, _), .gap(let time, _), .receiverAsleep(let time, _):
            return time
        }
    }
}

extension LogRecord {
    /// True for a sleep record (`receiverAsleep`).
    public var isReceiverAsleep: Bool {
        if case .receiverAsleep = self { return true }
        return false
    }
}
