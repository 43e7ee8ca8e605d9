import Testing
import TrackCore

// Seeded random input through the whole receiver pipeline. "Never traps" is checked by the test
// process surviving; the counters must add up and a good sentence after the soup must still decode.

/// Valid sentences of every kind the receiver meets, mixed into the soup.
private let pool: [String] = [
    "GPGGA,091500.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,",
    "GNRMC,091500.00,A,4807.038,N,01131.000,E,5.0,90.0,150624,,,A",
    "GNGSA,A,3,05,13,15,18,23,,,,,,,,1.20,0.70,0.98,1",
    "GPGSV,2,1,08,01,40,083,46,02,17,308,41,12,07,344,39,14,22,228,45",
    "GPVTG,054.7,T,034.4,M,005.5,N,010.2,K,A",
    "GPGLL,4916.45,N,12311.12,W,225444,A,A",
    "GPGNS,224749.00,3333.4268304,N,11153.3538273,W,D,19,0.6,406.110,-26.294,6.0,0138,S",
    "GPZDA,201530.00,04,07,2002,00,00",
    "GPGST,024603.00,3.2,6.6,4.7,47.3,5.8,5.6,22.0",
    "GPTXT,01,01,02,ANTSTATUS=OK",
    "PQGSV,1,1,02,193,45,120,38,194,30,250,35",
    "PUBX,00,081350.00,4717.113210,N,00833.915187,E,546.589,G3,2.1,2.0,0.007,77.52,0.007,,0.92,1.19,0.77,9,0,0",
    "GPGBS,235458.00,1.4,1.3,3.1,03,,-21.4,3.8",
]

/// Bytes NMEA is made of, for soup that looks almost like sentences.
private let nmeaAlphabet = Array("$$**,,,,..0123456789012345678901234567890123456789ABCDEFGNPRSVMTKWadfx-+ \r\n\r\n".utf8)

/// Characters for random field values: mostly digits, some signs, points, letters and spaces.
private let fieldAlphabet = Array("0123456789012345678901234567890123456789....--+NSEWAVMTKDUC x".utf8)

extension SplitMix64 {
    /// A uniform integer in `range`.
    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }

    /// A random element of a non-empty array.
    mutating func pick<T>(_ items: [T]) -> T { items[int(0...items.count - 1)] }
}

/// `bytes` with 1…3 random edits: a bit flipped, a byte inserted, a byte deleted, or a run duplicated.
private func mutate(_ bytes: [UInt8], _ rng: inout SplitMix64) -> [UInt8] {
    var bytes = bytes
    for _ in 0..<rng.int(1...3) where !bytes.isEmpty {
        let at = rng.int(0...bytes.count - 1)
        switch rng.int(0...3) {
        case 0: bytes[at] ^= UInt8(1) << UInt8(rng.int(0...7))
        case 1: bytes.insert(UInt8(truncatingIfNeeded: rng.next()), at: at)
        case 2: bytes.remove(at: at)
        default: bytes.insert(contentsOf: bytes[at..<min(at + rng.int(1...8), bytes.count)], at: at)
        }
    }
    return bytes
}

/// Sum of every counter that a sentence can end up in (everything but `fixes`).
private func outcomes(_ counters: NMEACounters) -> Int {
    counters.accepted + counters.badChecksum + counters.overlong + counters.unknown + counters.proprietary
        + counters.outOfRange + counters.malformed
}

/// Feeds `bytes` to `receiver` in random-sized chunks; checks every fix on the way.
private func feed(_ bytes: [UInt8], to receiver: inout NMEAReceiver, _ rng: inout SplitMix64, fixes: inout [Fix]) {
    bytes.withUnsafeBytes { raw in
        var start = 0
        while start < raw.count {
            let end = min(start + rng.int(1...1500), raw.count)
            receiver.consume(UnsafeRawBufferPointer(rebasing: raw[start..<end])) { fixes.append(copy $0) }
            start = end
        }
    }
}

