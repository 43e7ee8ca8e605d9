/// gpsd's JSON objects as Debian 12's gpsd 3.22 writes them: no space after a colon, members in
/// its order, absent data left out (never `null`), each object followed by CRLF. Written into a
/// `TextBuffer` with no heap allocation, e.g.
/// `{"class":"TPV","device":"/dev/serial0","mode":3,"time":"2017-01-10T00:09:41.000Z",...}\r\n`.
///
/// Units as gpsd: degrees (9 decimals), metres (altitudes 4 decimals, others 3), m/s.
public enum GpsdJSON {
    /// gpsd's release trackd speaks for, and its protocol version (3.14 is Debian 12's gpsd).
    public static var release: StaticString { "3.22" }
    public static var protocolMajor: Int64 { 3 }
    public static var protocolMinor: Int64 { 14 }

    /// `{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}`
    public static func writeVersion(to buffer: inout TextBuffer) {
        buffer.append("{\"class\":\"VERSION\",\"release\":\"")
        buffer.append(release)
        buffer.append("\",\"rev\":\"")
        buffer.append(release)
        buffer.append("\",\"proto_major\":")
        buffer.append(integer: protocolMajor)
        buffer.append(",\"proto_minor\":")
        buffer.append(integer: protocolMinor)
        end(&buffer)
    }

    /// The receiver as a DEVICE object's members (without the braces), e.g.
    /// `"class":"DEVICE","path":"/dev/serial0","driver":"NMEA0183",...`.
    static func writeDeviceMembers(_ device: GpsdDeviceInfo, to buffer: inout TextBuffer) {
        buffer.append("\"class\":\"DEVICE\",\"path\":")
        appendString(device.path, to: &buffer)
        if device.seenSentences { buffer.append(",\"driver\":\"NMEA0183\"") }
        if let activated = device.activated {
            buffer.append(",\"activated\":\"")
            activated.write(to: &buffer)
            buffer.append(UInt8(ascii: "\""))
        }
        buffer.append(",\"native\":0")
        if let baud = device.baud {
            buffer.append(",\"bps\":")
            buffer.append(integer: Int64(baud))
        }
        buffer.append(",\"parity\":\"N\",\"stopbits\":1,\"cycle\":1.00")
    }

    /// `{"class":"DEVICES","devices":[{...}]}`; no device while the receiver is closed. Not
    /// inlined, nor POLL below: the gpsd service's answer had a copy of each per call site.
    @inline(never)
    public static func writeDevices(_ device: GpsdDeviceInfo?, to buffer: inout TextBuffer) {
        buffer.append("{\"class\":\"DEVICES\",\"devices\":[")
        if let device {
            buffer.append(UInt8(ascii: "{"))
            writeDeviceMembers(device, to: &buffer)
            buffer.append(UInt8(ascii: "}"))
        }
        buffer.append(UInt8(ascii: "]"))
        end(&buffer)
    }

    /// `{"class":"WATCH","enable":true,"json":true,"nmea":false,"raw":0,"scaled":false,...}`
    public static func writeWatch(_ watch: GpsdWatch, to buffer: inout TextBuffer) {
        buffer.append("{\"class\":\"WATCH\",\"enable\":")
        appendBool(watch.enable, to: &buffer)
        buffer.append(",\"json\":")
        appendBool(watch.json, to: &buffer)
        buffer.append(",\"nmea\":")
        appendBool(watch.nmea, to: &buffer)
        buffer.append(",\"raw\":")
        buffer.append(integer: Int64(watch.raw))
        buffer.append(",\"scaled\":false,\"timing\":false,\"split24\":false,\"pps\":false")
        if !watch.device.isEmpty {
            buffer.append(",\"device\":")
            appendString(watch.device, to: &buffer)
        }
        end(&buffer)
    }

    /// `{"class":"ERROR","message":"Unrecognized request '?FOO'"}`: `request` is quoted back
    /// (JSON-escaped) as gpsd does.
    public static func writeUnrecognized(_ request: Span<UInt8>, to buffer: inout TextBuffer) {
        buffer.append("{\"class\":\"ERROR\",\"message\":\"Unrecognized request '")
        appendEscaped(request, to: &buffer)
        buffer.append("'\"")
        end(&buffer)
    }

    /// `{"class":"ERROR","message":"No such device as /dev/x"}`
    public static func writeNoSuchDevice(_ path: GpsdDevicePath, to buffer: inout TextBuffer) {
        buffer.append("{\"class\":\"ERROR\",\"message\":\"No such device as ")
        path.withSpan { appendEscaped($0, to: &buffer) }
        buffer.append(UInt8(ascii: "\""))
        end(&buffer)
    }

    /// `{"class":"ERROR","message":"…"}` with a fixed message.
    public static func writeError(_ message: StaticString, to buffer: inout TextBuffer) {
        buffer.append("{\"class\":\"ERROR\",\"message\":\"")
        buffer.append(message)
        buffer.append(UInt8(ascii: "\""))
        end(&buffer)
    }

