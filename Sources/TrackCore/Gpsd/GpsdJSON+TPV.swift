/// gpsd's TPV, the one writer of a fix as JSON: what trackd's gpsd clients receive, what
/// `trackctl decode` prints and the status's `fix`.
///
/// Member by member, as gpsd 3.22's json_tpv_dump (gpsd_json.c) writes them, in its order:
/// `class`, `device`, `status`, `mode`, `time`; with a 2D or 3D fix `lat`, `lon` (9 decimals),
/// `altHAE`, `altMSL`, `alt` (4 decimals; gpsd writes them in 2D fixes too), `epx`, `epy`,
/// `epv`, `track` (4 decimals), `magvar` (1), `speed` (3), and in a 3D fix `geoidSep` (3).
/// Only what the receiver said is written. gpsd also writes values it makes up, and trackd
/// leaves them out, since a client cannot tell them from the receiver's:
///
/// * `epx`, `epy`, `epv`: gpsd's processGBS takes GBS's expected errors (metres, as sent)
///   when the GBS is of the epoch; without one, gpsd_error_model (libgpsd_core.c) invents
///   them from the DOPs times its own range errors. trackd writes GBS's, and nothing without
///   a GBS (GST's 1σ errors are not epx/epy/epv: gpsd puts those in its GST object);
/// * `eph`, `sep`, `ept`, `eps`, `epc`, `climb`: the error model's and the differences of
///   successive fixes, never sent by a receiver;
/// * `magvar`: gpsd computes it from its magnetic model when RMC has none; trackd writes RMC's;
/// * `geoidSep`, and `altHAE` from it: gpsd takes its own geoid table (wgs84_separation) when
///   GGA's field is empty; trackd writes the receiver's, and `altHAE` only then.
///
/// Two rules of its own, for clients: mode 2 or 3 only with a position (clients take them to
/// mean `lat` and `lon` are there: gpxlogger writes `lat="nan"` otherwise), so a withheld fix
/// says 1 ("no fix"); mode 0 stays 0 for an epoch that said nothing of the fix (a ZDA alone),
/// as gpsd's MODE_NOT_SEEN. `status` is written only with a 2D or 3D fix (gpsd keeps its last
/// one, DGPS on a no-fix report).
extension GpsdJSON {
    /// One epoch as TPV. `fix` must already be what may leave (`Fix.disclosed`): a withheld
    /// fix has no position, speed or track, so none is written, and its mode is 1 (no fix).
    public static func writeTPV(_ fix: borrowing Fix, device: GpsdDevicePath, to buffer: inout TextBuffer) {
        buffer.append(UInt8(ascii: "{"))
        writeTPVMembers(fix, device: device, to: &buffer)
        end(&buffer)
    }

    /// The TPV's members without the braces; no `device` when `device` is nil.
    static func writeTPVMembers(_ fix: borrowing Fix, device: GpsdDevicePath?, to buffer: inout TextBuffer) {
        buffer.append("\"class\":\"TPV\"")
        if let device {
            buffer.append(",\"device\":")
            appendString(device, to: &buffer)
        }
        if let status = status(fix) { member(",\"status\":", status, 0, &buffer) }
        let mode = shownMode(fix)
        member(",\"mode\":", Int64(mode.rawValue), 0, &buffer)
        if let time = fix.time {
            buffer.append(",\"time\":\"")
            time.write(to: &buffer)
            buffer.append(UInt8(ascii: "\""))
        }
        guard mode.rawValue >= FixMode.twoD.rawValue, let position = fix.position else { return }
        member(",\"lat\":", position.latitudeNanodegrees, 9, &buffer)
        member(",\"lon\":", position.longitudeNanodegrees, 9, &buffer)
        if let hae = fix.altitudeHAEMillimetres { member(",\"altHAE\":", Int64(hae) * 10, 4, &buffer) }
        if let msl = fix.altitudeMSLMillimetres {
            member(",\"altMSL\":", Int64(msl) * 10, 4, &buffer)
            member(",\"alt\":", Int64(msl) * 10, 4, &buffer)
        }
        // GBS's expected errors in metres as sent (centimetres here), under gpsd's names.
        if let lon = fix.expectedLongitudeErrorCentimetres { member(",\"epx\":", Int64(lon) * 10, 3, &buffer) }
        if let lat = fix.expectedLatitudeErrorCentimetres { member(",\"epy\":", Int64(lat) * 10, 3, &buffer) }
        if let alt = fix.expectedAltitudeErrorCentimetres { member(",\"epv\":", Int64(alt) * 10, 3, &buffer) }
        if let course = fix.courseMillidegrees { member(",\"track\":", Int64(course) * 10, 4, &buffer) }
        if let magvar = fix.magneticVariationMillidegrees { member(",\"magvar\":", rounded(Int64(magvar), 100), 1, &buffer) }
        if let speed = fix.speedMillimetresPerSecond { member(",\"speed\":", Int64(speed), 3, &buffer) }
        if mode == .threeD, let separation = fix.geoidSeparationMillimetres {
            member(",\"geoidSep\":", Int64(separation), 3, &buffer)
        }
    }

    /// The mode a client is told: 2 or 3 only with a position, else 1; 0 and 1 as they are.
    static func shownMode(_ fix: borrowing Fix) -> FixMode {
        if fix.mode.rawValue >= FixMode.twoD.rawValue, fix.position == nil { return .noFix }
        return fix.mode
    }

    /// gpsd's TPV `status`, written only when it is not a plain fix (gpsd: "to save rebuilding
    /// all the regressions, skip UNK and GPS"): 2 DGPS, 3 RTK fixed, 4 RTK float, 5 dead
    /// reckoning, 8 simulated, from GGA's quality 2, 4, 5, 6 and 8 as gpsd's processGGA maps them.
    static func status(_ fix: borrowing Fix) -> Int64? {
        guard shownMode(fix).rawValue >= FixMode.twoD.rawValue, let quality = fix.quality else { return nil }
        switch quality {
        case 2: return 2
        case 4: return 3
        case 5: return 4
        case 6: return 5
        case 8: return 8
        default: return nil
        }
    }
}

extension Fix {
    /// The fix as the TPV a gpsd client gets for it (`GpsdJSON.writeTPV`), without `device`
    /// and line end: the status's `fix`, e.g.
    /// `{"class":"TPV","mode":3,"time":"2017-01-10T00:09:41.000Z","lat":44.068897833,...}`.
    /// Write it disclosed (`disclosed(_:)`): a withheld fix says mode 1 and nothing of where.
    public func writeJSON(to buffer: inout TextBuffer) {
        buffer.append(UInt8(ascii: "{"))
        GpsdJSON.writeTPVMembers(self, device: nil, to: &buffer)
        buffer.append(UInt8(ascii: "}"))
    }
}
