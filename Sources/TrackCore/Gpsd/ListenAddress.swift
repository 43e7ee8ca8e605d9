/// A TCP address to listen on, as `[gpsd] listen` writes it: `127.0.0.1:2947` or `[::1]:2947`,
/// an IPv4 dotted quad or an IPv6 address in brackets, then a port 1…65535.
public struct ListenAddress: Equatable, Sendable {
    /// True for IPv6 (16 bytes of `bytes`), false for IPv4 (the first 4).
    public var isIPv6: Bool
    /// The address in network order.
    public var bytes: InlineArray<16, UInt8>
    /// Port 1…65535, e.g. 2947 (gpsd's).
    public var port: UInt16

    public static func == (lhs: ListenAddress, rhs: ListenAddress) -> Bool {
        guard lhs.isIPv6 == rhs.isIPv6, lhs.port == rhs.port else { return false }
        for index in 0..<16 where lhs.bytes[index] != rhs.bytes[index] { return false }
        return true
    }

    /// gpsd's port.
    public static var gpsdPort: UInt16 { 2947 }

    /// Parses `127.0.0.1:2947` or `[::1]:2947`; nil when it is neither.
    public init?(parsing text: String) {
        let bytes = Array(text.utf8)
        guard let colon = bytes.lastIndex(of: UInt8(ascii: ":")), colon + 1 < bytes.count,
              let port = try? DecimalText.unsigned(bytes[(colon + 1)...], maximum: 65_535), port > 0 else { return nil }
        self.port = UInt16(port)
        self.bytes = InlineArray(repeating: 0)
        if bytes.first == UInt8(ascii: "[") {
            guard colon >= 2, bytes[colon - 1] == UInt8(ascii: "]"),
                  let parsed = parseIPv6(bytes[1..<(colon - 1)]) else { return nil }
            isIPv6 = true
            self.bytes = parsed
        } else {
            guard let parsed = parseIPv4(bytes[0..<colon]) else { return nil }
            isIPv6 = false
            for index in 0..<4 { self.bytes[index] = parsed[index] }
        }
    }

    /// True for 127.0.0.0/8 and ::1.
    public var isLoopback: Bool {
        if !isIPv6 { return bytes[0] == 127 }
        for index in 0..<15 where bytes[index] != 0 { return false }
        return bytes[15] == 1
    }

    /// Writes the address as it is parsed, e.g. `127.0.0.1:2947`, `[::1]:2947`.
    public func write(to buffer: inout TextBuffer) {
        if isIPv6 {
            buffer.append(UInt8(ascii: "["))
            writeIPv6(to: &buffer)
            buffer.append(UInt8(ascii: "]"))
        } else {
            for index in 0..<4 {
                if index > 0 { buffer.append(UInt8(ascii: ".")) }
                buffer.append(integer: Int64(bytes[index]))
            }
        }
        buffer.append(UInt8(ascii: ":"))
        buffer.append(integer: Int64(port))
    }

    /// RFC 5952 text: lower-case hex groups, the longest run of two or more zero groups as `::`.
    private func writeIPv6(to buffer: inout TextBuffer) {
        var groups: InlineArray<8, Int> = InlineArray(repeating: 0)
        for index in 0..<8 { groups[index] = Int(bytes[2 * index]) << 8 | Int(bytes[2 * index + 1]) }
        var bestStart = -1, bestLength = 1, runStart = -1
        for index in 0...8 {
            if index < 8 && groups[index] == 0 {
                if runStart < 0 { runStart = index }
            } else if runStart >= 0 {
                if index - runStart > bestLength { bestStart = runStart; bestLength = index - runStart }
                runStart = -1
            }
        }
        var index = 0
        while index < 8 {
            if index == bestStart {
                buffer.append("::")
                index += bestLength
                continue
            }
            if index > 0 && index != bestStart + bestLength { buffer.append(UInt8(ascii: ":")) }
            appendHex(groups[index], to: &buffer)
            index += 1
        }
    }
}

private func appendHex(_ value: Int, to buffer: inout TextBuffer) {
    var started = false
    for shift in stride(from: 12, through: 0, by: -4) {
        let digit = (value >> shift) & 0xF
        if digit == 0 && !started && shift > 0 { continue }
        started = true
        buffer.append(HexDigit.character(UInt8(digit)))
    }
}

private func parseIPv4(_ bytes: ArraySlice<UInt8>) -> InlineArray<4, UInt8>? {
    var result: InlineArray<4, UInt8> = InlineArray(repeating: 0)
    var part = 0
    var start = bytes.startIndex
    for index in bytes.startIndex...bytes.endIndex where index == bytes.endIndex || bytes[index] == UInt8(ascii: ".") {
        // At most three digits a part, as dotted quads are written.
        guard part < 4, index - start <= 3,
              let value = try? DecimalText.unsigned(bytes[start..<index], maximum: 255) else { return nil }
        result[part] = UInt8(value)
        part += 1
        start = index + 1
    }
    return part == 4 ? result : nil
}

/// Hex groups separated by `:`, at most one `::`; no embedded IPv4 or zone (loopback and
/// configured addresses do not need them).
private func parseIPv6(_ bytes: ArraySlice<UInt8>) -> InlineArray<16, UInt8>? {
    var head: [Int] = [], tail: [Int] = []
    var sawGap = false
    var index = bytes.startIndex
    if bytes.starts(with: [UInt8(ascii: ":"), UInt8(ascii: ":")]) { sawGap = true; index += 2 }
    while index < bytes.endIndex {
        let groupStart = index
        while index < bytes.endIndex, bytes[index] != UInt8(ascii: ":") { index += 1 }
        guard index - groupStart <= 4, let group = HexDigit.read(bytes[groupStart..<index]) else { return nil }
        let value = Int(group)
        if sawGap { tail.append(value) } else { head.append(value) }
        guard index < bytes.endIndex else { break }
        index += 1
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: ":") {
            guard !sawGap else { return nil }
            sawGap = true
            index += 1
        } else if index == bytes.endIndex {
            return nil
        }
    }
    let count = head.count + tail.count
    guard sawGap ? count <= 7 : count == 8 else { return nil }
    var groups = head
    if sawGap { groups += [Int](repeating: 0, count: 8 - count) }
    groups += tail
    var result: InlineArray<16, UInt8> = InlineArray(repeating: 0)
    for (position, group) in groups.enumerated() {
        result[2 * position] = UInt8(group >> 8)
        result[2 * position + 1] = UInt8(group & 0xFF)
    }
    return result
}

/// The comma-separated list `[gpsd] listen` holds, e.g. `127.0.0.1:2947, [::1]:2947`; empty is
/// none. nil when an entry is not an address.
public func parseListenAddresses(_ text: String) -> [ListenAddress]? {
    var result: [ListenAddress] = []
    for entry in text.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
        var slice = entry[...]
        while let first = slice.first, first == 32 || first == 9 { slice = slice.dropFirst() }
        while let last = slice.last, last == 32 || last == 9 { slice = slice.dropLast() }
        if slice.isEmpty && text.utf8.allSatisfy({ $0 == 32 || $0 == 9 }) { return [] }
        guard let address = ListenAddress(parsing: String(decoding: slice, as: UTF8.self)) else { return nil }
        result.append(address)
    }
    return result
}
