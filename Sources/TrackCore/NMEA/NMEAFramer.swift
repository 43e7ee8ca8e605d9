/// What one byte did to the framer.
public enum FrameEvent: Equatable, Sendable {
    /// Nothing complete yet.
    case none
    /// A checksum-verified sentence is in `NMEAFramer.sentence`.
    case sentence
    /// A sentence was dropped for the reason given.
    case rejected(NMEAError)
}

/// A streaming NMEA 0183 framer: bytes in, verified sentences out, in a fixed buffer.
///
/// Resynchronises on every `$`; requires `*hh` (either hex case) before CR or LF; rejects NUL,
/// control and non-ASCII bytes inside a sentence; drops lines over `maximumLength`.
/// Bytes between sentences (noise, binary protocols, comments) are ignored.
public struct NMEAFramer: Sendable {
    enum State: UInt8 { case idle, body, checksumHigh, checksumLow, end, skipping }

    /// The sentence completed by the last `.sentence` event; valid until the next byte.
    public internal(set) var sentence = NMEASentence()
    var state = State.idle
    var sum: UInt8 = 0
    /// The checksum of the sentence completed by the last `.sentence` event.
    public var checksum: UInt8 { sum }
    var found: UInt8 = 0
    var fieldStart = 0

    /// A framer waiting for `$`.
    public init() {}

    /// Feeds one byte.
    @inline(__always)
    public mutating func consume(_ byte: UInt8) -> FrameEvent {
        if state == .body {
            // The hot path: an ordinary body byte.
            // Printable ASCII other than the delimiters `$`, `*` and `,`.
            if byte >= 0x20 && byte < 0x7F && byte != 0x24 && byte != 0x2A && byte != 0x2C {
                return append(byte)
            }
        }
        return slowPath(byte)
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) -> FrameEvent {
        let count = sentence.count
        if count >= NMEASentence.maximumLength - 4 {
            state = .skipping
            return .rejected(.overlong)
        }
        sentence.bytes[count] = byte
        sentence.count = count &+ 1
        sum ^= byte
        return .none
    }

