/// gpsd's satellite numbering (`driver_nmea0183.c`, nmeaid_to_prn): the PRN a satellite number
/// of a GSV or GSA gets from its talker, or from the NMEA 4.1 system ID when one is sent.
extension SkyView {
    /// `prn(_:system:talker:)` for a sentence's satellites: IDs 1–32 (most of them) are the ID
    /// plus `low`, GLONASS's 65–96 stay as they are; the rest take the general rule.
    @inline(__always)
    static func prn(_ id: Int, system: Int, talker: UInt16, low: Int) -> UInt16 {
        if id >= 1 && id <= 32 && low >= 0 { return UInt16(id + low) }
        if id >= 65 && id <= 96 && (system == 0 || system == 2) { return UInt16(id) }
        return prn(id, system: system, talker: talker)
    }

    /// What gpsd adds to IDs 1–32 of `system` (0: by `talker`); −1 when they have no PRN.
    @inline(__always)
    static func lowOffset(system: Int, talker: UInt16) -> Int {
        switch system {
        case 0: Int(prn(1, talker: talker)) - 1
        case 1: 0
        case 2: 64
        case 3: 300
        case 4: 400
        case 5: 192
        case 6: 500
        default: -1
        }
    }

    /// NMEA 4.1's system ID a talker implies, as gpsd reads it: GA Galileo 3, GB/BD BeiDou 4,
    /// GI NavIC 6, GL GLONASS 2, GQ/PQ/QZ QZSS 5; 0 (none) for GP, GN and the rest.
    public static func system(talker: UInt16) -> Int {
        switch UInt8(truncatingIfNeeded: talker) {
        case UInt8(ascii: "A"): 3
        case UInt8(ascii: "B"), UInt8(ascii: "D"): 4
        case UInt8(ascii: "I"): 6
        case UInt8(ascii: "L"): 2
        case UInt8(ascii: "Q"), UInt8(ascii: "Z"): 5
        default: 0
        }
    }

    /// gpsd's PRN for NMEA satellite number `id` of NMEA 4.1 system `system` (0: not known,
    /// the ranges of NMEA 2.x–4.0 decide), after gpsd's nmeaid_to_prn. With a system: GPS and
    /// SBAS keep their numbers, GLONASS is 65–96, Galileo 301–, BeiDou 401–, QZSS 193–, NavIC
    /// 501–, each also from the receivers' own offsets (Quectel's Galileo 101–, BeiDou 201–).
    /// Without: IDs 1–32 of a GA, GB/BD, GI, GL, GQ, PQ or QZ talker move to those ranges, IDs
    /// above 32 keep NMEA's ranges (BeiDou 201–237 moves to 401–437), and IDs in no range are 0.
    /// E.g. `$GAGSV` satellite 11 → 311.
    public static func prn(_ id: Int, system: Int, talker: UInt16) -> UInt16 {
        guard id > 0 else { return 0 }
        switch system {
        case 0:
            return prn(id, talker: talker)
        case 1:
            switch id {
            case 1...136, 152...157, 193...264: return UInt16(id)
            default: return 0
            }
        case 2: return UInt16(64 + (id < 64 ? id : id - 64))
        case 3: return UInt16(300 + Self.own(id, quirks: 101...199, 301...399))
        case 4: return UInt16(400 + Self.own(id, quirks: 201...299, 401...499))
        case 5: return UInt16(192 + (id < 100 ? id : id - 192))
        case 6: return UInt16(500 + id)
        default: return 0
        }
    }

    /// A constellation's own number: NMEA's 1–99 as is, a receiver's ranges from their starts
    /// (Galileo's 101–199 is Quectel's, 301–399 Jackson Labs'), else 0 as in gpsd.
    static func own(_ id: Int, quirks first: ClosedRange<Int>, _ second: ClosedRange<Int>) -> Int {
        if id < 100 { return id }
        if first.contains(id) { return id - first.lowerBound + 1 }
        if second.contains(id) { return id - second.lowerBound + 1 }
        return 0
    }

    /// gpsd's PRN for NMEA 2.x–4.0 satellite number `id` from `talker`.
    static func prn(_ id: Int, talker: UInt16) -> UInt16 {
        switch id {
        case 1...32:
            switch talker {
            case 0x4741: return UInt16(300 + id)  // GA
            case 0x4742, 0x4244: return UInt16(400 + id)  // GB, BD
            case 0x4749: return UInt16(500 + id)  // GI
            case 0x474C: return UInt16(64 + id)  // GL
            case 0x4751, 0x515A: return UInt16(192 + id)  // GQ, QZ
            case 0x5051: return UInt16(400 + id)  // PQ: Quectel's BeiDou
            default: return UInt16(id)
            }
        case 33...96, 120...158, 173...182, 193...197, 301...356, 401...437: return UInt16(id)
        case 201...237: return UInt16(id + 200)
        default: return 0
        }
    }
}
