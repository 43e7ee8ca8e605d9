/// The sentences of one epoch, formatted as a u-blox receiver does (NMEA 2.3 fields,
/// `hhmmss.ss` times, five decimals of minutes ≈ 2 cm), with checksums.
extension NMEASimulator {
    /// Whether `sentence` goes out this epoch: the stock set (RMC, VTG, GGA, GSA, GLL every
    /// epoch, GSV once a second) without `outputRates`, else every n-th epoch as told.
    func sends(_ sentence: NMEAOutputSentence, wholeSecond: Bool) -> Bool {
        guard let rates = outputRates else {
            switch sentence {
            case .rmc, .vtg, .gga, .gsa, .gll: return true
            case .gsv: return wholeSecond
            case .gst, .zda, .gbs: return false
            }
        }
        let every = rates[sentence]
        return every > 0 && epochCount % every == 0
    }

    func writeSentences(
        _ epoch: SimulatedEpoch, satellites: InlineArray<12, SimulatedSatellite?>, withGSV: Bool,
        to buffer: inout TextBuffer
    ) {
        let fixed = epoch.reportedPosition != nil
        if sends(.rmc, wholeSecond: withGSV) { writeRMC(epoch, &buffer) }
        if sends(.vtg, wholeSecond: withGSV) { writeVTG(epoch, &buffer) }
        var used = 0
        for slot in 0..<12 where satellites[slot]?.isUsed == true { used += 1 }
        // Dilution of precision falls as more satellites are used (8 used: HDOP 1.10).
        let hdop = fixed ? Int64(60 + 400 / max(used, 1)) : 9999
        if sends(.gga, wholeSecond: withGSV) { writeGGA(epoch, used: used, hdop: hdop, &buffer) }
        if sends(.gsa, wholeSecond: withGSV) { writeGSA(epoch, satellites, hdop: hdop, &buffer) }
        if sends(.gsv, wholeSecond: withGSV) { writeGSV(satellites, &buffer) }
        if sends(.gll, wholeSecond: withGSV) { writeGLL(epoch, &buffer) }
        if sends(.gst, wholeSecond: withGSV) { writeGST(epoch, &buffer) }
        if sends(.zda, wholeSecond: withGSV) { writeZDA(epoch, &buffer) }
        if sends(.gbs, wholeSecond: withGSV) { writeGBS(epoch, &buffer) }
    }

    func writeRMC(_ epoch: SimulatedEpoch, _ buffer: inout TextBuffer) {
        let fixed = epoch.reportedPosition != nil
        let start = Self.begin("GPRMC", &buffer)
        buffer.append(UInt8(ascii: ","))
        appendTime(epoch.time, &buffer)
        buffer.append(fixed ? ",A," : ",V,")
        appendPosition(epoch.reportedPosition, &buffer)
        buffer.append(UInt8(ascii: ","))
        if fixed { appendKnots(epoch.speedMillimetresPerSecond, &buffer) }
        buffer.append(UInt8(ascii: ","))
        if fixed { appendCourse(epoch.courseMillidegrees, &buffer) }
        buffer.append(UInt8(ascii: ","))
        let date = epoch.time.date
        buffer.append(integer: Int(date.day), width: 2)
        buffer.append(integer: Int(date.month), width: 2)
        buffer.append(integer: Int(date.year) % 100, width: 2)
        buffer.append(fixed ? ",,,A" : ",,,N")
        Self.end(from: start, &buffer)
    }

    func writeVTG(_ epoch: SimulatedEpoch, _ buffer: inout TextBuffer) {
        let fixed = epoch.reportedPosition != nil
        let start = Self.begin("GPVTG", &buffer)
        buffer.append(UInt8(ascii: ","))
        if fixed {
            appendCourse(epoch.courseMillidegrees, &buffer)
            buffer.append(",T,,M,")
            appendKnots(epoch.speedMillimetresPerSecond, &buffer)
            buffer.append(",N,")
            // km/h × 1000 = mm/s × 3.6.
            buffer.appendFixed((Int64(epoch.speedMillimetresPerSecond ?? 0) * 36 + 5) / 10, decimals: 3)
            buffer.append(",K,A")
        } else {
            buffer.append(",T,,M,,N,,K,N")
        }
        Self.end(from: start, &buffer)
    }

