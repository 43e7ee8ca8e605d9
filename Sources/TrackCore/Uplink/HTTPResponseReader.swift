/// One HTTP response as `HTTPResponseReader` read it, e.g. status 200 with a 0-byte body on a
/// connection that stays open.
public struct HTTPResponse: Equatable, Sendable {
    /// The status code, 100…999, e.g. 200.
    public var status: Int
    /// True when the server closes the connection after it (`Connection: close`, HTTP/1.0
    /// without keep-alive, or a body that ends with the connection): the next request needs a
    /// new one.
    public var closesConnection: Bool
    /// Bytes of body read past (and not kept): a Traccar answer carries a queued command there.
    public var bodyByteCount: Int

    /// A response's facts.
    public init(status: Int, closesConnection: Bool, bodyByteCount: Int) {
        self.status = status
        self.closesConnection = closesConnection
        self.bodyByteCount = bodyByteCount
    }
}

/// Why an HTTP response could not be read, e.g. `.malformedStatusLine` for a server that is not
/// HTTP at all (an MQTT broker's port).
public enum HTTPResponseError: Error, Equatable, Sendable {
    /// The first line is not `HTTP/1.x NNN reason`.
    case malformedStatusLine
    /// The status line is longer than the reader holds (512 bytes).
    case statusLineTooLong
    /// A header line without a `:` or with a space before it.
    case malformedHeader
    /// A Content-Length that is not digits, over 10^9, or given twice with two values.
    case badContentLength
    /// A Transfer-Encoding other than identity (chunked): Traccar's answers have a length.
    case unsupportedTransferEncoding
    /// The connection ended inside a response (or before one, when a request was waiting).
    case endedEarly

    /// A one-line explanation, e.g. "the server's answer is not HTTP (no status line)".
    public var description: String {
        switch self {
        case .malformedStatusLine: "the server's answer is not HTTP (no status line)"
        case .statusLineTooLong: "the server's status line is longer than 512 bytes"
        case .malformedHeader: "the server sent a malformed header line"
        case .badContentLength: "the server sent a bad Content-Length"
        case .unsupportedTransferEncoding: "the server sent a chunked (or other encoded) body, which this client does not read"
        case .endedEarly: "the connection closed before the server's answer was complete"
        }
    }
}

/// Reads HTTP/1.x responses from a byte stream in any pieces, in fixed memory: the status
/// line, the headers it needs (Content-Length, Transfer-Encoding, Connection; other header
/// lines, of any length, are passed over), and the body, which is counted and skipped. 1xx
/// interim responses are skipped. Example:
///
///     var reader = HTTPResponseReader()
///     var offset = 0
///     if let response = try reader.next(received.span, at: &offset) {   // throws(HTTPResponseError)
///         if let error = OsmAndError.check(status: response.status, deviceID: id) { … }
///     }
///     // the connection closed: try reader.endOfStream() ends a body sent without a length
public struct HTTPResponseReader: ~Copyable {
    /// The longest status line it reads: 512 bytes.
    public static var lineCapacity: Int { 512 }

    var line: InlineArray<512, UInt8>
    var lineCount = 0
    var overlong = false
    /// 0: status line; 1: headers; 2: body of known length; 3: body up to the end of the stream.
    var phase: UInt8 = 0
    var status = 0
    var versionMinor = 1
    var contentLength: Int?
    var closes = false
    var keepAlive = false
    var bodyLeft = 0
    var bodyRead = 0

    /// A reader waiting for a status line.
    public init() {
        line = InlineArray(repeating: 0)
    }

    /// Forgets a response begun (a new connection).
    public mutating func reset() {
        lineCount = 0
        overlong = false
        phase = 0
        status = 0
        contentLength = nil
        closes = false
        keepAlive = false
        bodyLeft = 0
        bodyRead = 0
    }

    /// True while part of a response has been read.
    public var isInsideResponse: Bool { phase != 0 || lineCount > 0 || overlong }

    /// Reads from `bytes[offset...]` until a response is whole (returned, `offset` just after
    /// it) or the bytes end (nil, `offset == bytes.count`).
    public mutating func next(_ bytes: Span<UInt8>, at offset: inout Int) throws(HTTPResponseError) -> HTTPResponse? {
        while offset < bytes.count {
            if phase >= 2 {
                let take = phase == 2 ? min(bodyLeft, bytes.count - offset) : bytes.count - offset
                offset += take
                bodyRead += take
                if phase == 2 {
                    bodyLeft -= take
                    if bodyLeft == 0 { return complete() }
                }
                continue
            }
            let byte = bytes[offset]
            offset += 1
            guard byte == 0x0A else {
                if lineCount < Self.lineCapacity {
                    line[lineCount] = byte
                    lineCount += 1
                } else {
                    overlong = true
                }
                continue
            }
            if lineCount > 0, line[lineCount - 1] == 0x0D { lineCount -= 1 }
            let wasOverlong = overlong
            let count = lineCount
            lineCount = 0
            overlong = false
            if phase == 0 {
                guard !wasOverlong else { throw .statusLineTooLong }
                try readStatusLine(count)
            } else if count == 0 {
                if let response = try headersEnded() { return response }
            } else if !wasOverlong {
                try readHeader(count)
            }
        }
        return nil
    }