/// What every emitted fix must satisfy, whatever the input.
private func checkSane(_ fix: Fix) {
    if let position = fix.position {
        #expect(abs(position.latitudeNanodegrees) <= 90_000_000_000)
        #expect(abs(position.longitudeNanodegrees) <= 180_000_000_000)
    }
    if let course = fix.courseMillidegrees { #expect((0...360_000).contains(course)) }
    if let speed = fix.speedMillimetresPerSecond { #expect(speed >= 0) }
    var buffer = TextBuffer()
    fix.writeJSON(to: &buffer)
    let overflowed = buffer.overflowed
    #expect(!overflowed)
}

/// The pair fed after the soup, at a time the pool never uses, and the fix it must give.
private let finalPair = [
    "GNRMC,173000.00,A,3351.6500,S,15112.7400,E,10.0,180.0,010125,,,A",
    "GNGGA,173000.00,3351.6500,S,15112.7400,E,2,11,0.8,58.0,M,22.5,M,,",
]
private let finalFix = makeFix {
    $0.time = utc(2025, 1, 1, 17, 30, 0)
    $0.mode = .threeD
    $0.quality = 2
    $0.position = at(-33_860_833_333, 151_212_333_333)
    $0.altitudeMSLMillimetres = 58_000
    $0.geoidSeparationMillimetres = 22_500
    $0.speedMillimetresPerSecond = 5_144
    $0.courseMillidegrees = 180_000
    $0.satellitesUsed = 11
    $0.hdopCenti = 80
}

@Suite("Byte soup")
struct ByteSoupTests {
    @Test("200 KB of seeded soup with valid sentences mixed in", arguments: [1, 42, 0xDEAD_BEEF, 20_240_615] as [UInt64])
    func soup(_ seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        var soup: [UInt8] = []
        var valid = 0
        while soup.count < 200_000 {
            let length = rng.int(0...2_000)
            switch rng.int(0...3) {
            case 0: for _ in 0..<length { soup.append(UInt8(truncatingIfNeeded: rng.next())) }
            case 1: for _ in 0..<length { soup.append(rng.pick(nmeaAlphabet)) }
            case 2: soup += mutate(nmeaLine(rng.pick(pool)), &rng)
            default:
                let line = nmeaLine(rng.pick(pool))
                soup += line[0..<rng.int(0...line.count - 1)]
            }
            soup += nmeaLine(rng.pick(pool))
            valid += 1
        }
        var receiver = NMEAReceiver()
        var fixes: [Fix] = []
        feed(soup, to: &receiver, &rng, fixes: &fixes)
        let dollars = soup.count(where: { $0 == UInt8(ascii: "$") })
        #expect(receiver.counters.accepted + receiver.counters.unknown + receiver.counters.proprietary >= valid)
        #expect(outcomes(receiver.counters) <= dollars, "at most one outcome per '$'")
        fixes.forEach(checkSane)

        // Recovery: the first good pair after the soup gives exactly the fix it describes.
        fixes.removeAll()
        feed(finalPair.flatMap(nmeaLine), to: &receiver, &rng, fixes: &fixes)
        receiver.finish { fixes.append(copy $0) }
        var last = try #require(fixes.last)
        last.satellitesInView = nil  // carried over from the soup's GSVs by design
        #expect(last == finalFix)
    }

    @Test("mutated sentences: no trap, counters add up, the next good sentence is accepted",
          arguments: [7, 99, 31_337] as [UInt64])
    func mutations(_ seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var receiver = NMEAReceiver()
        var fixes: [Fix] = []
        var dollars = 0
        for _ in 0..<3_000 {
            let mutated = mutate(nmeaLine(rng.pick(pool)), &rng)
            dollars += mutated.count(where: { $0 == UInt8(ascii: "$") })
            feed(mutated, to: &receiver, &rng, fixes: &fixes)
            let before = receiver.counters
            let good = nmeaLine(rng.pick(pool))
            dollars += 1
            feed(good, to: &receiver, &rng, fixes: &fixes)
            // The good sentence's `$` may also end a mutated one left open (one more outcome).
            let after = receiver.counters
            #expect(after.accepted + after.unknown + after.proprietary
                == before.accepted + before.unknown + before.proprietary + 1)
            #expect(outcomes(after) - outcomes(before) <= 2)
        }
        // One outcome per sentence fed, counting a sentence per `$` (a mutation may insert one).
        #expect(outcomes(receiver.counters) <= dollars)
        fixes.forEach(checkSane)
    }

    // Random field values with correct checksums reach the decoders (random bytes almost never
    // pass the checksum). Every such sentence is framed, so each is counted exactly once.
    // Values are at most 12 characters: 16 digits trap today (see the known issue in
    // NMEADecoderRejectTests); raise the limit to 20 once that is fixed.
    @Test("random fields through every decoder", arguments: [3, 1_000_003] as [UInt64])
    func fieldSoup(_ seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let addresses = ["GPGGA", "GNRMC", "GNGSA", "GPGSV", "GPVTG", "GPGLL", "GNGNS", "GPZDA", "GPGST",
                         "GPTXT", "PQGSV", "PUBX", "GPGBS"]
        var bodies: [String] = []
        for _ in 0..<20_000 {
            var fields = [rng.pick(addresses)]
            for _ in 0..<rng.int(0...30) {
                fields.append(String(decoding: (0..<rng.int(0...12)).map { _ in rng.pick(fieldAlphabet) }, as: UTF8.self))
            }
            bodies.append(fields.joined(separator: ","))
        }
        var receiver = NMEAReceiver()
        var fixes: [Fix] = []
        feed(bodies.flatMap(nmeaLine), to: &receiver, &rng, fixes: &fixes)
        receiver.finish { fixes.append(copy $0) }
        #expect(outcomes(receiver.counters) == bodies.count)
        #expect(receiver.counters.badChecksum == 0)
        #expect(receiver.counters.accepted > 0)
        #expect(receiver.counters.outOfRange > 0)
        #expect(receiver.counters.malformed > 0)
        #expect(receiver.counters.fixes == fixes.count)
        fixes.forEach(checkSane)
        // Decoding straight from the sentence agrees with what the receiver counted.
        var decoded = 0
        for body in bodies.prefix(2_000) {
            guard let sentence = try? NMEASentence(parsing: nmea(body)) else { continue }
            if (try? NMEAMessage(sentence)) != nil { decoded += 1 }
        }
        #expect(decoded > 0)
    }
}
