import CLinux
import Foundation
import Testing
import TestData
import TrackCore
@testable import TrackIO

// Our OsmAnd requests (TrackCore's OsmAndRequest over TrackIO's TCPConnection, answers read by
// HTTPResponseReader) against a real HTTP server on loopback standing in for Traccar's port
// 5055: python3's http.server, keep-alive, applying the acceptance rules of Traccar's
// OsmAndProtocolDecoder.java, written down here from its source:
//
// * the parameters are the URI's query; only when it has none, the body's (form-encoded);
// * `id` or `deviceid` names the device; an unknown one is answered 400 at once, and a request
//   with no device is answered 400 at the end;
// * `timestamp`: an integer below 2^31 − 1 is epoch seconds, a larger one milliseconds; else an
//   ISO time with a `T`, else `yyyy-MM-dd HH:mm:ss`; no timestamp: the server's time;
// * `lat`, `lon`, `speed` (knots), `bearing` or `heading`, `altitude`, `accuracy`, `hdop`, `batt`
//   are Java doubles: one that does not parse makes the decoder throw, and no answer is sent
//   (the server here closes the connection);
// * any other parameter is kept as an attribute (number, boolean or string);
// * a known device gets 200, and the position is stored.

private let serverScript = #"""
import json, sys, time, urllib.parse
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler, HTTPServer

KNOWN = {"tracker-7"}
DOUBLES = {"lat", "lon", "speed", "bearing", "heading", "altitude", "accuracy", "hdop", "batt"}
store = open(sys.argv[1], "a", buffering=1)

class OsmAnd(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, status):
        self.send_response(status)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def decode(self):
        query = urllib.parse.urlsplit(self.path).query
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length).decode("ascii") if length else ""
        params = urllib.parse.parse_qsl(query or body, keep_blank_values=True)
        position = {"attributes": {}}
        for key, value in params:
            if key in ("id", "deviceid"):
                if value not in KNOWN:
                    return self.answer(400)
                position["device"] = value
            elif key == "timestamp":
                try:
                    stamp = int(value)
                    position["time"] = stamp * 1000 if stamp < 2**31 - 1 else stamp
                except ValueError:
                    if "T" in value:
                        position["time"] = int(datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp() * 1000)
                    else:
                        moment = datetime.strptime(value, "%Y-%m-%d %H:%M:%S").replace(tzinfo=timezone.utc)
                        position["time"] = int(moment.timestamp() * 1000)
            elif key in DOUBLES:
                position["course" if key in ("bearing", "heading") else key] = float(value)
            else:
                position["attributes"][key] = value
        if "device" not in position:
            return self.answer(400)
        position.setdefault("time", int(time.time() * 1000))
        store.write(json.dumps(position) + "\n")
        self.answer(200)

    def handle_one_request(self):
        try:
            super().handle_one_request()
        except ValueError:
            # The decoder threw: no answer, the connection goes.
            self.close_connection = True

    def do_GET(self):
        self.decode()

    do_POST = do_GET

