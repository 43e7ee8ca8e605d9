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

    mutating func slowPath(_ byte: UInt8) -> FrameEvent {
        if byte == UInt8(ascii: "$") {
            let wasInSentence = state != .idle && state != .skipping
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
            guard let nibble = hexValue(byte) else {
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

@inline(__always)
func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte &- 48
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte &- 55
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte &- 87
    default: nil
    }
}
