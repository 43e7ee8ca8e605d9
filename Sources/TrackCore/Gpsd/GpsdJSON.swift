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

    /// `{"class":"DEVICES","devices":[{...}]}`; no device while the receiver is closed.
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

    /// One epoch as TPV. `fix` must already be what may leave (`Fix.disclosed`): a withheld
    /// fix has no position, speed or track, so none is written, and its mode is 1 (no fix).
    public static func writeTPV(_ fix: borrowing Fix, device: GpsdDevicePath, to buffer: inout TextBuffer) {
        buffer.append(UInt8(ascii: "{"))
        writeTPVMembers(fix, device: device, to: &buffer)
        buffer.append(UInt8(ascii: "}"))
        buffer.append("\r\n")
    }

    static func writeTPVMembers(_ fix: borrowing Fix, device: GpsdDevicePath, to buffer: inout TextBuffer) {
        buffer.append("\"class\":\"TPV\",\"device\":")
        appendString(device, to: &buffer)
        if let status = status(fix) {
            buffer.append(",\"status\":")
            buffer.append(integer: status)
        }
        // A fix is one only with its position: clients take mode 2 or 3 to mean lat and lon are
        // there (gpxlogger writes `lat="nan"` track points otherwise), so a withheld fix says 1.
        // gpsd never says 0 once a device talks: "no fix" until it has one.
        var hasFix = fix.mode.rawValue >= FixMode.twoD.rawValue
        if fix.position == nil { hasFix = false }
        buffer.append(",\"mode\":")
        buffer.append(integer: Int64(hasFix ? fix.mode.rawValue : FixMode.noFix.rawValue))
        if let time = fix.time {
            buffer.append(",\"time\":\"")
            time.write(to: &buffer)
            buffer.append(UInt8(ascii: "\""))
        }
        if hasFix, let position = fix.position {
            member(",\"lat\":", position.latitudeNanodegrees, 9, &buffer)
            member(",\"lon\":", position.longitudeNanodegrees, 9, &buffer)
        }
        if fix.mode == .threeD {
            if let hae = fix.altitudeHAEMillimetres { member(",\"altHAE\":", Int64(hae) * 10, 4, &buffer) }
            if let msl = fix.altitudeMSLMillimetres {
                member(",\"altMSL\":", Int64(msl) * 10, 4, &buffer)
                member(",\"alt\":", Int64(msl) * 10, 4, &buffer)
            }
        }
        // GST's 1σ errors doubled: gpsd's ep* are 95% figures, about 2σ for one axis.
        if hasFix {
            if let lon = fix.longitudeErrorCentimetres { member(",\"epx\":", Int64(lon) * 20, 3, &buffer) }
            if let lat = fix.latitudeErrorCentimetres { member(",\"epy\":", Int64(lat) * 20, 3, &buffer) }
            if fix.mode == .threeD, let alt = fix.altitudeErrorCentimetres { member(",\"epv\":", Int64(alt) * 20, 3, &buffer) }
            if let course = fix.courseMillidegrees { member(",\"track\":", Int64(course) * 10, 4, &buffer) }
            if let magvar = fix.magneticVariationMillidegrees { member(",\"magvar\":", rounded(Int64(magvar), 100), 1, &buffer) }
            if let speed = fix.speedMillimetresPerSecond { member(",\"speed\":", Int64(speed), 3, &buffer) }
            if fix.mode == .threeD, let separation = fix.geoidSeparationMillimetres {
                member(",\"geoidSep\":", Int64(separation), 3, &buffer)
            }
        }
    }

    /// The epoch's sky as SKY: DOPs, satellite counts and, once a whole GSV set has arrived,
    /// the satellites (PRN, el, az, ss, used; python's gps module needs PRN and used in every
    /// one). `positions` false (tracking withheld) leaves out elevation and azimuth: with the
    /// time they would place the receiver to within a region. Absent members are left out;
    /// nothing at all is written when the epoch said nothing about its sky.
    public static func writeSKY(
        _ fix: borrowing Fix, sky: borrowing SkyView, positions: Bool, device: GpsdDevicePath,
        to buffer: inout TextBuffer
    ) {
        guard hasSky(fix) else { return }
        buffer.append(UInt8(ascii: "{"))
        writeSKYMembers(fix, sky: sky, positions: positions, device: device, to: &buffer)
        buffer.append(UInt8(ascii: "}"))
        buffer.append("\r\n")
    }

    static func hasSky(_ fix: borrowing Fix) -> Bool {
        // Not `||`: its autoclosures cannot capture a borrowed parameter.
        if fix.satellitesInView != nil { return true }
        if fix.satellitesUsed != nil { return true }
        return fix.hdopCenti != nil
    }

    static func writeSKYMembers(
        _ fix: borrowing Fix, sky: borrowing SkyView, positions: Bool, device: GpsdDevicePath,
        to buffer: inout TextBuffer
    ) {
        buffer.append("\"class\":\"SKY\",\"device\":")
        appendString(device, to: &buffer)
        if let vdop = fix.vdopCenti { member(",\"vdop\":", Int64(vdop), 2, &buffer) }
        if let hdop = fix.hdopCenti { member(",\"hdop\":", Int64(hdop), 2, &buffer) }
        if let pdop = fix.pdopCenti { member(",\"pdop\":", Int64(pdop), 2, &buffer) }
        guard sky.complete else {
            if let inView = fix.satellitesInView { member(",\"nSat\":", Int64(inView), 0, &buffer) }
            if let used = fix.satellitesUsed { member(",\"uSat\":", Int64(used), 0, &buffer) }
            return
        }
        // As gpsd: nSat counts the view's entries, uSat those marked used.
        member(",\"nSat\":", Int64(sky.count), 0, &buffer)
        member(",\"uSat\":", Int64(sky.usedSatellites), 0, &buffer)
        buffer.append(",\"satellites\":[")
        for index in 0..<sky.count {
            let satellite = sky.satellites[index]
            if index > 0 { buffer.append(UInt8(ascii: ",")) }
            member("{\"PRN\":", Int64(satellite.prn), 0, &buffer)
            if positions, let elevation = satellite.elevationDegrees { member(",\"el\":", Int64(elevation), 0, &buffer) }
            if positions, let azimuth = satellite.azimuthDegrees { member(",\"az\":", Int64(azimuth), 0, &buffer) }
            if let snr = satellite.snr { member(",\"ss\":", Int64(snr), 0, &buffer) }
            buffer.append(satellite.used ? ",\"used\":true}" : ",\"used\":false}")
        }
        buffer.append(UInt8(ascii: "]"))
    }

    /// `{"class":"POLL","time":…,"active":1,"tpv":[…],"sky":[…]}`: the last epoch (already
    /// disclosed), or empty lists before the first.
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
            buffer.append(UInt8(ascii: "{"))
            writeSKYMembers(fix, sky: sky, positions: positions, device: device, to: &buffer)
            buffer.append(UInt8(ascii: "}"))
        }
        buffer.append(UInt8(ascii: "]"))
        end(&buffer)
    }

    /// gpsd's TPV `status`, written only when it is not a plain fix: 2 DGPS, 3 RTK fixed,
    /// 4 RTK float, 5 dead reckoning, 8 simulated (from GGA's quality).
    static func status(_ fix: borrowing Fix) -> Int64? {
        guard fix.mode.rawValue >= FixMode.twoD.rawValue, let quality = fix.quality else { return nil }
        switch quality {
        case 2: return 2
        case 4: return 3
        case 5: return 4
        case 6: return 5
        case 8: return 8
        default: return nil
        }
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

@inline(never)
private func member(_ name: StaticString, _ value: Int64, _ decimals: Int, _ buffer: inout TextBuffer) {
    buffer.append(name)
    buffer.appendFixed(value, decimals: decimals)
}

/// `value / unit` rounded half away from zero.
private func rounded(_ value: Int64, _ unit: Int64) -> Int64 {
    value >= 0 ? (value + unit / 2) / unit : -((-value + unit / 2) / unit)
}

private func appendBool(_ value: Bool, to buffer: inout TextBuffer) {
    if value { buffer.append("true") } else { buffer.append("false") }
}

private func appendString(_ path: GpsdDevicePath, to buffer: inout TextBuffer) {
    buffer.append(UInt8(ascii: "\""))
    path.withSpan { appendEscaped($0, to: &buffer) }
    buffer.append(UInt8(ascii: "\""))
}

/// JSON string escaping: `"` and `\` backslashed, control bytes as `\n`, `\r`, `\t` or `\u00XX`.
private func appendEscaped(_ bytes: Span<UInt8>, to buffer: inout TextBuffer) {
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
