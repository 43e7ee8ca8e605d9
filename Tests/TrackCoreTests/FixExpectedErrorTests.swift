@testable import TrackCore
import Testing

// A fix's expected errors (GBS's): written as gpsd's epx/epy/epv (its processGBS takes them so),
// used for the accuracy when GST gave none, and never disclosed with an approximate or hidden
// position.

@Suite("expected errors in a fix") struct FixExpectedErrorTests {
    static func fix(gst: (Int32, Int32)?, expected: (Int32, Int32, Int32)?) -> Fix {
        var fix = Fix()
        fix.mode = .threeD
        fix.position = Coordinate(latitudeNanodegrees: 48_117_300_000, longitudeNanodegrees: 11_516_700_000)
        fix.hdopCenti = 120
        if let gst { fix.latitudeErrorCentimetres = gst.0; fix.longitudeErrorCentimetres = gst.1 }
        if let expected {
            fix.expectedLatitudeErrorCentimetres = expected.0
            fix.expectedLongitudeErrorCentimetres = expected.1
            fix.expectedAltitudeErrorCentimetres = expected.2
        }
        return fix
    }

    @Test func writtenAsGpsdNames() {
        var buffer = TextBuffer()
        Self.fix(gst: nil, expected: (240, 150, 390)).writeJSON(to: &buffer)
        #expect(buffer.string == "{\"class\":\"TPV\",\"mode\":3,\"lat\":48.117300000,\"lon\":11.516700000,"
            + "\"epx\":1.500,\"epy\":2.400,\"epv\":3.900}")
        buffer.removeAll()
        Self.fix(gst: nil, expected: nil).writeJSON(to: &buffer)
        #expect(!buffer.string.contains("\"ep"))
    }

    /// GST wins; then the expected errors; then HDOP × UERE (1.2 × 5 m); a 0 × 0 is absent.
    @Test(arguments: [
        ((Int32(300), Int32(400)), (Int32(100), Int32(100), Int32(300)), Int64(5_000)),
        (nil, (300, 400, 900), 5_000),
        (nil, (100, 100, 300), 1_414),
        ((0, 0), (300, 400, 900), 5_000),
        (nil, (0, 0, 0), 6_000),
        (nil, nil, 6_000),
    ] as [((Int32, Int32)?, (Int32, Int32, Int32)?, Int64)])
    func accuracy(gst: (Int32, Int32)?, expected: (Int32, Int32, Int32)?, millimetres: Int64) {
        let fix = Self.fix(gst: gst, expected: expected)
        #expect(fix.horizontalAccuracyMillimetres(uereMillimetres: 5_000, assumedHDOPCenti: 200) == millimetres)
    }

    @Test(arguments: [Disclosure.approximate, .withheld])
    func notDisclosedWithoutThePrecisePosition(disclosure: Disclosure) {
        let shown = Self.fix(gst: nil, expected: (240, 150, 390)).disclosed(disclosure)
        #expect(shown.expectedLatitudeErrorCentimetres == nil)
        #expect(shown.expectedLongitudeErrorCentimetres == nil)
        #expect(shown.expectedAltitudeErrorCentimetres == nil)
    }
}
