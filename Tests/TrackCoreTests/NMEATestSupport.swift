import TrackCore

// Helpers shared by the NMEA, golden and byte-soup tests.

/// The NMEA checksum of `body` (the bytes between `$` and `*`): XOR of every byte.
func nmeaChecksum(_ body: some Sequence<UInt8>) -> UInt8 {
    body.reduce(0, ^)
}

/// `$body*hh` with the checksum computed, e.g. `"GPZDA,201530.00,04,07,2002,00,00"` →
/// `"$GPZDA,201530.00,04,07,2002,00,00*60"`. No line end.
func nmea(_ body: String, lowercase: Bool = false) -> String {
    let sum = nmeaChecksum(body.utf8)
    let digits = Array(lowercase ? "0123456789abcdef".utf8 : "0123456789ABCDEF".utf8)
    let hex = String(decoding: [digits[Int(sum >> 4)], digits[Int(sum & 0xF)]], as: UTF8.self)
    return "$" + body + "*" + hex
}

/// `nmea(body)` plus CR LF, as bytes.
func nmeaLine(_ body: String) -> [UInt8] {
    Array((nmea(body) + "\r\n").utf8)
}

/// Frames and decodes one sentence body (checksum added here).
func decode(_ body: String) throws(NMEAError) -> NMEAMessage {
    let sentence = try NMEASentence(parsing: nmea(body))
    return try NMEAMessage(sentence)
}

/// What the framer said about a stream, one entry per event other than `.none`.
enum FramerOutcome: Equatable, CustomStringConvertible {
    /// A verified sentence, as its body text (`GPGGA,...` without `$` and checksum).
    case sentence(String)
    case rejected(NMEAError)

    var description: String {
        switch self {
        case .sentence(let text): "sentence(\(text))"
        case .rejected(let error): "rejected(\(error.description))"
        }
    }
}

/// Feeds `bytes` to a fresh framer and lists what it reported.
func frame(_ bytes: [UInt8]) -> [FramerOutcome] {
    var framer = NMEAFramer()
    var outcomes: [FramerOutcome] = []
    for byte in bytes {
        switch framer.consume(byte) {
        case .none: continue
        case .sentence: outcomes.append(.sentence(framer.sentence.text))
        case .rejected(let error): outcomes.append(.rejected(error))
        }
    }
    return outcomes
}

/// Runs `bytes` through a fresh `NMEAReceiver` (in chunks of `chunk` bytes), then `finish`.
func receive(_ bytes: [UInt8], chunk: Int = 4096) -> (fixes: [Fix], counters: NMEACounters) {
    var receiver = NMEAReceiver()
    var fixes: [Fix] = []
    bytes.withUnsafeBytes { raw in
        var start = 0
        while start < raw.count {
            let end = min(start + chunk, raw.count)
            receiver.consume(UnsafeRawBufferPointer(rebasing: raw[start..<end])) { fix in fixes.append(copy fix) }
            start = end
        }
    }
    receiver.finish { fix in fixes.append(copy fix) }
    return (fixes, receiver.counters)
}

/// Runs sentence bodies (checksums added, CR LF after each) through a fresh receiver.
func receive(sentences bodies: [String]) -> (fixes: [Fix], counters: NMEACounters) {
    receive(bodies.flatMap(nmeaLine))
}

extension NMEACounters {
    /// The counters with `fixes` zeroed, for comparing what happened to sentences alone.
    var withoutFixes: NMEACounters {
        var copy = self
        copy.fixes = 0
        return copy
    }
}

/// A fix built field by field, for expected values.
func makeFix(_ configure: (inout Fix) -> Void) -> Fix {
    var fix = Fix()
    configure(&fix)
    return fix
}

/// The UTC instant of a date and time, e.g. `utc(2024, 1, 1, 12, 0, 0)`.
func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int32, _ minute: Int32, _ second: Int32,
         milliseconds: Int32 = 0) -> UTCTime? {
    guard let date = CalendarDate(year: year, month: month, day: day) else { return nil }
    return UTCTime(date: date, time: timeOfDay(hour, minute, second, milliseconds: milliseconds))
}

/// A time of day, e.g. `timeOfDay(12, 35, 19)` → 45_319_000 ms.
func timeOfDay(_ hour: Int32, _ minute: Int32, _ second: Int32, milliseconds: Int32 = 0) -> TimeOfDay {
    TimeOfDay(millisecondsSinceMidnight: ((hour * 60 + minute) * 60 + second) * 1000 + milliseconds)
}

/// The fix's TPV as `Fix.writeJSON` writes it (no device, no line end).
func json(_ fix: Fix) -> String {
    var buffer = TextBuffer()
    fix.writeJSON(to: &buffer)
    return buffer.string
}

/// The counters line `NMEACounters.write(to:)` produces.
func line(_ counters: NMEACounters) -> String {
    var buffer = TextBuffer()
    counters.write(to: &buffer)
    return buffer.string
}

/// A small deterministic PRNG (SplitMix64, Steele et al. 2014): the same seed gives the same
/// soup on every machine and toolchain, which `SystemRandomNumberGenerator` cannot promise.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
