import Testing
import TrackCore

// Traccar's OsmAnd decoder (OsmAndProtocolDecoder.java) reads the URI's query (the body only
// when the query is empty): id, timestamp (epoch seconds below 2^31 − 1, else milliseconds),
// lat, lon, speed in knots, bearing, altitude, accuracy. TrackIOTests (UplinkHTTPTests) sends
// these requests to a real HTTP server on loopback that applies the decoder's rules.

private let time = UTCTime(millisecondsSinceEpoch: 1_750_507_289_000)
private let munich = LogPosition(latitudeE7: 481_173_000, longitudeE7: 115_167_000)

private func request(_ position: OsmAndPosition, id: String = "tracker-7", path: String = "/") -> Result<String, OsmAndError> {
    var buffer = TextBuffer()
    do throws(OsmAndError) {
        try OsmAndRequest.write(position, deviceID: id, host: "127.0.0.1:5055", path: path, to: &buffer)
    } catch {
        return .failure(error)
    }
    return .success(buffer.string)
}

@Suite struct OsmAndRequestTests {
    @Test func fullPosition() {
        let position = OsmAndPosition(time: time, position: munich, speedCentimetresPerSecond: 514, courseCentidegrees: 8_400,
                                      altitudeDecimetres: 5_454, accuracyDecimetres: 32)
        #expect(request(position) == .success(
            "POST /?id=tracker-7&timestamp=1750507289&lat=48.1173000&lon=11.5167000&speed=9.991&bearing=84.00"
                + "&altitude=545.4&accuracy=3.2 HTTP/1.1\r\nHost: 127.0.0.1:5055\r\nContent-Length: 0\r\n\r\n"))
    }

    /// Absent values are left out; batt is never sent; a time between seconds goes in
    /// milliseconds (over 2^31 − 1, which the decoder takes as milliseconds).
    @Test func bareAndFractional() {
        let position = OsmAndPosition(time: UTCTime(millisecondsSinceEpoch: 1_750_507_289_200),
                                      position: LogPosition(latitudeE7: -338_608_333, longitudeE7: 1_512_123_333))
        #expect(request(position, id: "bike 1/ü", path: "/osmand") == .success(
            "POST /osmand?id=bike%201%2F%C3%BC&timestamp=1750507289200&lat=-33.8608333&lon=151.2123333 HTTP/1.1\r\n"
                + "Host: 127.0.0.1:5055\r\nContent-Length: 0\r\n\r\n"))
    }

    @Test(arguments: ["", "osmand", "/a b", "/a?b", "/a#b", "/\u{7F}"])
    func refusesABadPath(_ path: String) {
        #expect(request(OsmAndPosition(time: time, position: munich), path: path) == .failure(.invalidPath))
    }

    @Test func statusMeaning() {
        #expect(OsmAndError.check(status: 200, deviceID: "a") == nil)
        #expect(OsmAndError.check(status: 400, deviceID: "a") == .unknownDevice(deviceID: "a"))
        #expect(OsmAndError.check(status: 404, deviceID: "a") == .status(404))
        #expect(OsmAndError.unknownDevice(deviceID: "bike").description
                == "the server answered 400: no device 'bike' is registered (add it in Traccar with that identifier)")
    }

    @Test func tooLongForTheBuffer() {
        // Each "/" is written as "%2F": a third of the buffer in slashes and the rest cannot fit.
        let id = String(repeating: "/", count: TextBuffer.capacity / 3 + 1)
        #expect(request(OsmAndPosition(time: time, position: munich), id: id) == .failure(.bufferFull))
    }
}

/// Every response in `bytes` fed `chunk` bytes at a time, then the end of the stream.
private func responses(_ text: String, chunk: Int = .max, end: Bool = true) -> (responses: [HTTPResponse], error: HTTPResponseError?) {
    let bytes = Array(text.utf8)
    var reader = HTTPResponseReader()
    var found: [HTTPResponse] = []
    var start = 0
    do throws(HTTPResponseError) {
        while start < bytes.count {
            let piece = Array(bytes[start..<(start + min(chunk, bytes.count - start))])
            start += piece.count
            var offset = 0
            while offset < piece.count {
                guard let response = try reader.next(piece.span, at: &offset) else { break }
                found.append(response)
            }
        }
        if end, let last = try reader.endOfStream() { found.append(last) }
    } catch {
        return (found, error)
    }
    return (found, nil)
}

