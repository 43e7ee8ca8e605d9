import TrackCore
import TrackIO

// The words and numbers every reply and journal line is made of: one place for each.

/// Ends `line`, moves it into `reply` and clears it.
func emit(_ line: inout TextBuffer, _ reply: inout ReplyBuffer) {
    line.append(UInt8(ascii: "\n"))
    reply.append(&line)
    line.removeAll()
}

/// `1h02m`, `3m05s`, `12.3s`.
func appendDuration(_ line: inout TextBuffer, milliseconds: Int64) {
    let total = max(milliseconds, 0)
    if total < 60_000 {
        line.appendFixed(total / 100, decimals: 1)
        line.append("s")
    } else if total < 3_600_000 {
        line.append(integer: total / 60_000)
        line.append("m")
        line.append(integer: Int(total / 1000 % 60), width: 2)
        line.append("s")
    } else {
        line.append(integer: total / 3_600_000)
        line.append("h")
        line.append(integer: Int(total / 60_000 % 60), width: 2)
        line.append("m")
    }
}

/// `48.117300°N 11.516700°E` (six decimals, ~0.1 m), or `48.117300,11.516700` when plain.
func appendPosition(_ line: inout TextBuffer, _ position: Coordinate, separator: StaticString, plain: Bool = false) {
    let latitude = roundedMicrodegrees(position.latitudeNanodegrees)
    let longitude = roundedMicrodegrees(position.longitudeNanodegrees)
    if plain {
        line.appendFixed(latitude, decimals: 6)
        line.append(",")
        line.appendFixed(longitude, decimals: 6)
        return
    }
    line.appendFixed(latitude.magnitude == 0 ? 0 : Int64(latitude.magnitude), decimals: 6)
    line.append(latitude < 0 ? "°S" : "°N")
    line.append(separator)
    line.appendFixed(Int64(longitude.magnitude), decimals: 6)
    line.append(longitude < 0 ? "°W" : "°E")
}

func roundedMicrodegrees(_ nanodegrees: Int64) -> Int64 {
    nanodegrees >= 0 ? (nanodegrees + 500) / 1000 : -((-nanodegrees + 500) / 1000)
}

func modeName(_ mode: FixMode) -> StaticString {
    switch mode {
    case .unknown: "no data"
    case .noFix: "no fix"
    case .twoD: "2D"
    case .threeD: "3D"
    }
}

func appendCounter(_ line: inout TextBuffer, _ name: StaticString, _ value: Int, first: Bool = false) {
    if !first { line.append(",") }
    line.append("\"")
    line.append(name)
    line.append("\":")
    line.append(integer: Int64(value))
}

/// The reason a person reads, e.g. `inaccurate`.
func rejectionName(_ rejection: FilterRejection) -> StaticString {
    switch rejection {
    case .invalid: "invalid (no fix)"
    case .noPosition: "no position"
    case .noTime: "no time"
    case .stale: "stale"
    case .tooFewSatellites: "too few satellites"
    case .inaccurate: "inaccurate"
    case .implausibleJump: "an implausible jump"
    }
}

/// What to do when fixes keep being rejected for `rejection`.
func rejectionAdvice(_ rejection: FilterRejection) -> StaticString {
    switch rejection {
    case .invalid, .noPosition:
        "the receiver reports no usable fix: give the antenna open sky"
    case .noTime:
        "the receiver sends no date (RMC or ZDA): enable RMC in the receiver's output"
    case .stale:
        "the receiver's time goes backwards or lags: check for a second program writing to the port"
    case .tooFewSatellites:
        "fewer satellites than [filter] min-satellites: give the antenna a wider view of the sky"
    case .inaccurate:
        "accuracy worse than [filter] max-accuracy: give the antenna open sky, or raise max-accuracy"
    case .implausibleJump:
        "positions jump faster than [filter] max-speed: multipath near buildings, or raise max-speed"
    }
}

/// The LED's name without `led-`, e.g. `fix`.
func ledShortName(_ led: LEDLine) -> StaticString {
    switch led {
    case .fix: "fix"
    case .status: "status"
    case .fence: "fence"
    case .log: "log"
    }
}

/// `12.345 km`, or `850 m` below a kilometre.
func appendDistance(_ line: inout TextBuffer, millimetres: Int64) {
    if millimetres < 1_000_000 {
        line.append(integer: millimetres / 1000)
        line.append(" m")
    } else {
        line.appendFixed(millimetres / 1000, decimals: 3)
        line.append(" km")
    }
}

/// The state's name as `trackctl` spells it.
func permissionName(_ state: PermissionState) -> StaticString {
    switch state {
    case .notDetermined: "not-determined"
    case .restricted: "restricted"
    case .denied: "denied"
    case .whenInUse: "when-in-use"
    case .always: "always"
    }
}

/// `812 bytes`, `81 KiB`, `212 MiB`, `7.1 GiB`.
func appendBytes(_ line: inout TextBuffer, _ bytes: Int64) {
    if bytes < 10 << 10 {
        line.append(integer: bytes)
        line.append(" bytes")
    } else if bytes < 10 << 20 {
        line.append(integer: bytes >> 10)
        line.append(" KiB")
    } else if bytes < 10 << 30 {
        line.append(integer: bytes >> 20)
        line.append(" MiB")
    } else {
        line.appendFixed(bytes * 10 >> 30, decimals: 1)
        line.append(" GiB")
    }
}
