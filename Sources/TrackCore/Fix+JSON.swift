extension Fix {
    /// Writes the fix as one JSON object with gpsd's TPV names where they mean the same, e.g.
    /// `{"class":"TPV","time":"2007-12-23T19:32:21.000Z","mode":3,"lat":20.628798333,...}`.
    ///
    /// Units as gpsd: degrees, metres, m/s. Values are exact decimal renderings of the integer
    /// units (9 decimals for 1e-9°, 3 for mm). Position and altitude appear only in 2D and 3D
    /// fixes, as gpsd does; GST's 1σ errors appear as `latErr`, `lonErr`, `altErr`, GBS's
    /// expected errors as `epx` (longitude), `epy` (latitude), `epv` (altitude), the values gpsd
    /// reports for a GBS of the epoch, e.g. `"epx":1.00,"epy":1.00,"epv":3.10`.
    public func writeJSON(to buffer: inout TextBuffer) {
        buffer.append("{\"class\":\"TPV\"")
        if let time {
            buffer.append(",\"time\":\"")
            time.write(to: &buffer)
            buffer.append(UInt8(ascii: "\""))
        }
        buffer.append(",\"mode\":")
        buffer.append(integer: Int64(mode.rawValue))
        if let quality { field(&buffer, ",\"quality\":", Int64(quality), 0) }
        if let position, mode.rawValue >= FixMode.twoD.rawValue {
            field(&buffer, ",\"lat\":", position.latitudeNanodegrees, 9)
            field(&buffer, ",\"lon\":", position.longitudeNanodegrees, 9)
        }
        if mode.rawValue >= FixMode.twoD.rawValue {
            if let hae = altitudeHAEMillimetres { field(&buffer, ",\"altHAE\":", Int64(hae), 3) }
            if let msl = altitudeMSLMillimetres {
                field(&buffer, ",\"altMSL\":", Int64(msl), 3)
                field(&buffer, ",\"alt\":", Int64(msl), 3)
            }
        }
        if let geoidSeparationMillimetres { field(&buffer, ",\"geoidSep\":", Int64(geoidSeparationMillimetres), 3) }
        if let speedMillimetresPerSecond { field(&buffer, ",\"speed\":", Int64(speedMillimetresPerSecond), 3) }
        if let courseMillidegrees { field(&buffer, ",\"track\":", Int64(courseMillidegrees), 3) }
        if let magneticVariationMillidegrees {
            field(&buffer, ",\"magvar\":", Int64(magneticVariationMillidegrees), 3)
        }
        if let satellitesUsed { field(&buffer, ",\"uSat\":", Int64(satellitesUsed), 0) }
        if let satellitesInView { field(&buffer, ",\"nSat\":", Int64(satellitesInView), 0) }
        if let hdopCenti { field(&buffer, ",\"hdop\":", Int64(hdopCenti), 2) }
        if let vdopCenti { field(&buffer, ",\"vdop\":", Int64(vdopCenti), 2) }
        if let pdopCenti { field(&buffer, ",\"pdop\":", Int64(pdopCenti), 2) }
        if let latitudeErrorCentimetres { field(&buffer, ",\"latErr\":", Int64(latitudeErrorCentimetres), 2) }
        if let longitudeErrorCentimetres { field(&buffer, ",\"lonErr\":", Int64(longitudeErrorCentimetres), 2) }
        if let altitudeErrorCentimetres { field(&buffer, ",\"altErr\":", Int64(altitudeErrorCentimetres), 2) }
        // GBS's expected errors, in metres as sent, under the names gpsd gives them.
        if let expectedLongitudeErrorCentimetres { field(&buffer, ",\"epx\":", Int64(expectedLongitudeErrorCentimetres), 2) }
        if let expectedLatitudeErrorCentimetres { field(&buffer, ",\"epy\":", Int64(expectedLatitudeErrorCentimetres), 2) }
        if let expectedAltitudeErrorCentimetres { field(&buffer, ",\"epv\":", Int64(expectedAltitudeErrorCentimetres), 2) }
        buffer.append(UInt8(ascii: "}"))
    }
}

@inline(__always)
private func field(_ buffer: inout TextBuffer, _ name: StaticString, _ value: Int64, _ decimals: Int) {
    buffer.append(name)
    buffer.appendFixed(value, decimals: decimals)
}
