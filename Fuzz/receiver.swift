// Fuzz target `receiver`: the receiver's byte stream as trackd will read it with receiver
// control on — `ReceiverStream` lifting UBX frames out before the NMEA framer and reading the
// replies (ACK/NAK, MON-VER, PMTK001/705/010, PAIR001, PQVERNO, TXT) — and every reply through
// the detector and a command session waiting for each kind of answer.
//
// The first input byte is a mode: bit 0 set rewrites the checksum of every `$…*hh` and of every
// `B5 62` frame whose length fits (so mutated replies reach the readers instead of dying at
// the checksum), bits 1–7 choose the chunk size the bytes arrive in (1…128). Checks beyond "no
// crash":
// * chunked and byte-at-a-time feeding give the same fixes, replies and counters;
// * the NMEA side equals `NMEAReceiver` alone on the input less the good frames after their
//   `B5` (a plain scan finds them), so lifting frames never costs an NMEA sentence;
// * every good frame comes out as a reply;
// * the session never finishes a command twice and ends idle once every try has timed out;
// * after the input, a good ACK-ACK and a good PMTK001 still come out.
import TrackCore

func fuzzTarget(_ input: [UInt8]) {
    guard let mode = input.first else { return }
    var stream = Array(input.dropFirst())
    if mode & 1 == 1 { ReceiverFuzz.repair(&stream) }
    let chunk = Int(mode >> 1) + 1

    let chunked = ReceiverFuzz.run(stream, chunk: chunk)
    let single = ReceiverFuzz.run(stream, chunk: 1)
    check(chunked.fixes == single.fixes, "chunks of \(chunk) gave other fixes than single bytes")
    check(chunked.replies == single.replies, "chunks of \(chunk) gave other replies than single bytes")
    check(chunked.counters == single.counters, "chunks of \(chunk) gave other counters than single bytes")

    let (nmea, frames) = ReceiverFuzz.withoutFrames(stream)
    var plain = NMEAReceiver()
    var plainFixes: [Fix] = []
    nmea.withUnsafeBytes { raw in plain.consume(raw) { plainFixes.append(copy $0) } }
    plain.finish { plainFixes.append(copy $0) }
    check(plainFixes == chunked.fixes, "lifting frames changed the fixes")
    check(plain.counters == chunked.counters, "lifting frames changed the NMEA counters")
    check(chunked.frames == frames, "\(frames) good frames in the input, \(chunked.frames) read")

    // Every reply through the detector and a session of every expectation.
    var detector = ReceiverDetector()
    var session = CommandSession(replyTimeoutMilliseconds: 100)
    for command in ReceiverFuzz.commands { session.enqueue(command) }
    var now = MonotonicTime.seconds(1)
    var finished = 0
    for reply in chunked.replies {
        detector.observe(reply)
        _ = session.commandToSend(now: now)
        if session.observe(reply, now: now) != nil { finished += 1 }
        now = now.adding(milliseconds: 10)
    }
    // Two steps an attempt (sent, then timed out), at most three attempts a command.
    for _ in 0..<(6 * ReceiverFuzz.commands.count + 1) {
        _ = session.commandToSend(now: now)
        if session.expire(now: now) != nil { finished += 1 }
        now = now.adding(milliseconds: 100)
    }
    check(session.isIdle, "the session did not finish after every try timed out")
    for index in 0..<session.count { check(session[index].status.isFinal, "entry \(index) not final") }
    _ = detector.identity?.model?.string

    // Recovery: whatever came before, a good frame and a good sentence still read.
    let tail = ReceiverFuzz.run(stream + ReceiverFuzz.recovery, chunk: chunk).replies.suffix(2)
    check(Array(tail) == [.ubxAcknowledged(.cfgMsg), .pmtkAcknowledgement(command: 314, flag: .done)],
          "the stream did not recover: \(tail)")
}

enum ReceiverFuzz {
    /// One command of every expectation.
    static let commands: [ReceiverCommand] = [
        UBXCommands.messageRate(.gst, everyEpochs: 1), UBXCommands.versionPoll, PMTKCommands.sentences(.trackdDefault),
        PMTKCommands.releaseQuery, PMTKCommands.wakeUp, QuectelCommands.fixInterval(milliseconds: 1000),
        QuectelCommands.versionQuery, QuectelCommands.pairVersionQuery, UBXCommands.portBaud(115_200),
    ]

