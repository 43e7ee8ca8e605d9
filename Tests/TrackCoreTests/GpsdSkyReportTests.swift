import Foundation
import Testing
import TrackCore

/// The SKYs of one epoch that do not all fit in one buffer: the whole view and the latest
/// earlier ones, every object whole.
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

    @Test func theWholeViewAndTheLatestEarlierOnesFit() throws {
        var receiver = NMEAReceiver()
        var written: [String] = []
        let bytes = Self.sentences.flatMap(nmeaLine)
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while let fix = receiver.next(raw, from: &offset) {
                var buffer = TextBuffer()
                GpsdJSON.writeSKY(fix, sky: receiver.assembler.sky, positions: true, device: GpsdDevicePath("/dev/pts/0"), to: &buffer)
                let overflowed = buffer.overflowed
                #expect(!overflowed)
                written.append(buffer.string)
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
        // 20 + 40 + … + 140 satellites (28 KB) are more than a buffer: the earliest go.
        #expect(counts.last == 140)
        #expect(counts.count < 7 && counts == Array([20, 40, 60, 80, 100, 120, 140].suffix(counts.count)))
        #expect(text.hasSuffix("}\r\n"))
    }
}