@Suite struct HTTPResponseReaderTests {
    static let cases: [(String, String, [HTTPResponse])] = [
        ("Traccar's answer (netty)", "HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n",
         [HTTPResponse(status: 200, closesConnection: false, bodyByteCount: 0)]),
        ("unknown device", "HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n",
         [HTTPResponse(status: 400, closesConnection: false, bodyByteCount: 0)]),
        ("a queued command in the body", "HTTP/1.1 200 OK\r\nContent-Length: 12\r\n\r\nsetinterval1",
         [HTTPResponse(status: 200, closesConnection: false, bodyByteCount: 12)]),
        ("two on one connection",
         "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokHTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: Keep-Alive, close\r\n\r\n",
         [HTTPResponse(status: 200, closesConnection: false, bodyByteCount: 2),
          HTTPResponse(status: 200, closesConnection: true, bodyByteCount: 0)]),
        ("HTTP/1.0 closes", "HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n",
         [HTTPResponse(status: 200, closesConnection: true, bodyByteCount: 0)]),
        ("HTTP/1.0 keep-alive", "HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n",
         [HTTPResponse(status: 200, closesConnection: false, bodyByteCount: 0)]),
        ("body to the end (python's http.server)", "HTTP/1.0 404 Not Found\r\nServer: BaseHTTP/0.6\n\nnot here\n",
         [HTTPResponse(status: 404, closesConnection: true, bodyByteCount: 9)]),
        ("100 Continue first", "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n",
         [HTTPResponse(status: 204, closesConnection: false, bodyByteCount: 0)]),
        ("no reason phrase, long header passed over",
         "HTTP/1.1 200\r\nX-Long: " + String(repeating: "a", count: 2_000) + "\r\ncontent-length: 1\r\n\r\n.",
         [HTTPResponse(status: 200, closesConnection: false, bodyByteCount: 1)]),
    ]

    @Test(arguments: cases)
    func reads(_ name: String, _ text: String, _ expected: [HTTPResponse]) {
        for chunk in [1, 3, 17, Int.max] {
            let read = responses(text, chunk: chunk)
            #expect(read.error == nil, "\(name), chunks of \(chunk)")
            #expect(read.responses == expected, "\(name), chunks of \(chunk)")
        }
    }

    static let refusals: [(String, String, HTTPResponseError)] = [
        ("an MQTT broker's bytes", "\u{20}\u{2}\u{0}\u{0}\n", .malformedStatusLine),
        ("HTTP/2", "HTTP/2 200 OK\r\n\r\n", .malformedStatusLine),
        ("two-digit status", "HTTP/1.1 20 OK\r\n\r\n", .malformedStatusLine),
        ("status 099", "HTTP/1.1 099 x\r\n\r\n", .malformedStatusLine),
        ("no space after the status", "HTTP/1.1 200OK\r\n\r\n", .malformedStatusLine),
        ("overlong status line", "HTTP/1.1 200 " + String(repeating: "x", count: 600) + "\r\n\r\n", .statusLineTooLong),
        ("header without colon", "HTTP/1.1 200 OK\r\nContent-Length 0\r\n\r\n", .malformedHeader),
        ("space before the colon", "HTTP/1.1 200 OK\r\nContent-Length : 0\r\n\r\n", .malformedHeader),
        ("letters in the length", "HTTP/1.1 200 OK\r\nContent-Length: 1e3\r\n\r\n", .badContentLength),
        ("two lengths", "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", .badContentLength),
        ("chunked", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", .unsupportedTransferEncoding),
        ("closed in the headers", "HTTP/1.1 200 OK\r\nContent-Le", .endedEarly),
        ("closed in the body", "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nab", .endedEarly),
    ]

    @Test(arguments: refusals)
    func refuses(_ name: String, _ text: String, _ expected: HTTPResponseError) {
        #expect(responses(text).error == expected, "\(name)")
        #expect(responses(text, chunk: 1).error == expected, "\(name), byte by byte")
    }

    /// Seeded random bytes: never traps; statuses are 100…999; a fresh reader reads the next
    /// good response.
    @Test(arguments: [7, 8, 9])
    func soup(_ seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let alphabet = Array("HTTP/1.1 200 OK\r\n:Content-Length: 0123456789 chunked close\r\n\r\n".utf8)
        for _ in 0..<2_000 {
            let bytes = (0..<rng.int(1...120)).map { _ in rng.int(0...3) == 0 ? UInt8(truncatingIfNeeded: rng.next()) : rng.pick(alphabet) }
            let read = responses(String(decoding: bytes, as: UTF8.self), chunk: rng.int(1...20))
            for response in read.responses { #expect((100...999).contains(response.status)) }
        }
        #expect(responses("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n").responses.count == 1)
    }
}