    /// Ends any open sentence or frame (a good frame's worth of CR LF), then ACK-ACK of CFG-MSG
    /// and `$PMTK001,314,3*36`.
    static let recovery: [UInt8] = Array(repeating: 0x0A, count: 520)
        + [0xB5, 0x62, 0x05, 0x01, 0x02, 0x00, 0x06, 0x01, 0x0F, 0x38] + Array("$PMTK001,314,3*36\r\n".utf8)

    struct Result {
        var fixes: [Fix] = []
        var replies: [ReceiverReply] = []
        var counters = NMEACounters()
        var frames = 0
    }

    static func run(_ bytes: [UInt8], chunk: Int) -> Result {
        var stream = ReceiverStream()
        var result = Result()
        func take(_ event: ReceiverEvent) {
            switch event {
            case .fix: result.fixes.append(stream.fix)
            case .reply: result.replies.append(stream.reply)
            }
        }
        bytes.withUnsafeBytes { raw in
            var start = 0
            while start < raw.count {
                let part = UnsafeRawBufferPointer(rebasing: raw[start..<min(start + chunk, raw.count)])
                var offset = 0
                while let event = stream.next(part, from: &offset) { take(event) }
                check(offset == part.count, "the stream stopped before the end of its bytes")
                start += chunk
            }
        }
        stream.flush()
        var offset = 0
        while let event = stream.next(UnsafeRawBufferPointer(start: nil, count: 0), from: &offset) { take(event) }
        if let fix = stream.finish() { result.fixes.append(fix) }
        result.counters = stream.nmea.counters
        result.frames = stream.ubxFrames
        return result
    }

    /// The input less every good frame's bytes after its `B5`, and how many good frames.
    static func withoutFrames(_ bytes: [UInt8]) -> ([UInt8], Int) {
        var kept: [UInt8] = []
        var frames = 0
        var index = 0
        while index < bytes.count {
            kept.append(bytes[index])
            if bytes[index] == 0xB5, let length = frameLength(bytes, at: index + 1, repairing: false) {
                frames += 1
                index += 1 + length
            } else {
                index += 1
            }
        }
        return (kept, frames)
    }

    /// The length (62 … CK_B) of the frame after a `B5` at `start` when its checksum is good
    /// (or, `repairing`, whenever the length fits the bytes: the checksum is then written).
    static func frameLength(_ bytes: [UInt8], at start: Int, repairing: Bool) -> Int? {
        guard start + 5 <= bytes.count, bytes[start] == 0x62 else { return nil }
        let length = Int(bytes[start + 3]) | Int(bytes[start + 4]) << 8
        guard length <= UBXFrameReader.maximumPayload, start + 7 + length <= bytes.count else { return nil }
        var a: UInt8 = 0
        var b: UInt8 = 0
        for byte in bytes[(start + 1)..<(start + 5 + length)] {
            a &+= byte
            b &+= a
        }
        if repairing { return length }
        return bytes[start + 5 + length] == a && bytes[start + 6 + length] == b ? 7 + length : nil
    }

    /// Writes good checksums into every `$body*hh` and every `B5 62` frame that fits.
    static func repair(_ bytes: inout [UInt8]) {
        var index = 0
        while index < bytes.count {
            if bytes[index] == 0xB5, let length = frameLength(bytes, at: index + 1, repairing: true) {
                var a: UInt8 = 0
                var b: UInt8 = 0
                for byte in bytes[(index + 2)..<(index + 6 + length)] {
                    a &+= byte
                    b &+= a
                }
                bytes[index + 6 + length] = a
                bytes[index + 7 + length] = b
                index += 8 + length
                continue
            }
            guard bytes[index] == UInt8(ascii: "$") else { index += 1; continue }
            var sum: UInt8 = 0
            var end = index + 1
            while end < bytes.count, bytes[end] != UInt8(ascii: "*"), bytes[end] != UInt8(ascii: "$"),
                  bytes[end] != 0x0D, bytes[end] != 0x0A, bytes[end] != 0xB5 {
                sum ^= bytes[end]
                end += 1
            }
            if end + 2 < bytes.count, bytes[end] == UInt8(ascii: "*") {
                let digits = Array("0123456789ABCDEF".utf8)
                bytes[end + 1] = digits[Int(sum >> 4)]
                bytes[end + 2] = digits[Int(sum & 0xF)]
            }
            index = end
        }
    }
}
