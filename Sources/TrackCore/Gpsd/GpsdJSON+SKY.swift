/// gpsd's SKY, as gpsd 3.22's json_sky_dump (gpsd_json.c) writes it: `class`, `device`,
/// `vdop`, `hdop`, `pdop` (2 decimals, as the receiver's GSA/GGA sent them), `nSat` (the
/// satellites with a PRN), `uSat` (of them, those used) and `satellites`, each `PRN`, `el`,
/// `az`, `ss` (1 decimal, gpsd's `%.1f`: `"el":40.0`) and `used`.
///
/// Left out, as gpsd makes them up: `xdop`, `ydop`, `tdop`, `gdop` (gpsd computes them from
/// the satellites' geometry, fill_dop), the `time` (none for NMEA in 3.22). Left out as absent:
/// an `el`, `az` or `ss` the receiver left empty (gpsd's atoi makes them 0, so it writes
/// `"ss":0.0` for a satellite not tracked). Not written: `gnssid`, `svid`, `sigid` (the PRN
/// carries the constellation).
///
/// gpsd sends a SKY at the end of each GSV set (`SkyView`), several per epoch from a
/// multi-constellation receiver; trackd sends them after the epoch's TPV, each the view as it
/// was then, and always the epoch's whole view last (gpsd 3.27 also reports a GPGSV set that
/// ends the run, which 3.22 does not). With no whole set seen yet, the SKY has the DOPs and the
/// counts GSV and GSA gave, without satellites.
extension GpsdJSON {
    /// The epoch's SKYs (see above), one object at a time: each written whole into `buffer`
    /// (emptied first) and handed to `send`; `positions` false (tracking withheld) leaves out
    /// elevation and azimuth: with the time they would place the receiver to within a region.
    /// Nothing is sent when the epoch said nothing about its sky. A SKY that does not fit the
    /// buffer (gpsd's 140 satellites with a device path of many escapes) is sent with the counts
    /// only, never cut.
    public static func writeSKY<Failure: Error>(
        _ fix: borrowing Fix, sky: borrowing SkyView, positions: Bool, device: GpsdDevicePath,
        through buffer: inout TextBuffer, each send: (inout TextBuffer) throws(Failure) -> Void
    ) throws(Failure) {
        // Not `&&`: its autoclosures cannot capture a borrowed parameter.
        let reportsInEpoch = sky.reportsInEpoch
        if reportsInEpoch == 0, !hasSky(fix) { return }
        let whole = sky.completeCount
        var reports = reportsInEpoch
        // The last report is the whole view when the run ended with a reported set.
        if reports > 0, sky.reports(reports - 1) == whole { reports -= 1 }
        for index in 0...reports {
            buffer.removeAll()
            let satellites = index < reports ? sky.reports(index) : whole
            writeSKYObject(fix, sky: sky, satellites: satellites, positions: positions, device: device, to: &buffer)
            if buffer.overflowed {
                buffer.removeAll()
                writeSKYObject(fix, sky: sky, satellites: 0, positions: positions, device: device, to: &buffer)
            }
            try send(&buffer)
        }
        buffer.removeAll()
    }

    static func hasSky(_ fix: borrowing Fix) -> Bool {
        // Not `||`: its autoclosures cannot capture a borrowed parameter.
        if fix.satellitesInView != nil { return true }
        if fix.satellitesUsed != nil { return true }
        return fix.hdopCenti != nil
    }

    /// One SKY object and its line end, listing the first `satellites` of the view. Not
    /// inlined: `writeSKY` calls it from two places.
    @inline(never)
    static func writeSKYObject(
        _ fix: borrowing Fix, sky: borrowing SkyView, satellites: Int, positions: Bool, device: GpsdDevicePath,
        to buffer: inout TextBuffer
    ) {
        buffer.append(UInt8(ascii: "{"))
        writeSKYMembers(fix, sky: sky, satellites: satellites, positions: positions, device: device, to: &buffer)
        end(&buffer)
    }

    /// A SKY's members without the braces, listing the first `satellites` of the view; with 0,
    /// the counts GSV and GSA gave.
    static func writeSKYMembers(
        _ fix: borrowing Fix, sky: borrowing SkyView, satellites: Int, positions: Bool, device: GpsdDevicePath,
        to buffer: inout TextBuffer
    ) {
        buffer.append("\"class\":\"SKY\",\"device\":")
        appendString(device, to: &buffer)
        if let vdop = fix.vdopCenti { member(",\"vdop\":", Int64(vdop), 2, &buffer) }
        if let hdop = fix.hdopCenti { member(",\"hdop\":", Int64(hdop), 2, &buffer) }
        if let pdop = fix.pdopCenti { member(",\"pdop\":", Int64(pdop), 2, &buffer) }
        guard satellites > 0 else {
            if let inView = fix.satellitesInView { member(",\"nSat\":", Int64(inView), 0, &buffer) }
            if let used = fix.satellitesUsed { member(",\"uSat\":", Int64(used), 0, &buffer) }
            return
        }
        // As gpsd: nSat counts the listed satellites that have a PRN, uSat those marked used.
        let count = min(satellites, sky.count)
        var reported = 0
        var used = 0
        for index in 0..<count where sky.satellites[index].prn != 0 {
            reported += 1
            if sky.satellites[index].used { used += 1 }
        }
        member(",\"nSat\":", Int64(reported), 0, &buffer)
        member(",\"uSat\":", Int64(used), 0, &buffer)
        guard reported > 0 else { return }
        buffer.append(",\"satellites\":[")
        var first = true
        for index in 0..<count where sky.satellites[index].prn != 0 {
            let satellite = sky.satellites[index]
            buffer.append(first ? "{\"PRN\":" : ",{\"PRN\":")
            first = false
            buffer.append(integer: Int64(satellite.prn))
            if positions, let elevation = satellite.elevationDegrees { member(",\"el\":", Int64(elevation) * 10, 1, &buffer) }
            if positions, let azimuth = satellite.azimuthDegrees { member(",\"az\":", Int64(azimuth) * 10, 1, &buffer) }
            if let snr = satellite.snr { member(",\"ss\":", Int64(snr) * 10, 1, &buffer) }
            buffer.append(satellite.used ? ",\"used\":true}" : ",\"used\":false}")
        }
        buffer.append(UInt8(ascii: "]"))
    }
}