    func writeGGA(_ epoch: SimulatedEpoch, used: Int, hdop: Int64, _ buffer: inout TextBuffer) {
        let fixed = epoch.reportedPosition != nil
        let start = Self.begin("GPGGA", &buffer)
        buffer.append(UInt8(ascii: ","))
        appendTime(epoch.time, &buffer)
        buffer.append(UInt8(ascii: ","))
        appendPosition(epoch.reportedPosition, &buffer)
        buffer.append(fixed ? ",1," : ",0,")
        buffer.append(integer: fixed ? used : 0, width: 2)
        buffer.append(UInt8(ascii: ","))
        buffer.appendFixed(hdop, decimals: 2)
        buffer.append(UInt8(ascii: ","))
        if fixed, let altitude = epoch.altitudeMillimetres {
            buffer.appendFixed((Int64(altitude) + (altitude < 0 ? -50 : 50)) / 100, decimals: 1)
            // A fixed geoid separation: the simulated place has no geoid model behind it.
            buffer.append(",M,47.0,M,,")
        } else {
            buffer.append(",,,,,")
        }
        Self.end(from: start, &buffer)
    }

    func writeGSA(_ epoch: SimulatedEpoch, _ satellites: InlineArray<12, SimulatedSatellite?>, hdop: Int64,
                  _ buffer: inout TextBuffer) {
        let fixed = epoch.reportedPosition != nil
        let pdop = fixed ? hdop * 16 / 10 : 9999
        let vdop = fixed ? hdop * 13 / 10 : 9999
        let start = Self.begin("GPGSA", &buffer)
        // Mode 3 needs an altitude: a track without elevations gives a 2D fix.
        buffer.append(!fixed ? ",A,1" : epoch.altitudeMillimetres == nil ? ",A,2" : ",A,3")
        for slot in 0..<12 {
            buffer.append(UInt8(ascii: ","))
            guard fixed, let satellite = satellites[slot], satellite.isUsed else { continue }
            buffer.append(integer: Int(satellite.prn), width: 2)
        }
        buffer.append(UInt8(ascii: ","))
        buffer.appendFixed(pdop, decimals: 2)
        buffer.append(UInt8(ascii: ","))
        buffer.appendFixed(hdop, decimals: 2)
        buffer.append(UInt8(ascii: ","))
        buffer.appendFixed(vdop, decimals: 2)
        Self.end(from: start, &buffer)
    }

    func writeGLL(_ epoch: SimulatedEpoch, _ buffer: inout TextBuffer) {
        let fixed = epoch.reportedPosition != nil
        let start = Self.begin("GPGLL", &buffer)
        buffer.append(UInt8(ascii: ","))
        appendPosition(epoch.reportedPosition, &buffer)
        buffer.append(UInt8(ascii: ","))
        appendTime(epoch.time, &buffer)
        buffer.append(fixed ? ",A,A" : ",V,N")
        Self.end(from: start, &buffer)
    }

    /// GSV: satellites in view, four per sentence; `$GPGSV,1,1,00` when none.
    func writeGSV(_ satellites: InlineArray<12, SimulatedSatellite?>, _ buffer: inout TextBuffer) {
        var inView = 0
        for slot in 0..<12 where satellites[slot] != nil { inView += 1 }
        let messages = max((inView + 3) / 4, 1)
        var slot = 0
        for message in 1...messages {
            let start = Self.begin("GPGSV", &buffer)
            buffer.append(UInt8(ascii: ","))
            buffer.append(integer: Int64(messages))
            buffer.append(UInt8(ascii: ","))
            buffer.append(integer: Int64(message))
            buffer.append(UInt8(ascii: ","))
            buffer.append(integer: inView, width: 2)
            var written = 0
            while written < 4 && slot < 12 {
                defer { slot += 1 }
                guard let satellite = satellites[slot] else { continue }
                buffer.append(UInt8(ascii: ","))
                buffer.append(integer: Int(satellite.prn), width: 2)
                buffer.append(UInt8(ascii: ","))
                buffer.append(integer: satellite.elevationDegrees, width: 2)
                buffer.append(UInt8(ascii: ","))
                buffer.append(integer: satellite.azimuthDegrees, width: 3)
                buffer.append(UInt8(ascii: ","))
                if let snr = satellite.snr { buffer.append(integer: snr, width: 2) }
                written += 1
            }
            Self.end(from: start, &buffer)
        }
    }

