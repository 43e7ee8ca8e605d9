/// How each position-bearing sentence updates the epoch in progress.
extension EpochAssembler {
    mutating func vote(_ position: Coordinate) {
        positions.add(position)
        fix.position = positions.winner
    }

    mutating func merge(_ gga: GGA) {
        hasData = true
        reportedFix = true
        if gga.quality == 0 { invalid = true; return }
        if let position = gga.position { vote(position) }
        if let altitude = gga.altitudeMSLMillimetres { fix.altitudeMSLMillimetres = altitude }
        if let separation = gga.geoidSeparationMillimetres { fix.geoidSeparationMillimetres = separation }
        if let quality = gga.quality { fix.quality = quality }
        if let satellites = gga.satellitesUsed {
            if gsaSatellites == 0 { fix.satellitesUsed = satellites }
        }
        if let hdop = gga.hdopCenti, hdop < 9900 { fix.hdopCenti = hdop }
    }

    mutating func merge(_ rmc: RMC) {
        hasData = true
        reportedFix = true
        guard rmc.status == UInt8(ascii: "A") || rmc.status == UInt8(ascii: "D"),
              rmc.faaMode != UInt8(ascii: "N") else {
            invalid = true
            return
        }
        if let position = rmc.position { vote(position) }
        if let speed = rmc.speedMillimetresPerSecond { fix.speedMillimetresPerSecond = speed }
        if let course = rmc.courseMillidegrees { fix.courseMillidegrees = course }
        if let variation = rmc.magneticVariationMillidegrees { fix.magneticVariationMillidegrees = variation }
    }

    mutating func merge(_ gll: GLL) {
        hasData = true
        reportedFix = true
        guard gll.status == UInt8(ascii: "A"), gll.faaMode != UInt8(ascii: "N") else {
            invalid = true
            return
        }
        if let position = gll.position { vote(position) }
    }

    mutating func merge(_ gns: GNS) {
        hasData = true
        reportedFix = true
        guard let mode = gns.mode, mode != UInt8(ascii: "N") else { invalid = true; return }
        // NMEA 4.10 status V means "no status given" (u-blox sends it on every GNS); only
        // U (unsafe) disqualifies the position.
        if gns.navigationStatus == UInt8(ascii: "U") { return }
        if let position = gns.position { vote(position) }
        if let altitude = gns.altitudeMSLMillimetres { fix.altitudeMSLMillimetres = altitude }
        if let separation = gns.geoidSeparationMillimetres { fix.geoidSeparationMillimetres = separation }
        if let satellites = gns.satellitesUsed {
            if gsaSatellites == 0 { fix.satellitesUsed = satellites }
        }
        if let hdop = gns.hdopCenti, hdop < 9900 { fix.hdopCenti = hdop }
    }

    mutating func merge(_ gsa: GSA) {
        hasData = true
        reportedFix = true
        if let type = gsa.fixType { gsaFixType = type }
        // Several GSAs per epoch (one per constellation) add up.
        gsaSatellites += gsa.satelliteCount
        if gsa.satelliteCount > 0 || gsa.fixType != nil {
            fix.satellitesUsed = UInt8(min(gsaSatellites, 255))
        }
        if let pdop = gsa.pdopCenti { fix.pdopCenti = pdop }
        if let hdop = gsa.hdopCenti { fix.hdopCenti = hdop }
        if let vdop = gsa.vdopCenti { fix.vdopCenti = vdop }
    }
}