    /// Consumes the run of ordinary body bytes and commas at the start of `input[start...]`
    /// while a sentence is open; returns the index of the first byte it left for `consume`.
    ///
    /// Exactly what `consume` would do byte by byte for those bytes (each would return `.none`),
    /// in loops that keep the sentence's counters in registers. It stops before any other
    /// byte, before a comma past `maximumFields` and before the byte that would make the
    /// sentence overlong, so `consume` reports those.
    @inline(__always)
    mutating func scanBody(_ input: UnsafeRawBufferPointer, from start: Int) -> Int {
        var count = sentence.count
        let room = NMEASentence.maximumLength - 4 - count
        let end = room < input.count - start ? start + room : input.count
        var fieldCount = sentence.fieldCount
        var sum = self.sum
        var wideSum: UInt64 = 0
        var index = start
        // Raw bytes, so that eight can be stored at once.
        var body = sentence.bytes.mutableSpan
        var bodyBytes = body.mutableBytes
        scanning: while true {
            // Eight bytes at a time while all of them are `,` to `~` (digits, letters, `.`, `-`):
            // most of a sentence. A byte's top bit is set in `word + 0x54…` when the byte is `,`
            // (0x2C) or above, in `word + 0x01…` when it is 0x7F or above, and in `word` when it
            // is 0x80 or above; so `outside` has a top bit for each byte outside `,`…`~`. Only
            // a byte of 0x80 or more can carry into its neighbour, and it fails by itself.
            while end &- index >= 8 {
                let word = UInt64(littleEndian: input.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                let outside = (word | (word &+ 0x0101_0101_0101_0101) | ~(word &+ 0x5454_5454_5454_5454))
                    & 0x8080_8080_8080_8080
                if outside != 0 { break }
                // Every byte is below 0x80 here, so this finds exactly the commas (zero bytes
                // of `word ^ ",,,,,,,,"`) with no carries between bytes.
                var commas = ~((word ^ 0x2C2C_2C2C_2C2C_2C2C) &+ 0x7F7F_7F7F_7F7F_7F7F) & 0x8080_8080_8080_8080
                if commas != 0 {
                    // Room for eight more fields, else the byte loop below counts them exactly.
                    if fieldCount > NMEASentence.maximumFields &- 8 { break }
                    repeat {
                        let offset = commas.trailingZeroBitCount &>> 3
                        sentence.fieldEnd[fieldCount] = UInt8(truncatingIfNeeded: count &+ offset)
                        fieldCount &+= 1
                        commas &= commas &- 1
                    } while commas != 0
                }
                bodyBytes.storeBytes(of: word.littleEndian, toByteOffset: count, as: UInt64.self)
                wideSum ^= word
                count &+= 8
                index &+= 8
            }
            // Then one byte, which may be any printable body byte.
            guard index < end else { break scanning }
            let byte = input[index]
            if byte &- UInt8(ascii: "-") > UInt8(ascii: "~") - UInt8(ascii: "-") {
                if byte == UInt8(ascii: ",") {
                    guard fieldCount < NMEASentence.maximumFields else { break scanning }
                    sentence.fieldEnd[fieldCount] = UInt8(truncatingIfNeeded: count)
                    fieldCount &+= 1
                } else if byte < 0x20 || byte == UInt8(ascii: "$") || byte == UInt8(ascii: "*") || byte > 0x7E {
                    break scanning
                }
            }
            bodyBytes.storeBytes(of: byte, toByteOffset: count, as: UInt8.self)
            sum ^= byte
            count &+= 1
            index &+= 1
        }
        wideSum ^= wideSum &>> 32
        wideSum ^= wideSum &>> 16
        wideSum ^= wideSum &>> 8
        sentence.count = count
        sentence.fieldCount = fieldCount
        self.sum = sum ^ UInt8(truncatingIfNeeded: wideSum)
        return index
    }

    /// Ends the open sentence at `input[start]` when that byte is `*` and the checksum's two hex
    /// digits and CR or LF follow in `input` (an LF after a CR is taken too); returns the index
    /// after them and the event, or nil, leaving everything to `consume`, when they do not.
    ///
    /// Exactly what `consume` would do byte by byte for those bytes, in one step: this is how
    /// almost every sentence ends, and it spares four or five calls of `slowPath` per line.
    @inline(__always)
    mutating func scanTail(_ input: UnsafeRawBufferPointer, from start: Int) -> (next: Int, event: FrameEvent)? {
        guard input.count &- start >= 4, input[start] == UInt8(ascii: "*"),
              sentence.fieldCount < NMEASentence.maximumFields,
              let high = HexDigit.value(input[start &+ 1]), let low = HexDigit.value(input[start &+ 2])
        else { return nil }
        let end = input[start &+ 3]
        guard end == 0x0D || end == 0x0A else { return nil }
        var next = start &+ 4
        // In the idle state that follows, an LF changes nothing.
        if end == 0x0D && next < input.count && input[next] == 0x0A { next &+= 1 }
        sentence.fieldEnd[sentence.fieldCount] = UInt8(truncatingIfNeeded: sentence.count)
        sentence.fieldCount &+= 1
        found = high << 4 | low
        state = .idle
        guard found == sum else { return (next, .rejected(.badChecksum(expected: sum, found: found))) }
        return (next, classify())
    }

    mutating func slowPath(_ byte: UInt8) -> FrameEvent {
        if byte == UInt8(ascii: "$") {
            // A `$` inside a sentence starts a new one (gpsd's rule). Right after a `$` it cuts
            // nothing short: ST Teseo receivers send `$$GNGSA`, whose sentence is the second.
            let wasInSentence = state != .idle && state != .skipping && !(state == .body && sentence.count == 0)
            begin()
            return wasInSentence ? .rejected(.truncated) : .none
        }
        switch state {
        case .idle, .skipping:
            if byte == 0x0D || byte == 0x0A { state = .idle }
            return .none
        case .body:
            switch byte {
            case UInt8(ascii: ","):
                let event = endField()
                if event != .none { return event }
                return append(byte)
            case UInt8(ascii: "*"):
                let event = endField()
                if event != .none { return event }
                state = .checksumHigh
                return .none
            case 0x0D, 0x0A:
                state = .idle
                return .rejected(.missingChecksum)
            case 0x20..<0x7F:
                return append(byte)
            default:
                state = .skipping
                return .rejected(.invalidByte(byte, offset: sentence.count + 1))
            }
        case .checksumHigh, .checksumLow:
            guard let nibble = HexDigit.value(byte) else {
                state = byte == 0x0D || byte == 0x0A ? .idle : .skipping
                return .rejected(.malformedChecksum)
            }
            found = found << 4 | nibble
            state = state == .checksumHigh ? .checksumLow : .end
            return .none
        case .end:
            guard byte == 0x0D || byte == 0x0A else {
                state = .skipping
                return .rejected(.malformedChecksum)
            }
            state = .idle
            guard found == sum else { return .rejected(.badChecksum(expected: sum, found: found)) }
            return classify()
        }
    }

    mutating func begin() {
        state = .body
        sum = 0
        found = 0
        fieldStart = 0
        sentence.count = 0
        sentence.fieldCount = 0
    }

    mutating func endField() -> FrameEvent {
        let index = sentence.fieldCount
        guard index < NMEASentence.maximumFields else {
            state = .skipping
            return .rejected(.tooManyFields)
        }
        sentence.fieldEnd[index] = UInt8(truncatingIfNeeded: sentence.count)
        sentence.fieldCount = index + 1
        return .none
    }

    mutating func classify() -> FrameEvent {
        let address = sentence.range(of: 0)
        let length = address.count
        func at(_ offset: Int) -> UInt8 { offset < length ? sentence.bytes[offset] : 0 }
        let type = SentenceType.classify(at(0), at(1), at(2), at(3), at(4), length: length)
        sentence.type = type
        sentence.talker = type == .proprietary ? 0 : UInt16(at(0)) << 8 | UInt16(at(1))
        return .sentence
    }
}