    /// The connection ended: a body that runs to the end of the stream is complete (its
    /// response is returned); inside any other part of a response, `.endedEarly`; between
    /// responses, nil.
    public mutating func endOfStream() throws(HTTPResponseError) -> HTTPResponse? {
        if phase == 3 {
            closes = true
            return complete()
        }
        guard !isInsideResponse else {
            reset()
            throw .endedEarly
        }
        return nil
    }

    private mutating func readStatusLine(_ count: Int) throws(HTTPResponseError) {
        let text = line.span.extracting(0..<count)
        // "HTTP/1.1 200 OK": the version, a space, three digits, then a space or the end.
        let prefix: StaticString = "HTTP/1."
        guard count >= 12 else { throw .malformedStatusLine }
        for index in 0..<7 where text[index] != prefix.utf8Start[index] { throw .malformedStatusLine }
        let minor = text[7] &- UInt8(ascii: "0")
        guard minor <= 9, text[8] == UInt8(ascii: " ") else { throw .malformedStatusLine }
        var code = 0
        for index in 9..<12 {
            let digit = text[index] &- UInt8(ascii: "0")
            guard digit <= 9 else { throw .malformedStatusLine }
            code = code * 10 + Int(digit)
        }
        guard code >= 100, count == 12 || text[12] == UInt8(ascii: " ") else { throw .malformedStatusLine }
        status = code
        versionMinor = Int(minor)
        contentLength = nil
        closes = false
        keepAlive = false
        phase = 1
    }

    private mutating func readHeader(_ count: Int) throws(HTTPResponseError) {
        let text = line.span.extracting(0..<count)
        var colon = 0
        while colon < count, text[colon] != UInt8(ascii: ":") {
            // A header name is a token: no spaces or tabs before the colon (RFC 9112 §5.1).
            guard text[colon] != UInt8(ascii: " "), text[colon] != 0x09 else { throw .malformedHeader }
            colon += 1
        }
        guard colon > 0, colon < count else { throw .malformedHeader }
        var start = colon + 1
        var end = count
        while start < end, text[start] == UInt8(ascii: " ") || text[start] == 0x09 { start += 1 }
        while end > start, text[end - 1] == UInt8(ascii: " ") || text[end - 1] == 0x09 { end -= 1 }
        if Self.equalsIgnoringCase(text, 0..<colon, "content-length") {
            guard end > start, end - start <= 10 else { throw .badContentLength }
            var value = 0
            for index in start..<end {
                let digit = text[index] &- UInt8(ascii: "0")
                guard digit <= 9 else { throw .badContentLength }
                value = value * 10 + Int(digit)
            }
            guard value <= 1_000_000_000, contentLength == nil || contentLength == value else { throw .badContentLength }
            contentLength = value
        } else if Self.equalsIgnoringCase(text, 0..<colon, "transfer-encoding") {
            guard Self.equalsIgnoringCase(text, start..<end, "identity") else { throw .unsupportedTransferEncoding }
        } else if Self.equalsIgnoringCase(text, 0..<colon, "connection") {
            if Self.containsToken(text, start..<end, "close") { closes = true }
            if Self.containsToken(text, start..<end, "keep-alive") { keepAlive = true }
        }
    }

    private mutating func headersEnded() throws(HTTPResponseError) -> HTTPResponse? {
        // An interim response (100 Continue …) is followed by the real one.
        if status < 200 {
            phase = 0
            return nil
        }
        if versionMinor == 0 && !keepAlive { closes = true }
        bodyRead = 0
        if status == 204 || status == 304 {
            return complete()
        }
        if let length = contentLength {
            guard length > 0 else { return complete() }
            bodyLeft = length
            phase = 2
        } else {
            // No length: the body ends with the connection.
            phase = 3
        }
        return nil
    }

    private mutating func complete() -> HTTPResponse {
        let response = HTTPResponse(status: status, closesConnection: closes, bodyByteCount: bodyRead)
        reset()
        return response
    }

    /// True when `text[range]` is `word` in any letter case (`word` is lower-case ASCII).
    static func equalsIgnoringCase(_ text: Span<UInt8>, _ range: Range<Int>, _ word: StaticString) -> Bool {
        guard range.count == word.utf8CodeUnitCount else { return false }
        for index in 0..<range.count {
            var byte = text[range.lowerBound + index]
            if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") { byte += 32 }
            guard byte == word.utf8Start[index] else { return false }
        }
        return true
    }

    /// True when the comma-separated list `text[range]` holds `word` (any case).
    static func containsToken(_ text: Span<UInt8>, _ range: Range<Int>, _ word: StaticString) -> Bool {
        var start = range.lowerBound
        while start < range.upperBound {
            var end = start
            while end < range.upperBound, text[end] != UInt8(ascii: ",") { end += 1 }
            var low = start, high = end
            while low < high, text[low] == UInt8(ascii: " ") || text[low] == 0x09 { low += 1 }
            while high > low, text[high - 1] == UInt8(ascii: " ") || text[high - 1] == 0x09 { high -= 1 }
            if equalsIgnoringCase(text, low..<high, word) { return true }
            start = end + 1
        }
        return false
    }
}
