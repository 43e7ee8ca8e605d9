// What a sentence type is, read off the sentence table (SentenceTable.swift): its letters, its
// minimum field count, and which type an address names.

extension SentenceType {
    /// The three-letter formatter, e.g. `"GGA"`; `unknown` and `proprietary` for those.
    public var name: String {
        switch self {
        case .unknown: return "unknown"
        case .proprietary: return "proprietary"
        default:
            let letters = [UInt8(truncatingIfNeeded: rawValue >> 16), UInt8(truncatingIfNeeded: rawValue >> 8),
                           UInt8(truncatingIfNeeded: rawValue)]
            return String(decoding: letters, as: UTF8.self)
        }
    }

    /// The fewest fields a sentence of this type has, its address included, e.g. 10 for GGA;
    /// 0 for unknown and proprietary sentences.
    public var minimumFields: Int {
        var lookup = MinimumFieldsLookup()
        try? visitRow(&lookup)
        return lookup.count
    }

    /// Classifies the address field's bytes, e.g. `GNGGA` → `.gga`, `PUBX` → `.proprietary`.
    ///
    /// A standard address is a two-letter talker plus a three-letter formatter. `$PQGSV` is
    /// Quectel's QZSS talker, not a proprietary sentence, so `P` followed by a known formatter
    /// in a five-letter address is decoded.
    static func classify(_ a0: UInt8, _ a1: UInt8, _ a2: UInt8, _ a3: UInt8, _ a4: UInt8,
                         length: Int) -> SentenceType {
        if length != 5 { return a0 == UInt8(ascii: "P") ? .proprietary : .unknown }
        // The formatter packed into one integer is the table's raw value: one switch.
        let key = UInt32(a2) << 16 | UInt32(a3) << 8 | UInt32(a4)
        let type = SentenceType(rawValue: key) ?? .unknown
        // Only Quectel's `PQ` talker carries standard formatters; Garmin's `$PGRMC` is its own.
        if a0 == UInt8(ascii: "P") && (a1 != UInt8(ascii: "Q") || type == .unknown) { return .proprietary }
        return type
    }
}

/// Reads a row's minimum field count.
private struct MinimumFieldsLookup: SentenceTableVisitor {
    var count = 0
    mutating func visit<Decoder: NMEASentenceDecoder>(_ decoder: Decoder.Type, minimumFields: Int) throws(NMEAError) {
        count = minimumFields
    }
    mutating func skip() { count = 0 }
}
