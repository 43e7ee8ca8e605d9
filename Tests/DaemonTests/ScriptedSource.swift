import TrackCore
@testable import TrackDaemon
@testable import TrackIO

/// A receiver that sends what a test scripted, at the times it scripted: chunks of bytes due at
/// loop times (ms). It has no descriptor; the loop reads it when its next chunk is due, as it
/// reads a replay. Used by the in-process daemon instead of a UART.
///
/// With a `line` it is a UART with a receiver on it that answers: what the daemon writes is
/// recorded and answered by the simulator's receiver (`SimulatedReceiver`: ACK, NAK, versions,
/// baud changes, sleep and wake), its answers come at once; the port has a baud the daemon can
/// move (`follow`) and, when asked, searches it as `SerialPort`'s auto-baud does; while the two
/// ends' bauds differ everything is noise both ways, and while the receiver sleeps the
/// scripted epochs are not sent.
struct ScriptedSource: ReceiverSource, ~Copyable {
    struct Chunk {
        var atMilliseconds: Int64
        var bytes: [UInt8]
        /// The receiver's answer to a write: sent even when the command put it to sleep (a
        /// MediaTek acknowledges PMTK161 before its output stops).
        var answer = false
    }

    /// A receiver on the line and the port's side of it.
    struct Line {
        var receiver: SimulatedReceiver
        /// The port's rate.
        var baud: Int
        /// `SerialPort`'s own search when the port has no configured rate.
        var autoBaud: SerialPort.AutoBaud?
        /// What the daemon wrote, with the loop time (ms) of each write.
        var written: [(atMilliseconds: Int64, bytes: [UInt8])] = []
        /// Replies the receiver would send that are dropped instead (a reply never coming).
        var dropReplies = 0

        /// The two ends agree on the rate.
        var agrees: Bool { baud == receiver.baud }
    }

    var chunks: [Chunk]
    var next = 0
    var isOpen = false
    var opens = 0
    var line: Line?

    init(_ chunks: [Chunk]) { self.chunks = chunks.sorted { $0.atMilliseconds < $1.atMilliseconds } }

    /// The scripted `chunks` from a receiver of `model` at `receiverBaud` on a port at
    /// `portBaud` (nil: auto-baud, starting at its first rate).
    init(_ chunks: [Chunk], receiver model: SimulatedReceiver.Model, receiverBaud: Int = 9600, portBaud: Int? = 9600) {
        self.init(chunks)
        let search = portBaud == nil ? SerialPort.AutoBaud(windowNanoseconds: 2_500_000_000) : nil
        line = Line(receiver: SimulatedReceiver(model, baud: receiverBaud), baud: portBaud ?? search?.baud ?? 9600,
                    autoBaud: search)
    }

    var takesCommands: Bool { line != nil }

    /// Answers `bytes` as the receiver does, the answers due at once.
    mutating func write(_ bytes: UnsafeRawBufferPointer, now: MonotonicTime) -> Bool {
        guard isOpen, var line else { return false }
        let milliseconds = now.nanoseconds / 1_000_000
        line.written.append((milliseconds, Array(bytes)))
        var input = Array(bytes)
        let agrees = line.agrees
        if !agrees { input = input.map(SimulatedReceiver.garbled) }
        var replies = TextBuffer()
        input.withUnsafeBytes { line.receiver.receive($0, replies: &replies) }
        line.receiver.settle()
        var answer = replies.withBytes { span in (0..<span.count).map { span[$0] } }
        if !agrees { answer = answer.map(SimulatedReceiver.garbled) }
        if !answer.isEmpty {
            if line.dropReplies > 0 {
                line.dropReplies -= 1
            } else {
                insert(Chunk(atMilliseconds: milliseconds, bytes: answer, answer: true))
            }
        }
        self.line = line
        return true
    }

    mutating func follow(baud: Int, now: MonotonicTime) {
        guard var line, baud != line.baud else { return }
        if line.autoBaud != nil {
            line.autoBaud?.follow(baud, now: now)
            line.baud = line.autoBaud?.baud ?? baud
        } else {
            line.baud = baud
        }
        self.line = line
    }

    /// A chunk due at its time, before the later ones.
    mutating func insert(_ chunk: Chunk) {
        var index = next
        while index < chunks.count, chunks[index].atMilliseconds <= chunk.atMilliseconds { index += 1 }
        chunks.insert(chunk, at: index)
    }

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
        line?.autoBaud?.restart(now: now)
    }

    var descriptor: FileDescriptor? { nil }

    func nextDeadline() -> MonotonicTime? {
        guard isOpen else { return nil }
        let chunk: MonotonicTime? = next < chunks.count ? .milliseconds(chunks[next].atMilliseconds) : nil
        return earliestOf(chunk, line?.autoBaud?.deadline)
    }

    mutating func read(into buffer: UnsafeMutableRawBufferPointer, now: MonotonicTime) throws(SourceError) -> Int {
        if var line, let search = line.autoBaud?.deadline, now >= search {
            // A silent line at auto-baud's deadline: the next rate, as `SerialPort.read` does.
            if line.autoBaud?.tick(now: now) == true { line.baud = line.autoBaud?.baud ?? line.baud }
            self.line = line
        }
        guard isOpen, next < chunks.count, chunks[next].atMilliseconds * 1_000_000 <= now.nanoseconds else { return 0 }
        var count = 0
        while next < chunks.count, chunks[next].atMilliseconds * 1_000_000 <= now.nanoseconds,
              count + chunks[next].bytes.count <= buffer.count {
            // A sleeping receiver sends nothing; a line whose ends disagree carries noise.
            if line?.receiver.isAsleep != true || chunks[next].answer {
                let agrees = line?.agrees ?? true
                for byte in chunks[next].bytes {
                    buffer[count] = agrees ? byte : SimulatedReceiver.garbled(byte)
                    count += 1
                }
            }
            next += 1
        }
        return count
    }

    mutating func observe(acceptedSentences: Int, rejectedSentences: Int, now: MonotonicTime) {
        guard var line else { return }
        if line.autoBaud?.observe(accepted: acceptedSentences, rejected: rejectedSentences, now: now) == true {
            line.baud = line.autoBaud?.baud ?? line.baud
        }
        self.line = line
    }

    var status: SourceStatus { SourceStatus(path: "script", baud: line?.baud, isOpen: isOpen, opens: opens) }

    mutating func close() { isOpen = false }

    mutating func reconfigure(_ configuration: SerialPort.Configuration) -> Bool { false }
}

/// The earlier of two optional times.
func earliestOf(_ a: MonotonicTime?, _ b: MonotonicTime?) -> MonotonicTime? {
    guard let a else { return b }
    guard let b else { return a }
    return min(a, b)
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
