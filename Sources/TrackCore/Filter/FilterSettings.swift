/// The limits `FixFilter` applies, in integer units; every value can be set from the config.
///
/// The defaults follow the mobile location stack trackd grew out of (drop fixes older than 5 s
/// or worse than 65 m) and what a consumer receiver can do, e.g. `FilterSettings()` rejects an
/// HDOP 14 fix (14 × 5 m = 70 m > 65 m) and a jump of 1 km in one second.
public struct FilterSettings: Equatable, Sendable {
    /// A fix more than this far behind the newest receiver time seen is stale, in ms
    /// (default 5,000). Receiver time only: the system clock is never asked.
    public var maxAgeMilliseconds: Int64
    /// Horizontal accuracy (1σ, see `Fix.horizontalAccuracyMillimetres`) above which a fix is
    /// inaccurate, in mm (default 65,000 = 65 m).
    public var maxAccuracyMillimetres: Int64
    /// User equivalent range error, 1σ, in mm (default 5,000): HDOP × UERE is the accuracy when
    /// the receiver sends no GST. 5 m is the usual figure for a single-frequency receiver.
    public var uereMillimetres: Int64
    /// HDOP × 100 assumed when the receiver sends none (default 150): an RMC-only receiver is
    /// judged as an average open-sky fix (GPS-only HDOP is typically 0.8…1.5) rather than
    /// rejected wholesale.
    public var assumedHDOPCenti: Int32
    /// Speed implied by two fixes above which the later one is an implausible jump, in mm/s
    /// (default 100,000 = 360 km/h; set higher for aircraft). Measured after taking both fixes'
    /// accuracy off the distance.
    public var maxSpeedMillimetresPerSecond: Int64
    /// Fewer satellites than this in the solution rejects the fix (default 4: with 3 the
    /// receiver holds the altitude fixed and the horizontal error follows any error in it,
    /// unseen by HDOP). 0 turns the check off; fixes without a satellite count pass.
    public var minSatellites: UInt8
    /// Consecutive fixes that must agree with each other, and not with the last accepted fix,
    /// before the filter decides the last accepted fix was the bad one and starts over from
    /// them (default 5). The same count of advancing-but-stale fixes resets the time base after
    /// a receiver's clock stepped back. At least 1.
    public var recoveryFixes: Int

    /// Settings with the given limits; every argument has the default described above.
    public init(
        maxAgeMilliseconds: Int64 = 5_000,
        maxAccuracyMillimetres: Int64 = 65_000,
        uereMillimetres: Int64 = 5_000,
        assumedHDOPCenti: Int32 = 150,
        maxSpeedMillimetresPerSecond: Int64 = 100_000,
        minSatellites: UInt8 = 4,
        recoveryFixes: Int = 5
    ) {
        self.maxAgeMilliseconds = maxAgeMilliseconds
        self.maxAccuracyMillimetres = maxAccuracyMillimetres
        self.uereMillimetres = uereMillimetres
        self.assumedHDOPCenti = assumedHDOPCenti
        self.maxSpeedMillimetresPerSecond = maxSpeedMillimetresPerSecond
        self.minSatellites = minSatellites
        self.recoveryFixes = recoveryFixes
    }
}

extension Fix {
    /// Horizontal accuracy in mm, as a phone's `horizontalAccuracy`: the 1σ radial error (DRMS,
    /// the radius holding ~63–68 % of fixes), e.g. GST 3 m × 4 m → 5,000 mm; HDOP 1.2 with a
    /// 5 m UERE → 6,000 mm.
    ///
    /// From GST when it gives both errors, as √(σlat² + σlon²): the receiver's own estimate,
    /// which sees multipath and weak signals that DOP cannot; else from GBS's expected errors
    /// the same way (e.g. 1.0 m × 1.0 m → 1,414 mm). Otherwise HDOP × UERE, the same
    /// quantity from geometry alone (HDOP is defined as √(σE² + σN²) / σUERE); with no HDOP
    /// either, `assumedHDOPCenti`. A GST of 0 × 0 (a receiver that fills the sentence without
    /// estimating) and an HDOP of 0 are treated as absent.
    public func horizontalAccuracyMillimetres(uereMillimetres: Int64, assumedHDOPCenti: Int32) -> Int64 {
        // GST first, then GBS's expected errors (the same 1σ quantity from the receiver's
        // integrity monitor).
        if let radial = radialMillimetres(latitudeErrorCentimetres, longitudeErrorCentimetres) { return radial }
        if let radial = radialMillimetres(expectedLatitudeErrorCentimetres, expectedLongitudeErrorCentimetres) {
            return radial
        }
        var hdop = Int64(assumedHDOPCenti)
        if let sent = hdopCenti, sent > 0 { hdop = Int64(sent) }
        // Saturates rather than traps on absurd settings.
        let product = hdop.multipliedReportingOverflow(by: uereMillimetres)
        return product.overflow ? Int64.max : product.partialValue / 100
    }
}

/// √(lat² + lon²) in millimetres from two errors in centimetres, e.g. 300 and 400 → 5,000;
/// nil when either is missing or both are 0 (a receiver that fills the sentence without
/// estimating).
private func radialMillimetres(_ latitude: Int32?, _ longitude: Int32?) -> Int64? {
    guard let latitude, let longitude else { return nil }
    let sum = Double(latitude) * Double(latitude) + Double(longitude) * Double(longitude)
    guard sum > 0 else { return nil }
    // × 10: centimetres to millimetres; + 0.5 rounds (TrackCore has no libm `round`).
    return Int64(Math.squareRoot(sum) * 10 + 0.5)
}
