/// What one gpsd client watches, as its `?WATCH` requests left it; gpsd's defaults: nothing
/// enabled, `json` on once enabled.
public struct GpsdWatch: Equatable, Sendable {
    /// Streaming at all.
    public var enable = false
    /// TPV and SKY per epoch.
    public var json = false
    /// The receiver's sentences as received.
    public var nmea = false
    /// gpsd's raw level, echoed in WATCH (for NMEA, ≥ 1 streams the sentences too).
    public var raw = 0
    /// The device the client named; empty: every device.
    public var device = GpsdDevicePath()

    /// Not watching.
    public init() {}

    /// True when TPV and SKY go to the client.
    public var wantsJSON: Bool { enable && json }
    /// True when raw sentences go to the client.
    public var wantsSentences: Bool { enable && (nmea || raw > 0) }

    /// Applies a `?WATCH` change as gpsd 3.22 does: `enable` alone turns `json` on unless the
    /// same request asked for `nmea` or `raw`.
    public mutating func apply(_ change: GpsdWatchChange) {
        if let value = change.enable { enable = value }
        if let value = change.json { json = value }
        if let value = change.nmea { nmea = value }
        if let value = change.raw { raw = min(max(value, 0), 2) }
        if !change.device.isEmpty { device = change.device }
        if change.enable == true && change.json == nil && change.nmea == nil && change.raw == nil { json = true }
    }
}
