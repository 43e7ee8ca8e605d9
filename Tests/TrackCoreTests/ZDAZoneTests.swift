import Testing
@testable import TrackCore

@Suite("ZDA zone offset sign")
struct ZDAZoneTests {
    @Test("the sign of the hours applies to the minutes, even at -00", arguments: [
        ("GPZDA,201530.00,04,07,2002,-00,30", -30),
        ("GPZDA,201530.00,04,07,2002,00,30", 30),
        ("GPZDA,201530.00,04,07,2002,-05,45", -345),
        ("GPZDA,201530.00,04,07,2002,+05,30", 330),
    ])
    func sign(_ body: String, _ minutes: Int) throws {
        var sum: UInt8 = 0
        for byte in body.utf8 { sum ^= byte }
        let hex = String(sum, radix: 16, uppercase: true)
        let sentence = try NMEASentence(parsing: "$" + body + "*" + (sum < 16 ? "0" : "") + hex)
        let zda = try ZDA(sentence)
        #expect(zda.zoneOffsetMinutes == Int16(minutes))
    }
}
