import Foundation
import Testing
import TrackCore

/// The SKYs of one epoch of gpsd's most satellites, 28 KB in all: every one sent, each whole in
/// its own buffer, as gpsd reports them.
@Suite("gpsd SKY reports")
struct GpsdSkyReportTests {
    /// Seven GSV sets of 20 satellites each, of seven talkers other than GP (so gpsd reports at
    /// every set's end), then the next epoch's RMC: 140 satellites, seven SKYs of 20 to 140.
    static let sentences: [String] = {
        var bodies = ["GNRMC,120000.00,A,4807.038,N,01131.324,E,0.0,0.0,010524,,,A"]
        let talkers = ["GL", "GA", "GB", "GQ", "GI", "GN", "BD"]
        for (set, talker) in talkers.enumerated() {
            for part in 1...5 {
                let entries = (0..<4).map { "\(40 + (set * 20 + (part - 1) * 4 + $0) % 50),10,100,30" }.joined(separator: ",")
                bodies.append("\(talker)GSV,5,\(part),20,\(entries)")
            }
        }
        bodies.append("GNRMC,120001.00,A,4807.038,N,01131.324,E,0.0,0.0,010524,,,A")
        return bodies
    }()

    @Test func everySetsSkyIsSentWhole() throws {
        var receiver = NMEAReceiver()
        var written: [String] = []
        let bytes = Self.sentences.flatMap(nmeaLine)
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while let fix = receiver.next(raw, from: &offset) {
                var overflowed = false
                written.append(writtenSKYs(fix, sky: receiver.assembler.sky, device: GpsdDevicePath("/dev/pts/0"),
                                           overflowed: &overflowed))
                #expect(!overflowed)
            }
        }
        let sky = receiver.assembler.sky
        #expect((0..<sky.reportsInEpoch).map(sky.reports) == [20, 40, 60, 80, 100, 120, 140])
        let text = try #require(written.first)
        let objects = text.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        var counts: [Int] = []
        for object in objects {
            let parsed = try #require(try JSONSerialization.jsonObject(with: Data(object.utf8)) as? [String: Any])
            counts.append(try #require(parsed["nSat"] as? Int))
        }
        // 20 + 40 + … + 140 satellites: 28 KB, more than a buffer, sent an object at a time.
        #expect(counts == [20, 40, 60, 80, 100, 120, 140])
        #expect(text.utf8.count > TextBuffer.capacity)
        #expect(objects.allSatisfy { $0.utf8.count + 2 <= TextBuffer.capacity })
        #expect(text.hasSuffix("}\r\n"))
    }
}
