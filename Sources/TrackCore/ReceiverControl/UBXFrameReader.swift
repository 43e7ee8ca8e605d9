/// Why bytes after a `B5` were not a UBX frame; they go back to the NMEA framer unchanged.
public enum UBXFrameError: Equatable, Sendable {
    /// The byte after `B5` was not `62`.
    case notSynchronised
    /// The length field promised more payload than the reader holds (`UBXFrameReader.maximumPayload`).
    case tooLong(Int)
    /// CK_A CK_B did not match the frame.
    case badChecksum
}

/// What one byte did to the reader.
public enum UBXFrameStep: Equatable, Sendable {
    /// The frame goes on.
    case more
    /// A whole frame with a good checksum is in the reader.
    case frame
    /// Not a frame: `collected` holds the bytes taken since the `B5`, to give back.
    case rejected(UBXFrameError)
}

/// A UBX frame reader in a fixed buffer: fed the bytes after a `B5`, it collects `62`, class,
/// id, length, payload and checksum, and says whether they were a frame. Payloads over 512
/// bytes are refused at the length field (trackd's answers are ACKs, 2 bytes, and MON-VER,
/// 40 + 30 per extension), so a false `B5 62` in noise holds back at most 519 bytes.
public struct UBXFrameReader: Sendable {
    /// Largest payload taken, in bytes.
    public static var maximumPayload: Int { 512 }

    enum State: UInt8 { case sync2, header, payload, checksumA, checksumB }

    /// `62`, class, id, length (2), payload, CK_A, CK_B.
    var buffer: InlineArray<519, UInt8>
    /// Bytes collected since the `B5`.
    public private(set) var count = 0
    var state = State.sync2
    var payloadLength = 0
    var sumA: UInt8 = 0
    var sumB: UInt8 = 0

    /// A reader waiting for `begin`.
    public init() { buffer = InlineArray(repeating: 0) }

    /// Starts a frame: the `B5` has just been seen.
    public mutating func begin() {
        count = 0
        state = .sync2
        payloadLength = 0
        sumA = 0
        sumB = 0
    }

    /// Takes the next byte.
    public mutating func consume(_ byte: UInt8) -> UBXFrameStep {
        buffer[count] = byte
        count &+= 1
        switch state {
        case .sync2:
            guard byte == UBXFrame.sync2 else { return .rejected(.notSynchronised) }
            state = .header
        case .header:
            sumA &+= byte
            sumB &+= sumA
            // After 62, class, id, length low, length high.
            guard count == 5 else { return .more }
            payloadLength = Int(buffer[3]) | Int(buffer[4]) << 8
            guard payloadLength <= Self.maximumPayload else { return .rejected(.tooLong(payloadLength)) }
            state = payloadLength == 0 ? .checksumA : .payload
        case .payload:
            sumA &+= byte
            sumB &+= sumA
            if count == 5 + payloadLength { state = .checksumA }
        case .checksumA:
            guard byte == sumA else { return .rejected(.badChecksum) }
            state = .checksumB
        case .checksumB:
            guard byte == sumB else { return .rejected(.badChecksum) }
            return .frame
        }
        return .more
    }

    /// The frame's message id (after `.frame`).
    public var messageID: UBXMessageID { UBXMessageID(buffer[1], buffer[2]) }

    /// The frame's payload length in bytes (after `.frame`).
    public var payloadCount: Int { payloadLength }

    /// Calls `body` with the frame's payload (after `.frame`).
    public func withPayload<R, E: Error>(_ body: (Span<UInt8>) throws(E) -> R) throws(E) -> R {
        try body(buffer.span.extracting(5..<(5 + payloadLength)))
    }

    /// Calls `body` with the bytes collected since the `B5` (after `.rejected`: they belong to
    /// the NMEA stream).
    public func withCollected<R, E: Error>(_ body: (Span<UInt8>) throws(E) -> R) throws(E) -> R {
        try body(buffer.span.extracting(0..<count))
    }
}
