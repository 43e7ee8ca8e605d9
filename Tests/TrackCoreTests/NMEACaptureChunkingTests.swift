import Foundation
import TestData
import Testing
import TrackCore

/// gpsd's regression captures (real receivers: long lines, bad checksums, binary noise, `$$`)
/// through the receiver in chunks of every shape. Fed one byte at a time the receiver takes the
/// framer's byte-by-byte path; in large chunks it takes the fast scans (eight body bytes at a
/// time, `*hh` and the line end in one step). Every capture must give the same fixes and the
/// same counters either way.
@Suite("NMEA captures in chunks")
struct NMEACaptureChunkingTests {
    static let captures: URL? = TestData.shared("gpsd-regress")

    @Test(.needsShared("gpsd-regress"))
    func everyCaptureAgreesInEveryChunking() throws {
        let directory = try #require(Self.captures)
        let logs = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "log" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        #expect(logs.count > 10)
        var fixes = 0
        for log in logs {
            let bytes = Array(try Data(contentsOf: log))
            let bytewise = receive(bytes, chunk: 1)
            fixes += bytewise.fixes.count
            for size in [3, 4, 5, 64, 65_536] {
                let chunked = receive(bytes, chunk: size)
                #expect(chunked.counters == bytewise.counters, "\(log.lastPathComponent) in chunks of \(size)")
                #expect(chunked.fixes == bytewise.fixes, "\(log.lastPathComponent) in chunks of \(size)")
            }
        }
        #expect(fixes > 1000, "the captures decode to fixes")
    }
}
