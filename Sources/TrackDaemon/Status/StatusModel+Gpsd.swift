import TrackCore
import TrackIO

/// gpsd's clients in `trackctl status` and `status --json`.
extension StatusModel {
    /// The gpsd service: where it listens and what its clients did.
    struct GpsdFacts {
        var addresses: [ListenAddress]
        var connected: Int
        /// Clients watching TPV/SKY, and watching the raw sentences.
        var watchingJSON: Int
        var watchingSentences: Int
        var accepted: Int
        var refused: Int
        var dropped: Int
        var lostObjects: Int
        var overlongRequests: Int
    }

    /// `gpsd      127.0.0.1:2947, [::1]:2947; 2 clients (1 json, 1 nmea); 5 accepted, …`
    func writeGpsdText(to reply: inout ReplyBuffer) {
        var line = TextBuffer()
        line.append("gpsd      ")
        guard let gpsd else {
            line.append("off")
            emit(&line, &reply)
            return
        }
        for (index, address) in gpsd.addresses.enumerated() {
            if index > 0 { line.append(", ") }
            address.write(to: &line)
        }
        line.append("; ")
        line.append(integer: Int64(gpsd.connected))
        line.append(gpsd.connected == 1 ? " client (" : " clients (")
        line.append(integer: Int64(gpsd.watchingJSON))
        line.append(" json, ")
        line.append(integer: Int64(gpsd.watchingSentences))
        line.append(" nmea); ")
        line.append(integer: Int64(gpsd.accepted))
        line.append(" accepted, ")
        line.append(integer: Int64(gpsd.refused))
        line.append(" refused, ")
        line.append(integer: Int64(gpsd.dropped))
        line.append(" dropped; ")
        line.append(integer: Int64(gpsd.lostObjects))
        line.append(" objects lost to slow readers")
        emit(&line, &reply)
    }

    /// `,"gpsd":{"listen":["127.0.0.1:2947"],"clients":2,…}`, or nothing when off.
    func writeGpsdJSON(to line: inout TextBuffer) {
        guard let gpsd else { return }
        line.append(",\"gpsd\":{\"listen\":[")
        for (index, address) in gpsd.addresses.enumerated() {
            line.append(index > 0 ? ",\"" : "\"")
            address.write(to: &line)
            line.append("\"")
        }
        line.append("],\"clients\":")
        line.append(integer: Int64(gpsd.connected))
        line.append(",\"watchingJSON\":")
        line.append(integer: Int64(gpsd.watchingJSON))
        line.append(",\"watchingNMEA\":")
        line.append(integer: Int64(gpsd.watchingSentences))
        line.append(",\"accepted\":")
        line.append(integer: Int64(gpsd.accepted))
        line.append(",\"refused\":")
        line.append(integer: Int64(gpsd.refused))
        line.append(",\"dropped\":")
        line.append(integer: Int64(gpsd.dropped))
        line.append(",\"lostObjects\":")
        line.append(integer: Int64(gpsd.lostObjects))
        line.append(",\"overlongRequests\":")
        line.append(integer: Int64(gpsd.overlongRequests))
        line.append("}")
    }
}
