/// One position for Traccar's OsmAnd protocol (its port 5055), in the log's units, e.g. 48.1173°N
/// 11.5167°E at 12:01:29Z, 5.14 m/s, 84°, 545.4 m, ±3.2 m.
public struct OsmAndPosition: Equatable, Sendable {
    public var time: UTCTime
    public var position: LogPosition
    public var speedCentimetresPerSecond: Int32?
    public var courseCentidegrees: Int32?
    public var altitudeDecimetres: Int32?
    public var accuracyDecimetres: Int32?

    /// A position; the optionals are left out of the request when nil.
    public init(time: UTCTime, position: LogPosition, speedCentimetresPerSecond: Int32? = nil,
                courseCentidegrees: Int32? = nil, altitudeDecimetres: Int32? = nil, accuracyDecimetres: Int32? = nil) {
        self.time = time
        self.position = position
        self.speedCentimetresPerSecond = speedCentimetresPerSecond
        self.courseCentidegrees = courseCentidegrees
        self.altitudeDecimetres = altitudeDecimetres
        self.accuracyDecimetres = accuracyDecimetres
    }
}

/// Writes the HTTP/1.1 request of Traccar's OsmAnd protocol (`OsmAndProtocolDecoder`): a POST
/// whose query carries the position and an empty body, as the Traccar Client app sends it, e.g.
///
///     POST /?id=tracker-7&timestamp=1750507289&lat=48.1173000&lon=11.5167000&speed=9.991
///         &bearing=84.00&altitude=545.4&accuracy=3.2 HTTP/1.1\r\n
///     Host: 127.0.0.1:5055\r\nContent-Length: 0\r\n\r\n
///
/// The decoder reads the URI's query first and the body only when the query is empty, takes
/// `id`, `timestamp` as epoch seconds (below 2^31 − 1) or milliseconds, `lat`, `lon`,
/// `speed` in knots, `bearing`, `altitude` in metres, `accuracy` in metres; `batt` is left out
/// (a tracker on a supply has no battery level to give). The time is whole seconds when it is
/// one, milliseconds otherwise (a 5 Hz receiver's 12:01:29.2). A keep-alive connection takes
/// one request after the other; the answer is `HTTPResponseReader`'s.
public enum OsmAndRequest {
    /// Appends the request for `position` from device `deviceID` (percent-encoded into the
    /// query) to `host` (the Host header, e.g. "127.0.0.1:5055") at `path` (the server's
    /// path, normally "/"). Throws `.invalidPath` before writing anything, `.bufferFull` when
    /// the request did not fit (the buffer then holds a cut request: write each request into
    /// an empty buffer and send nothing after an error).
    public static func write(_ position: OsmAndPosition, deviceID: String, host: String, path: String = "/",
                             to buffer: inout TextBuffer) throws(OsmAndError) {
        guard path.utf8.first == UInt8(ascii: "/") else { throw .invalidPath }
        for byte in path.utf8 where byte <= 0x20 || byte >= 0x7F || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") {
            throw .invalidPath
        }
        buffer.append("POST ")
        buffer.append(string: path)
        buffer.append("?id=")
        for byte in deviceID.utf8 { appendQueryByte(byte, to: &buffer) }
        buffer.append("&timestamp=")
        let milliseconds = position.time.millisecondsSinceEpoch
        buffer.append(integer: milliseconds % 1_000 == 0 ? milliseconds / 1_000 : milliseconds)
        buffer.append("&lat=")
        buffer.appendFixed(Int64(position.position.latitudeE7), decimals: 7)
        buffer.append("&lon=")
        buffer.appendFixed(Int64(position.position.longitudeE7), decimals: 7)
        if let speed = position.speedCentimetresPerSecond {
            buffer.append("&speed=")
            buffer.appendFixed(UplinkUnits.milliknots(centimetresPerSecond: speed), decimals: 3)
        }
        if let course = position.courseCentidegrees {
            buffer.append("&bearing=")
            buffer.appendFixed(Int64(course), decimals: 2)
        }
        if let altitude = position.altitudeDecimetres {
            buffer.append("&altitude=")
            buffer.appendFixed(Int64(altitude), decimals: 1)
        }
        if let accuracy = position.accuracyDecimetres {
            buffer.append("&accuracy=")
            buffer.appendFixed(Int64(accuracy), decimals: 1)
        }
        buffer.append(" HTTP/1.1\r\nHost: ")
        buffer.append(string: host)
        buffer.append("\r\nContent-Length: 0\r\n\r\n")
        guard !buffer.overflowed else { throw .bufferFull }
    }

    /// One byte of a query value: RFC 3986's unreserved characters as they are, any other
    /// byte as `%XX`, e.g. `tracker 7` → `tracker%207`.
    static func appendQueryByte(_ byte: UInt8, to buffer: inout TextBuffer) {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
             UInt8(ascii: "~"):
            buffer.append(byte)
        default:
            buffer.append(UInt8(ascii: "%"))
            buffer.append(HexDigit.character(byte >> 4, uppercase: true))
            buffer.append(HexDigit.character(byte, uppercase: true))
        }
    }
}

/// Why a request could not be written or what Traccar's answer means, e.g. `.unknownDevice`.
public enum OsmAndError: Error, Equatable, Sendable {
    /// The request did not fit the buffer.
    case bufferFull
    /// A path that is not `/…` of printable ASCII without `?` or `#`.
    case invalidPath
    /// HTTP 400: Traccar knows no device with this id (or none was sent): add the device (its
    /// identifier is the configured id) on the server.
    case unknownDevice(deviceID: String)
    /// Any other status than 200, e.g. 404 from a server that is not Traccar's OsmAnd port.
    case status(Int)

    /// A one-line explanation, e.g. "the server answered 400: no device 'tracker-7' is
    /// registered (add it in Traccar with that identifier)".
    public var description: String {
        switch self {
        case .bufferFull: "the request does not fit the buffer"
        case .invalidPath: "the path must start with / and hold printable ASCII without ? or #"
        case .unknownDevice(let id):
            "the server answered 400: no device '" + id + "' is registered (add it in Traccar with that identifier)"
        case .status(let code): "the server answered HTTP " + String(code) + ", not 200"
        }
    }

    /// What an HTTP status means for a position sent: nil for 200 (acknowledged), else the
    /// error, e.g. 400 → `.unknownDevice`.
    public static func check(status: Int, deviceID: String) -> OsmAndError? {
        switch status {
        case 200: nil
        case 400: .unknownDevice(deviceID: deviceID)
        default: .status(status)
        }
    }
}
