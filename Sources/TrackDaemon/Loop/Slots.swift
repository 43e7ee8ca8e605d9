import TrackCore
import TrackIO

/// The loop's slots, one range per service.
enum Slot {
    static var signals: Int { 0 }
    static var receiver: Int { 1 }
    static var button: Int { 2 }
    static var inUse: Int { 3 }
    /// The control socket's listener, then its clients.
    static var control: Range<Int> { 4..<(5 + ControlServer.clientCapacity) }
    /// gpsd's listeners, then its clients.
    static var gpsd: Range<Int> {
        control.upperBound..<(control.upperBound + TrackdConfig.Gpsd.maxListeners + TrackdConfig.Gpsd.clientLimit)
    }
}

/// The loop's timers.
enum TimerID {
    static var watchdog: Int { 0 }
    static var logSync: Int { 1 }
    static var leds: Int { 2 }
    static var odometer: Int { 3 }
    static var simulatedRelease: Int { 4 }
    static var precise: Int { 5 }
}

/// The earlier of two optional deadlines.
func earliest(_ a: MonotonicTime?, _ b: MonotonicTime?) -> MonotonicTime? {
    guard let a else { return b }
    guard let b else { return a }
    return min(a, b)
}
