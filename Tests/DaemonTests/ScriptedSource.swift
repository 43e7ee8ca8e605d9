import TrackCore
@testable import TrackDaemon
import TrackIO

/// A receiver that sends what a test scripted, at the times it scripted: chunks of bytes due at
/// loop times (ms). It has no descriptor; the loop reads it when its next chunk is due, as it
/// reads a replay. Used by the in-process daemon instead of a UART.
struct ScriptedSource: ReceiverSource, ~Copyable {
    struct Chunk {
        var atMilliseconds: Int64
        var bytes: [UInt8]
    }

    var chunks: [Chunk]
    var next = 0
    var isOpen = false
    var opens = 0

    init(_ chunks: [Chunk]) { self.chunks = chunks.sorted { $0.atMilliseconds < $1.atMilliseconds } }

    /// `lines` of NMEA, one epoch's worth every `epochMilliseconds`, starting at `start`: an
    /// epoch starts at each line whose sentence carries a UTC time different from the last.
    static func paced(_ capture: [UInt8], start: Int64 = 0, epochMilliseconds: Int64 = 1_000) -> ScriptedSource {
        var chunks: [Chunk] = []
        var at = start
        var lastTime: [UInt8] = []
        for line in capture.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true) {
            guard line.first == UInt8(ascii: "$") else { continue }
            let fields = line.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
            let type = fields.first.map { Array($0.suffix(3)) } ?? []
            if fields.count > 1, [Array("GGA".utf8), Array("RMC".utf8), Array("GLL".utf8), Array("GNS".utf8)].contains(type) {
                let time = Array(type == Array("GLL".utf8) && fields.count > 5 ? fields[5] : fields[1])
                if !lastTime.isEmpty && time != lastTime && !time.isEmpty { at += epochMilliseconds }
                if !time.isEmpty { lastTime = time }
            }
            if chunks.last?.atMilliseconds == at {
                chunks[chunks.count - 1].bytes += Array(line) + [UInt8(ascii: "\n")]
            } else {
                chunks.append(Chunk(atMilliseconds: at, bytes: Array(line) + [UInt8(ascii: "\n")]))
            }
        }
        return ScriptedSource(chunks)
    }

    mutating func open(now: MonotonicTime) throws(SourceError) {
        isOpen = true
        opens += 1
    }

    var descriptor: FileDescriptor? { nil }

    func nextDeadline() -> MonotonicTime? {
        guard isOpen, next < chunks.count else { return nil }
        return .milliseconds(chunks[next].atMilliseconds)
    }

    mutating func read(into buffer: UnsafeMutableRawBufferPointer, now: MonotonicTime) throws(SourceError) -> Int {
        guard isOpen, next < chunks.count, chunks[next].atMilliseconds * 1_000_000 <= now.nanoseconds else { return 0 }
        var count = 0
        while next < chunks.count, chunks[next].atMilliseconds * 1_000_000 <= now.nanoseconds,
              count + chunks[next].bytes.count <= buffer.count {
            for byte in chunks[next].bytes {
                buffer[count] = byte
                count += 1
            }
            next += 1
        }
        return count
    }

    mutating func observe(acceptedSentences: Int, rejectedSentences: Int, now: MonotonicTime) {}

    var status: SourceStatus { SourceStatus(path: "script", isOpen: isOpen, opens: opens) }

    mutating func close() { isOpen = false }

    mutating func reconfigure(_ configuration: SerialPort.Configuration) -> Bool { false }
}

/// NMEA sentences with their checksums, for scripts: `$GPGGA,...*47`.
enum NMEA {
    /// `body` between `$` and `*` with its checksum and CRLF.
    static func sentence(_ body: String) -> [UInt8] {
        let sum = body.utf8.reduce(UInt8(0)) { $0 ^ $1 }
        let hex = Array("0123456789ABCDEF".utf8)
        return Array(("$" + body + "*").utf8) + [hex[Int(sum >> 4)], hex[Int(sum & 15)], 13, 10]
    }

    /// An RMC, a GGA and a GSA for a 3D fix at `second` seconds past 12:00:00 UTC on 2026-11-30
    /// at `latitude`, `longitude` (degrees), 9 satellites, HDOP 0.9, `knots` over ground.
    static func epoch(second: Int, latitude: Double, longitude: Double, knots: Double = 0) -> [UInt8] {
        let time = String(format2(12 + second / 3600)) + format2(second / 60 % 60) + format2(second % 60) + ".00"
        let lat = degreesMinutes(abs(latitude), degreeDigits: 2) + (latitude < 0 ? ",S" : ",N")
        let lon = degreesMinutes(abs(longitude), degreeDigits: 3) + (longitude < 0 ? ",W" : ",E")
        return sentence("GPRMC," + time + ",A," + lat + "," + lon + "," + fixed(knots, 2) + ",,301126,,,A")
            + sentence("GPGGA," + time + "," + lat + "," + lon + ",1,09,0.9,340.0,M,48.0,M,,")
            + sentence("GPGSA,A,3,01,02,03,04,05,06,07,08,09,,,,1.5,0.9,1.2")
    }

    static func format2(_ value: Int) -> String { value < 10 ? "0" + String(value) : String(value) }

    static func fixed(_ value: Double, _ decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int((value * scale).rounded())
        let whole = String(scaled / Int(scale))
        var fraction = String(scaled % Int(scale))
        while fraction.count < decimals { fraction = "0" + fraction }
        return whole + "." + fraction
    }

    static func degreesMinutes(_ value: Double, degreeDigits: Int) -> String {
        let degrees = Int(value)
        var head = String(degrees)
        while head.count < degreeDigits { head = "0" + head }
        let minutes = (value - Double(degrees)) * 60
        let text = fixed(minutes, 5)
        return head + (minutes < 10 ? "0" : "") + text
    }
}