server = HTTPServer(("127.0.0.1", 0), OsmAnd)
print(server.server_address[1], flush=True)
server.serve_forever()
"""#

/// The stand-in server, its port and the file of positions it stored.
final class LoopbackOsmAndServer {
    let folder: TemporaryFolder
    let process = Process()
    let port: UInt16

    init() throws {
        folder = try TemporaryFolder()
        try serverScript.write(toFile: folder.file("osmand.py"), atomically: true, encoding: .utf8)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [folder.file("osmand.py"), folder.file("positions.jsonl")]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while !line.contains(10) {
            let piece = output.fileHandleForReading.availableData
            if piece.isEmpty { break }
            line += piece
        }
        port = try #require(UInt16(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    /// The positions stored, in order.
    func positions() throws -> [[String: Any]] {
        let text = (try? String(contentsOfFile: folder.file("positions.jsonl"), encoding: .utf8)) ?? ""
        return try text.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        folder.remove()
    }
}

/// Sends one request and reads its answer.
private func exchange(_ client: borrowing BlockingClient, _ request: [UInt8]) throws -> HTTPResponse? {
    try client.send(request)
    var reader = HTTPResponseReader()
    while true {
        let bytes = try client.receive()
        if bytes.isEmpty { return try reader.endOfStream() }
        var offset = 0
        if let response = try reader.next(bytes.span, at: &offset) { return response }
    }
}

private func request(_ position: OsmAndPosition, id: String, port: UInt16) throws -> [UInt8] {
    var buffer = TextBuffer()
    try OsmAndRequest.write(position, deviceID: id, host: "127.0.0.1:\(port)", to: &buffer)
    return buffer.bytes()
}

@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "needs python3"), .serialized)
struct UplinkHTTPTests {
    /// A log's fixes, sent one after the other on one keep-alive connection: each answered
    /// 200, each stored as sent (knots, degrees, metres).
    @Test func traccarStoresEveryPositionAsSent() throws {
        let server = try LoopbackOsmAndServer()
        defer { server.stop() }
        let log = try TemporaryFolder()
        defer { log.remove() }
        var records = SyntheticLog.walk(25).map { record -> LogRecord in
            guard case .fix(var fix) = record else { return record }
            fix.courseCentidegrees = Int32((fix.time.millisecondsSinceEpoch / 1000) % 360) * 100
            fix.accuracyDecimetres = 32
            return .fix(fix)
        }
        records.insert(.waypoint(time: UTCTime(millisecondsSinceEpoch: LogTestRecords.t0), position: LogPosition(latitudeE7: 1, longitudeE7: 2),
                                 label: LogLabel()), at: 3)
        var writer = try LogWriter(settings: LogWriterSettings(directory: log.file("log")), files: PosixLogFiles(), now: .at(0))
        for record in records { writer.append(record, now: .at(0)) }
        writer.close(now: .at(1_000))

        var reader = try UplinkLogReader(directory: log.file("log"), from: .start)
        var mapper = UplinkMapper(accuracyLimitDecimetres: 650)
        var sent: [OsmAndPosition] = []
        let client = try BlockingClient("127.0.0.1:\(server.port)")
        while let entry = try reader.next(durableEnd: nil) {
            guard case .send(let position) = mapper.osmAnd(entry.record, disclosure: .precise) else { continue }
            let response = try #require(try exchange(client, try request(position, id: "tracker-7", port: server.port)))
            #expect(response.status == 200 && !response.closesConnection)
            #expect(OsmAndError.check(status: response.status, deviceID: "tracker-7") == nil)
            sent.append(position)
        }
        #expect(sent.count == 25, "fixes only: the waypoint is not a position for Traccar")
        let stored = try server.positions()
        #expect(stored.count == sent.count)
        for (position, row) in zip(sent, stored) {
            #expect(row["device"] as? String == "tracker-7")
            #expect(row["time"] as? Int64 == position.time.millisecondsSinceEpoch)
            #expect(abs((row["lat"] as? Double ?? 0) - Double(position.position.latitudeE7) / 1e7) < 1e-9)
            #expect(abs((row["lon"] as? Double ?? 0) - Double(position.position.longitudeE7) / 1e7) < 1e-9)
            let knots = Double(position.speedCentimetresPerSecond ?? 0) / 100 / (1_852.0 / 3_600)
            #expect(abs((row["speed"] as? Double ?? -1) - knots) < 0.001, "speed in knots")
            #expect(row["course"] as? Double == Double(position.courseCentidegrees ?? -1) / 100)
            #expect(row["altitude"] as? Double == Double(position.altitudeDecimetres ?? -1) / 10)
            #expect(row["accuracy"] as? Double == 3.2)
            #expect(row["batt"] == nil)
            #expect((row["attributes"] as? [String: Any])?.isEmpty == true)
        }
    }

    /// An unknown device is answered 400, which the uplink says in words; the connection stays.
    @Test func anUnknownDeviceIsAClearError() throws {
        let server = try LoopbackOsmAndServer()
        defer { server.stop() }
        let client = try BlockingClient("127.0.0.1:\(server.port)")
        let position = OsmAndPosition(time: UTCTime(millisecondsSinceEpoch: 1_750_507_289_200),
                                      position: LogPosition(latitudeE7: 481_173_000, longitudeE7: 115_167_000))
        let response = try #require(try exchange(client, try request(position, id: "bike 9", port: server.port)))
        #expect(response.status == 400)
        let error = try #require(OsmAndError.check(status: response.status, deviceID: "bike 9"))
        #expect(error.description.contains("no device 'bike 9' is registered"))
        // The same connection takes the next request; a time between seconds goes in milliseconds.
        let accepted = try #require(try exchange(client, try request(position, id: "tracker-7", port: server.port)))
        #expect(accepted.status == 200)
        #expect(try server.positions().first?["time"] as? Int64 == 1_750_507_289_200)
    }
}
