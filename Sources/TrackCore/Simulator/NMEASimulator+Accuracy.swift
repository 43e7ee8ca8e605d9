/// The sentences a receiver sends only when told to (`outputRates`): GST and GBS with the
/// accuracy the noise model has (1σ per axis, 1.5σ up), ZDA with the date.
extension NMEASimulator {
    /// The position error 1σ per horizontal axis in decimetres: the noise setting, at least
    /// 0.5 m (a receiver never reports perfection).
    var sigmaDecimetres: Int64 { max(Int64((configuration.noiseMetres * 10).rounded()), 5) }

    /// `$GPGST,hhmmss.ss,rms,major,minor,orientation,lat,lon,alt`: the error ellipse a circle
    /// of 1σ, e.g. `$GPGST,120001.00,1.0,2.5,2.5,0.0,2.5,2.5,3.8*..`; empty without a fix.
    func writeGST(_ epoch: SimulatedEpoch, _ buffer: inout TextBuffer) {
        guard let start = beginAccuracy("GPGST", epoch, &buffer) else { return }
        let sigma = sigmaDecimetres
        buffer.append(",1.0,")
        buffer.appendFixed(sigma, decimals: 1)
        buffer.append(UInt8(ascii: ","))
        buffer.appendFixed(sigma, decimals: 1)
        buffer.append(",0.0,")
        buffer.appendFixed(sigma, decimals: 1)
        buffer.append(UInt8(ascii: ","))
        buffer.appendFixed(sigma, decimals: 1)
        buffer.append(UInt8(ascii: ","))
        buffer.appendFixed(sigma * 3 / 2, decimals: 1)
        Self.end(from: start, &buffer)
    }

    /// `$` address `,` time; where the checksum starts, or nil when without a fix the sentence
    /// was finished with its seven empty fields.
    func beginAccuracy(_ address: StaticString, _ epoch: SimulatedEpoch, _ buffer: inout TextBuffer) -> Int? {
        let start = Self.begin(address, &buffer)
        buffer.append(UInt8(ascii: ","))
        appendTime(epoch.time, &buffer)
        guard epoch.reportedPosition != nil else {
            buffer.append(",,,,,,,")
            Self.end(from: start, &buffer)
            return nil
        }
        return start
    }

    /// `$GPZDA,hhmmss.ss,dd,mm,yyyy,00,00`.
    func writeZDA(_ epoch: SimulatedEpoch, _ buffer: inout TextBuffer) {
        let start = Self.begin("GPZDA", &buffer)
        buffer.append(UInt8(ascii: ","))
        appendTime(epoch.time, &buffer)
        let date = epoch.time.date
        buffer.append(UInt8(ascii: ","))
        buffer.append(integer: Int(date.day), width: 2)
        buffer.append(UInt8(ascii: ","))
        buffer.append(integer: Int(date.month), width: 2)
        buffer.append(UInt8(ascii: ","))
        buffer.append(integer: Int(date.year), width: 4)
        buffer.append(",00,00")
        Self.end(from: start, &buffer)
    }

    /// `$GPGBS,hhmmss.ss,lat,lon,alt,,,,`: the expected errors, no satellite flagged.
    func writeGBS(_ epoch: SimulatedEpoch, _ buffer: inout TextBuffer) {
        guard let start = beginAccuracy("GPGBS", epoch, &buffer) else { return }
        let sigma = sigmaDecimetres
        buffer.append(UInt8(ascii: ","))
        buffer.appendFixed(sigma, decimals: 1)
        buffer.append(UInt8(ascii: ","))
        buffer.appendFixed(sigma, decimals: 1)
        buffer.append(UInt8(ascii: ","))
        buffer.appendFixed(sigma * 3 / 2, decimals: 1)
        buffer.append(",,,,")
        Self.end(from: start, &buffer)
    }
}
