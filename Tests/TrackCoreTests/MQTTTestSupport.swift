import TrackCore

/// Bytes from hex with spaces, e.g. "40 02 00 07".
func hexBytes(_ text: String) -> [UInt8] {
    text.split(separator: " ").map { UInt8($0, radix: 16)! }
}

/// Bytes as spaced upper-case hex, e.g. [0x40, 2] → "40 02".
func hexText(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789ABCDEF")
    return bytes.map { String([digits[Int($0 >> 4)], digits[Int($0 & 0xF)]]) }.joined(separator: " ")
}

/// What a writer appended, or the error it threw.
func writtenPacket(_ write: (inout TextBuffer) throws(MQTTError) -> Void) -> Result<[UInt8], MQTTError> {
    var buffer = TextBuffer()
    do throws(MQTTError) {
        try write(&buffer)
    } catch {
        return .failure(error)
    }
    return .success(buffer.withBytes { Array($0) })
}

/// One packet read, with a copy of its body (what its ranges index).
struct ReadPacket: Equatable {
    var packet: MQTTPacket
    var body: [UInt8]

    /// The bytes of `range` in the body, as a string.
    func text(_ range: Range<Int>?) -> String? {
        range.map { String(decoding: body[$0], as: UTF8.self) }
    }
}

/// Every packet in `bytes`, fed to one reader `chunk` bytes at a time; stops at the first
/// error, which is returned with the packets before it.
func readPackets(_ bytes: [UInt8], chunk: Int = .max) -> (packets: [ReadPacket], error: MQTTError?, inside: Bool) {
    var reader = MQTTReader()
    var packets: [ReadPacket] = []
    var start = 0
    while start < bytes.count {
        let piece = Array(bytes[start..<(start + min(max(chunk, 1), bytes.count - start))])
        start += piece.count
        var offset = 0
        while offset < piece.count {
            do throws(MQTTError) {
                guard let packet = try reader.next(piece.span, at: &offset) else { break }
                packets.append(ReadPacket(packet: packet, body: reader.withBody { Array($0) }))
            } catch {
                return (packets, error, false)
            }
        }
    }
    return (packets, nil, reader.isInsidePacket)
}

extension Array where Element == UInt8 {
    /// The bytes as one span-backed array for `Span` parameters.
    init(_ span: Span<UInt8>) {
        self.init()
        reserveCapacity(span.count)
        for index in span.indices { append(span[index]) }
    }
}
