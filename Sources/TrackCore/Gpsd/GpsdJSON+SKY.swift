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
    /// The epoch's SKYs (see above); `positions` false (tracking withheld) leaves out elevation
    /// and azimuth: with the time they would place the receiver to within a region. Nothing is
    /// written when the epoch said nothing about its sky. When they do not all fit in `buffer`,
    /// the whole view is written with as many of the latest earlier SKYs as leave room for it:
    /// every object written is whole.
    public static func writeSKY(
        _ fix: borrowing Fix, sky: borrowing SkyView, positions: Bool, device: GpsdDevicePath,
        to buffer: inout TextBuffer
    ) {
        // Not `&&`: its autoclosures cannot capture a borrowed parameter.
        let reportsInEpoch = sky.reportsInEpoch
        if reportsInEpoch == 0, !hasSky(fix) { return }
        let whole = sky.completeCount
        var reports = reportsInEpoch
        // The last report is the whole view when the run ended with a reported set.
        if reports > 0, sky.reports(reports - 1) == whole { reports -= 1 }
        let start = buffer.count
        for index in 0..<reports {
            writeSKYObject(fix, sky: sky, satellites: sky.reports(index), positions: positions, device: device, to: &buffer)
        }
        writeSKYObject(fix, sky: sky, satellites: whole, positions: positions, device: device, to: &buffer)
        guard buffer.overflowed else { return }
        // Too much for one buffer: measure each object by writing it, then keep the latest.
        buffer.truncate(to: start)
        writeSKYObject(fix, sky: sky, satellites: whole, positions: positions, device: device, to: &buffer)
        var room = TextBuffer.capacity - buffer.count
        buffer.truncate(to: start)
        var first = reports
        while first > 0 {
            writeSKYObject(fix, sky: sky, satellites: sky.reports(first - 1), positions: positions, device: device, to: &buffer)
            let length = buffer.count - start
            buffer.truncate(to: start)
            guard length <= room else { break }
            room -= length
            first -= 1
        }
        for index in first..<reports {
            writeSKYObject(fix, sky: sky, satellites: sky.reports(index), positions: positions, device: device, to: &buffer)
        }
        let mark = buffer.count
        writeSKYObject(fix, sky: sky, satellites: whole, positions: positions, device: device, to: &buffer)
        if buffer.overflowed {
            // Only a buffer that held much already, or a path of escapes: the counts only.
            buffer.truncate(to: mark)
            writeSKYObject(fix, sky: sky, satellites: 0, positions: positions, device: device, to: &buffer)
        }
    }

    static func hasSky(_ fix: borrowing Fix) -> Bool {
        // Not `||`: its autoclosures cannot capture a borrowed parameter.
        if fix.satellitesInView != nil { return true }
        if fix.satellitesUsed != nil { return true }
        return fix.hdopCenti != nil
    }

    /// One SKY object and its line end, listing the first `satellites` of the view. Not
    /// inlined: `writeSKY` calls it from five places.
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
