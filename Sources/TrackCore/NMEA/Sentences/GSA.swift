/// GSA, DOP and active satellites: `$GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1*39`.
/// NMEA 4.1 adds a system ID after VDOP; the Navior CH-4701 sends 24 satellite slots.
public struct GSA: NMEASentenceDecoder, Equatable, Sendable {
    /// `M` manual or `A` automatic 2D/3D selection.
    public var selection: UInt8?
    /// Fix type: 1 none, 2 2D, 3 3D.
    public var fixType: UInt8?
    /// Satellite IDs used in the solution (first `satelliteCount` entries).
    public var satellites: InlineArray<24, UInt16>
    /// Number of valid entries in `satellites`.
    public var satelliteCount: Int
    /// Position DOP × 100.
    public var pdopCenti: Int32?
    /// Horizontal DOP × 100.
    public var hdopCenti: Int32?
    /// Vertical DOP × 100.
    public var vdopCenti: Int32?
    /// NMEA 4.1 GNSS system ID (1 GPS, 2 GLONASS, 3 Galileo, 4 BeiDou, 5 QZSS, 6 NavIC).
    public var systemID: UInt8?

    /// Decodes in place (the readers are `mutating` only to read in place); `s` is only read,
    /// and has the table's minimum field count.
    public init(decoding s: inout NMEASentence) throws(NMEAError) {
        // The i.Trek M3 sends `$GPGSA,A,1,,,,*32` without a fix: short, but its mode is usable.
        selection = try s.character(1)
        // Antaris receivers put `E` (dead reckoning) in the fix type: not a 2D/3D fix.
        if try s.character(2) == UInt8(ascii: "E") {
            fixType = nil
        } else {
            fixType = try s.integer(2, in: 1...3).map { UInt8($0) }
        }
        satellites = InlineArray(repeating: 0)
        satelliteCount = 0
        pdopCenti = nil
        hdopCenti = nil
        vdopCenti = nil
        systemID = nil
        guard s.fieldCount >= 18 else { return }
        // Three DOPs end the list, optionally followed by the system ID (NMEA 4.1).
        let dopStart = s.fieldCount == 19 ? 15 : s.fieldCount - 3
        for index in 3..<dopStart {
            guard let id = try s.integer(index, in: 0...999) else { continue }
            guard satelliteCount < 24 else { break }
            satellites[satelliteCount] = UInt16(id)
            satelliteCount += 1
        }
        // 99.99 is how the BT-451 and others say "no DOP".
        pdopCenti = try s.decimal(dopStart, scale: 2, in: 0...99_999).flatMap(Self.validDOP)
        hdopCenti = try s.decimal(dopStart + 1, scale: 2, in: 0...99_999).flatMap(Self.validDOP)
        vdopCenti = try s.decimal(dopStart + 2, scale: 2, in: 0...99_999).flatMap(Self.validDOP)
        if dopStart + 3 < s.fieldCount {
            systemID = try s.integer(dopStart + 3, in: 0...15).map { UInt8($0) }
        }
    }

    static func validDOP(_ centi: Int64) -> Int32? { centi < 9900 ? Int32(centi) : nil }

    /// The sentence type of this decoder's table row.
    public static var type: SentenceType { .gsa }

    /// This sentence as an `NMEAMessage`.
    public var message: NMEAMessage { .gsa(self) }

    /// What the sentence adds to the epoch in progress; true when it completed the previous one.
    public func contribute(to epoch: inout EpochAssembler, talker: UInt16) -> Bool {
        epoch.merge(self)
        epoch.sky.add(self, talker: talker)
        return false
    }
}

extension GSA {
    public static func == (lhs: GSA, rhs: GSA) -> Bool {
        lhs.selection == rhs.selection && lhs.fixType == rhs.fixType && lhs.pdopCenti == rhs.pdopCenti
            && lhs.hdopCenti == rhs.hdopCenti && lhs.vdopCenti == rhs.vdopCenti && lhs.systemID == rhs.systemID
            && prefixEqual(lhs.satellites, lhs.satelliteCount, rhs.satellites, rhs.satelliteCount)
    }
}

/// Compares the first `lhsCount` / `rhsCount` elements of two inline arrays.
func prefixEqual<let N: Int, T: Equatable>(
    _ lhs: InlineArray<N, T>, _ lhsCount: Int, _ rhs: InlineArray<N, T>, _ rhsCount: Int
) -> Bool {
    guard lhsCount == rhsCount else { return false }
    for index in 0..<lhsCount where lhs[index] != rhs[index] { return false }
    return true
}
