// Fuzz target `nmea`: receiver bytes through the pipeline trackd runs on its UART — framer,
// decoders, epoch assembler (`NMEAReceiver`), then the daemon's steps for each fix
// (`Daemon.handle`: `FixPipeline` filter and trip, the disclosure, sampling, the odometer,
// `LogFix`) with tracking allowed, and the log codec for the fixes it records.
//
// The first input byte is a mode: bit 0 set rewrites the checksum of every `$…*hh` in the rest
// (so mutated sentences reach the decoders instead of dying at the checksum), bits 1–7 choose
// the chunk size the bytes arrive in (1…128). Checks beyond "no crash":
// * chunked and byte-at-a-time feeding give the same fixes and counters (the fast path
//   `scanBody` agrees with `consume`);
// * at most one counted outcome per `$`; every fix in range and its JSON fits the status buffer;
// * recorded fixes come back unchanged from the log encoder and chunk reader;
// * after the input, two good epochs give the same last fix a fresh receiver gives them.
import TrackCore
@testable import TrackDaemon

func fuzzTarget(_ input: [UInt8]) {
    guard let mode = input.first else { return }
    var stream = Array(input.dropFirst())
    if mode & 1 == 1 { NMEAFuzz.repairChecksums(&stream) }
    let chunk = Int(mode >> 1) + 1

    var chunked = NMEAReceiver()
    var fixes: [Fix] = []
    stream.withUnsafeBytes { raw in
        var start = 0
        while start < raw.count {
            let end = min(start + chunk, raw.count)
            chunked.consume(UnsafeRawBufferPointer(rebasing: raw[start..<end])) { fixes.append(copy $0) }
            start = end
        }
    }
    var single = NMEAReceiver()
    var singleFixes: [Fix] = []
    for byte in stream { withUnsafeBytes(of: byte) { single.consume($0) { singleFixes.append(copy $0) } } }
    check(fixes == singleFixes, "chunks of \(chunk) gave other fixes than single bytes")
    check(chunked.counters == single.counters, "chunks of \(chunk) gave other counters than single bytes")

    let counters = chunked.counters
    let outcomes = counters.accepted + counters.badChecksum + counters.overlong + counters.unknown
        + counters.proprietary + counters.outOfRange + counters.malformed
    let dollars = stream.count(where: { $0 == UInt8(ascii: "$") })
    check(outcomes <= dollars, "\(outcomes) outcomes counted for \(dollars) sentences")
    check(counters.fixes == fixes.count, "counted \(counters.fixes) fixes, emitted \(fixes.count)")

    chunked.finish { fixes.append(copy $0) }
    var path = NMEAFuzz.FixPath()
    var recorded: [LogRecord] = []
    for (index, fix) in fixes.enumerated() {
        NMEAFuzz.checkSane(fix)
        if let logged = path.handle(fix, now: .milliseconds(Int64(index) * 1_000)) {
            recorded.append(.fix(logged))
        }
    }
    let readBack = LogRoundTrip.reencode(recorded)
    check(readBack.error == nil, "recorded fixes did not read back: \(String(describing: readBack.error))")
    check(readBack.records == recorded, "recorded fixes read back differently")

    // Recovery: whatever came before, two good epochs end with the fix they describe.
    var receiver = chunked
    var last: Fix?
    NMEAFuzz.recovery.withUnsafeBytes { raw in receiver.consume(raw) { last = copy $0 } }
    receiver.finish { last = copy $0 }
    last?.satellitesInView = nil  // kept from earlier GSVs by design
    check(last == NMEAFuzz.recoveredFix, "the receiver did not recover: \(String(describing: last))")
}

enum NMEAFuzz {
    /// The steps `Daemon.handle` takes for one fix, without the services that own files and
    /// descriptors (the track log, the fences with none loaded): the default configuration,
    /// tracking allowed with precise accuracy, no in-use input.
    struct FixPath {
        var fixes = FixPipeline(TrackdConfig())
        var permission = Permission(state: .always)
        var odometer = Odometer()
        let startedAt = MonotonicTime(nanoseconds: 0)

        /// The fix the daemon would append to the log, if any.
        mutating func handle(_ fix: borrowing Fix, now: MonotonicTime) -> LogFix? {
            guard let accuracy = fixes.judge(fix, now: now, startedAt: startedAt) else { return nil }
            let time = fix.time ?? UTCTime(millisecondsSinceEpoch: 0)
            let disclosure = permission.disclosure(inUse: false, onTrip: fixes.onTrip, now: now)
            guard disclosure.allowsPosition else {
                fixes.notAllowed += 1
                return nil
            }
            let shown = fix.disclosed(disclosure)
            guard fixes.sample(shown, accuracyMillimetres: accuracy, now: now), let position = shown.position else { return nil }
            let before = odometer.totalMillimetres
            _ = odometer.add(position, accuracyMillimetres: Int32(clamping: accuracy), timeMilliseconds: time.millisecondsSinceEpoch)
            check(odometer.totalMillimetres >= before, "the odometer went back")
            return LogFix(shown, accuracyMillimetres: disclosure == .precise ? accuracy : nil, time: time)
        }
    }

    /// Ends any open sentence, then two epochs (RMC + GGA) a second apart.
    static let recovery: [UInt8] = Array("\r\n".utf8) + [
        "GNRMC,173000.00,A,3351.6500,S,15112.7400,E,10.0,180.0,010125,,,A",
        "GNGGA,173000.00,3351.6500,S,15112.7400,E,2,11,0.8,58.0,M,22.5,M,,",
        "GNRMC,173001.00,A,3351.6550,S,15112.7400,E,10.0,180.0,010125,,,A",
        "GNGGA,173001.00,3351.6550,S,15112.7400,E,2,11,0.8,58.1,M,22.5,M,,",
    ].flatMap { line in
        var bytes = Array(("$" + line + "*00\r\n").utf8)
        repairChecksums(&bytes)
        return bytes
    }

    /// The last fix a fresh receiver makes of `recovery`.
    static let recoveredFix: Fix? = {
        var receiver = NMEAReceiver()
        var last: Fix?
        recovery.withUnsafeBytes { raw in receiver.consume(raw) { last = copy $0 } }
        receiver.finish { last = copy $0 }
        return last
    }()

    /// Writes the right checksum into every `$body*hh` of `bytes` (where both digits exist).
    static func repairChecksums(_ bytes: inout [UInt8]) {
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "$") else { index += 1; continue }
            var sum: UInt8 = 0
            var end = index + 1
            while end < bytes.count, bytes[end] != UInt8(ascii: "*"), bytes[end] != UInt8(ascii: "$"),
                  bytes[end] != 0x0D, bytes[end] != 0x0A {
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

    /// What every emitted fix satisfies, whatever the input.
    static func checkSane(_ fix: Fix) {
        if let position = fix.position {
            check(abs(position.latitudeNanodegrees) <= 90_000_000_000, "latitude out of range")
            check(abs(position.longitudeNanodegrees) <= 180_000_000_000, "longitude out of range")
        }
        if let course = fix.courseMillidegrees { check((0...360_000).contains(course), "course \(course)") }
        if let speed = fix.speedMillimetresPerSecond { check(speed >= 0, "speed \(speed)") }
        var buffer = TextBuffer()
        fix.writeJSON(to: &buffer)
        check(!buffer.overflowed, "a fix's JSON overflows the status buffer")
    }
}
