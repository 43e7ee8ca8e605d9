/// One satellite as the simulated receiver sees it at an instant.
public struct SimulatedSatellite: Equatable, Sendable {
    /// GPS PRN 1…32.
    public var prn: UInt8
    /// Elevation in whole degrees 0…90.
    public var elevationDegrees: Int
    /// Azimuth in whole degrees 0…359, true north.
    public var azimuthDegrees: Int
    /// Carrier-to-noise in dB-Hz; nil while not tracked (low, or before acquisition).
    public var snr: Int?
    /// True when the fix uses it.
    public var isUsed: Bool
}

/// The sky over the simulated receiver: twelve slots, each holding one GPS satellite pass at a
/// time. A pass rises, climbs to its peak elevation and sets along a sine arc while its azimuth
/// drifts; when it has set, a new satellite (another PRN) rises in the slot a little later.
///
/// Passes last 10 to 30 minutes instead of the real several hours, so a ten-minute route shows
/// satellites coming and going. Signal strength follows elevation with a slow wobble; during a
/// cold start each satellite is acquired (gets an SNR) at its own moment.
struct SimulatedSky: Sendable {
    struct Pass: Sendable {
        var prn: UInt8
        var rise: Double
        var duration: Double
        var peakElevation: Double
        var azimuth: Double
        var azimuthRate: Double
        var snrOffset: Double
        var acquiredAfter: Double

        func elevation(at t: Double) -> Double {
            guard t >= rise && t <= rise + duration else { return -1 }
            return peakElevation * Math.sin(SimulatorMath.pi * (t - rise) / duration)
        }
    }

    static let slotCount = 12
    var passes: [Pass] = []
    var random: SimulatorRandom

    /// A sky at t = 0 with passes at random stages; satellites are acquired between 2 s and
    /// `coldStartSeconds` after start (at once without a cold start).
    init(seed: UInt64, coldStartSeconds: Double) {
        random = SimulatorRandom(seed: seed ^ 0x5A7E_111E)
        var used: UInt32 = 0
        for _ in 0..<Self.slotCount {
            var pass = newPass(after: 0, excluding: &used)
            // Start mid-pass for most slots so the sky is populated from the first epoch.
            let stage = random.uniform(-0.15...0.9)
            pass.rise = -stage * pass.duration
            pass.acquiredAfter = coldStartSeconds <= 0 ? 0 : random.uniform(min(2, coldStartSeconds)...coldStartSeconds)
            passes.append(pass)
        }
    }

    mutating func newPass(after t: Double, excluding used: inout UInt32) -> Pass {
        var prn = UInt8(1 + random.next() % 32)
        while used & (1 << UInt32(prn - 1)) != 0 { prn = prn % 32 + 1 }
        used |= 1 << UInt32(prn - 1)
        return Pass(
            prn: prn, rise: t + random.uniform(20...120), duration: random.uniform(600...1800),
            peakElevation: random.uniform(15...88), azimuth: random.uniform(0...359),
            azimuthRate: random.uniform(-0.05...0.05), snrOffset: random.uniform(-4...4),
            acquiredAfter: t)
    }

    /// Replaces passes that have set by new ones rising later.
    mutating func advance(to t: Double) {
        var used: UInt32 = 0
        for pass in passes { used |= 1 << UInt32(pass.prn - 1) }
        for slot in passes.indices where t > passes[slot].rise + passes[slot].duration {
            used &= ~(1 << UInt32(passes[slot].prn - 1))
            passes[slot] = newPass(after: t, excluding: &used)
        }
    }

    /// The satellites above the horizon at `t` seconds, in slot order; at most 12 used, the
    /// strongest first, when `fixed`.
    func satellites(at t: Double, fixed: Bool) -> InlineArray<12, SimulatedSatellite?> {
        var result: InlineArray<12, SimulatedSatellite?> = InlineArray(repeating: nil)
        for slot in 0..<min(passes.count, Self.slotCount) {
            let pass = passes[slot]
            let elevation = pass.elevation(at: t)
            guard elevation >= 0 else { continue }
            var azimuth = (pass.azimuth + pass.azimuthRate * t).truncatingRemainder(dividingBy: 360)
            if azimuth < 0 { azimuth += 360 }
            var snr: Int?
            if elevation >= 5 && t >= pass.acquiredAfter {
                let wobble = 2 * Math.sin(t / 37 + Double(pass.prn))
                snr = Int((20 + elevation * 0.3 + pass.snrOffset + wobble).rounded())
            }
            let used = fixed && elevation >= 10 && (snr ?? 0) >= 25
            result[slot] = SimulatedSatellite(
                prn: pass.prn, elevationDegrees: Int(elevation.rounded()), azimuthDegrees: Int(azimuth) % 360,
                snr: snr, isUsed: used)
        }
        if fixed { Self.useAtLeastFour(&result) }
        return result
    }

    /// A fix needs four satellites: when the strong, high ones are fewer, the highest tracked
    /// ones join.
    static func useAtLeastFour(_ satellites: inout InlineArray<12, SimulatedSatellite?>) {
        var used = 0
        for slot in 0..<12 where satellites[slot]?.isUsed == true { used += 1 }
        while used < 4 {
            var best: Int?
            for slot in 0..<12 {
                guard let satellite = satellites[slot], !satellite.isUsed, satellite.snr != nil else { continue }
                if let current = best, let other = satellites[current],
                   other.elevationDegrees >= satellite.elevationDegrees {
                    continue
                }
                best = slot
            }
            guard let best else { return }
            satellites[best]?.isUsed = true
            used += 1
        }
    }
}