    /// `{"class":"POLL","time":…,"active":1,"tpv":[…],"sky":[…]}`: the last epoch (already
    /// disclosed) and the whole sky view as its last SKY had it, or empty lists before the first.
    @inline(never)
    public static func writePoll(
        time: UTCTime, active: Bool, fix: Fix?, sky: borrowing SkyView, positions: Bool, device: GpsdDevicePath,
        to buffer: inout TextBuffer
    ) {
        buffer.append("{\"class\":\"POLL\",\"time\":\"")
        time.write(to: &buffer)
        buffer.append("\",\"active\":")
        buffer.append(integer: active ? 1 : 0)
        buffer.append(",\"tpv\":[")
        if let fix {
            buffer.append(UInt8(ascii: "{"))
            writeTPVMembers(fix, device: device, to: &buffer)
            buffer.append(UInt8(ascii: "}"))
        }
        buffer.append("],\"sky\":[")
        if let fix, hasSky(fix) {
            let mark = buffer.count
            buffer.append(UInt8(ascii: "{"))
            writeSKYMembers(fix, sky: sky, satellites: sky.completeCount, positions: positions, device: device, to: &buffer)
            if buffer.overflowed {
                // gpsd's 140 satellites beside the TPV: the sky's counts, the object whole.
                buffer.truncate(to: mark)
                buffer.append(UInt8(ascii: "{"))
                writeSKYMembers(fix, sky: sky, satellites: 0, positions: positions, device: device, to: &buffer)
            }
            buffer.append(UInt8(ascii: "}"))
        }
        buffer.append(UInt8(ascii: "]"))
        end(&buffer)
    }

    static func end(_ buffer: inout TextBuffer) {
        buffer.append(UInt8(ascii: "}"))
        buffer.append("\r\n")
    }
}

/// The receiver as DEVICES and DEVICE describe it.
public struct GpsdDeviceInfo: Sendable {
    /// Device (or replay file) path.
    public var path: GpsdDevicePath
    /// Line speed, when it means something.
    public var baud: Int?
    /// When it was opened (the best UTC time trackd had then).
    public var activated: UTCTime?
    /// True once sentences came: gpsd names its driver then.
    public var seenSentences: Bool

    /// A device described by these values.
    public init(path: GpsdDevicePath, baud: Int?, activated: UTCTime?, seenSentences: Bool) {
        self.path = path
        self.baud = baud
        self.activated = activated
        self.seenSentences = seenSentences
    }
}

extension GpsdJSON {
    /// `name` then `value / 10^decimals`, e.g. `(",\"hdop\":", 101, 2)` → `,"hdop":1.01`.
    @inline(never)
    static func member(_ name: StaticString, _ value: Int64, _ decimals: Int, _ buffer: inout TextBuffer) {
        buffer.append(name)
        buffer.appendFixed(value, decimals: decimals)
    }

    /// `value / unit` rounded half away from zero.
    static func rounded(_ value: Int64, _ unit: Int64) -> Int64 {
        value >= 0 ? (value + unit / 2) / unit : -((-value + unit / 2) / unit)
    }

    static func appendBool(_ value: Bool, to buffer: inout TextBuffer) {
        if value { buffer.append("true") } else { buffer.append("false") }
    }

    /// A device path as a JSON string.
    static func appendString(_ path: GpsdDevicePath, to buffer: inout TextBuffer) {
        buffer.append(UInt8(ascii: "\""))
        path.withSpan { appendEscaped($0, to: &buffer) }
        buffer.append(UInt8(ascii: "\""))
    }

    /// JSON string escaping: `"` and `\` backslashed, control bytes as `\n`, `\r`, `\t` or `\u00XX`.
    static func appendEscaped(_ bytes: Span<UInt8>, to buffer: inout TextBuffer) {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                buffer.append(UInt8(ascii: "\\"))
                buffer.append(byte)
            case 10: buffer.append("\\n")
            case 13: buffer.append("\\r")
            case 9: buffer.append("\\t")
            case 0..<32, 127:
                buffer.append("\\u00")
                let digits: StaticString = "0123456789abcdef"
                buffer.append(digits.utf8Start[Int(byte >> 4)])
                buffer.append(digits.utf8Start[Int(byte & 0xF)])
            case 0x80...:
                // Well-formed UTF-8 as it is (a device path may hold it); any other byte (a client's
                // garbage echoed in an ERROR) as U+FFFD, so every object stays JSON. gpsd copies
                // such bytes raw, which python's json module and most readers refuse.
                if let length = UTF8Sequence.length(bytes, at: index) {
                    for offset in 0..<length { buffer.append(bytes[index + offset]) }
                    index += length
                    continue
                }
                buffer.append("\\ufffd")
            default:
                buffer.append(byte)
            }
            index += 1
        }
    }
}