    /// `hhmmss.ss`.
    func appendTime(_ time: UTCTime, _ buffer: inout TextBuffer) {
        let milliseconds = time.millisecondOfDay
        buffer.append(integer: Int(milliseconds / 3_600_000), width: 2)
        buffer.append(integer: Int(milliseconds / 60_000 % 60), width: 2)
        buffer.append(integer: Int(milliseconds / 1000 % 60), width: 2)
        buffer.append(UInt8(ascii: "."))
        buffer.append(integer: Int(milliseconds % 1000 / 10), width: 2)
    }

    /// `ddmm.mmmmm,N,dddmm.mmmmm,E`, or `,,,` without a position.
    func appendPosition(_ position: Coordinate?, _ buffer: inout TextBuffer) {
        guard let position else {
            buffer.append(",,,")
            return
        }
        appendAngle(position.latitudeNanodegrees, degreeDigits: 2, &buffer)
        buffer.append(position.latitudeNanodegrees < 0 ? ",S," : ",N,")
        appendAngle(position.longitudeNanodegrees, degreeDigits: 3, &buffer)
        buffer.append(position.longitudeNanodegrees < 0 ? ",W" : ",E")
    }

    /// Degrees and minutes with five decimals, e.g. 48_117_300_000 nanodegrees → `4807.03800`.
    func appendAngle(_ nanodegrees: Int64, degreeDigits: Int, _ buffer: inout TextBuffer) {
        // 1e-5 minutes = 1e-5 / 60 degrees: nanodegrees × 60 / 10_000, rounded.
        let units = (Int64(nanodegrees.magnitude) * 60 + 5000) / 10_000
        buffer.append(integer: Int(units / 6_000_000), width: degreeDigits)
        buffer.append(integer: Int(units % 6_000_000 / 100_000), width: 2)
        buffer.append(UInt8(ascii: "."))
        buffer.append(integer: Int(units % 100_000), width: 5)
    }

    /// Knots with three decimals from mm/s (1 knot = 1852/3600 m/s).
    func appendKnots(_ millimetresPerSecond: Int32?, _ buffer: inout TextBuffer) {
        guard let speed = millimetresPerSecond else { return }
        buffer.appendFixed((Int64(speed) * 3600 + 926) / 1852, decimals: 3)
    }

    /// Degrees with two decimals from millidegrees.
    func appendCourse(_ millidegrees: Int32?, _ buffer: inout TextBuffer) {
        guard let course = millidegrees else { return }
        buffer.appendFixed((Int64(course) + 5) / 10 % 36_000, decimals: 2)
    }

    /// Appends `$` and the address; returns where the checksummed part starts.
    static func begin(_ address: StaticString, _ buffer: inout TextBuffer) -> Int {
        buffer.append(UInt8(ascii: "$"))
        let start = buffer.count
        buffer.append(address)
        return start
    }

    /// Appends `*hh` (XOR of the bytes since `start`) and CR LF.
    static func end(from start: Int, _ buffer: inout TextBuffer) {
        var sum: UInt8 = 0
        for index in start..<buffer.count { sum ^= buffer.storage[index] }
        buffer.append(UInt8(ascii: "*"))
        buffer.append(HexDigit.character(sum >> 4, uppercase: true))
        buffer.append(HexDigit.character(sum, uppercase: true))
        buffer.append("\r\n")
    }
}
