/// One checksum-verified sentence: the bytes between `$` and `*`, with its field boundaries,
/// e.g. `GPGGA,123519,4807.038,N,...` for `$GPGGA,123519,4807.038,N,...*47`.
///
/// Field 0 is the address (`GPGGA`); field 1 is the first data field. Decoders read fields
/// through the typed readers in `NMEASentence+Fields.swift`; nothing here allocates.
public struct NMEASentence: Sendable {
    /// Longest sentence accepted, `$` to the checksum inclusive. NMEA says 82; real receivers
    /// send up to ~205 (gpsd's captures), so the limit is generous and then enforced.
    public static var maximumLength: Int { 250 }
    /// Most fields accepted in one sentence (the Navior CH-4701's GSA has 30).
    public static var maximumFields: Int { 48 }

    var bytes: InlineArray<256, UInt8>
    /// Number of body bytes (between `$` and `*`).
    public internal(set) var count: Int
    /// Offset one past the end of each field; field i runs from `fieldEnd[i-1] + 1`.
    var fieldEnd: InlineArray<48, UInt8>
    /// Number of fields, the address included.
    public internal(set) var fieldCount: Int
    /// The formatter, e.g. `.gga`.
    public internal(set) var type: SentenceType
    /// The two talker letters packed big-endian, e.g. `GN` → 0x474E; 0 for proprietary.
    public internal(set) var talker: UInt16

    /// An empty sentence.
    public init() {
        bytes = InlineArray(repeating: 0)
        count = 0
        fieldEnd = InlineArray(repeating: 0)
        fieldCount = 0
        type = .unknown
        talker = 0
    }

    /// Frames `text` (one whole sentence, e.g. `"$GPZDA,...*6E"`) the way a receiver stream
    /// would be; for tests and tools.
    public init(parsing text: String) throws(NMEAError) {
        var framer = NMEAFramer()
        var last: NMEAError? = nil
        for byte in text.utf8 {
            switch framer.consume(byte) {
            case .none: continue
            case .sentence: self = framer.sentence; return
            case .rejected(let error): last = error
            }
        }
        switch framer.consume(UInt8(ascii: "\n")) {
        case .sentence: self = framer.sentence; return
        case .rejected(let error): throw error
        case .none: throw last ?? .missingChecksum
        }
    }

    /// Calls `body` with the body bytes (`GPGGA,…`, without `$` and checksum), in place.
    @inline(__always)
    public func withBody<R>(_ body: (Span<UInt8>) -> R) -> R {
        body(bytes.span.extracting(0..<count))
    }

    /// The body byte at `offset`.
    @inline(__always)
    public subscript(offset: Int) -> UInt8 { bytes[offset] }

    /// The body as text (`GPGGA,...` without `$` and checksum), for messages and tests.
    public var text: String {
        var copy: [UInt8] = []
        copy.reserveCapacity(count)
        for index in 0..<count { copy.append(bytes[index]) }
        return String(decoding: copy, as: UTF8.self)
    }

    /// Field `index` as text (tests and error messages).
    public func fieldText(_ index: Int) -> String {
        var sentence = self
        var copy: [UInt8] = []
        for offset in sentence.range(of: index) { copy.append(bytes[offset]) }
        return String(decoding: copy, as: UTF8.self)
    }
}
