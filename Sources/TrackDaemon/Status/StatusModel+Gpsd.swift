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
}

extension StatusModel.GpsdFacts {
    /// `gpsd      127.0.0.1:2947, [::1]:2947; 2 clients (1 json, 1 nmea); 5 accepted, …`, or
    /// `off` (and nothing in the JSON).
    static func report(_ facts: Self?, to report: inout StatusReport) {
        report.line("gpsd")
        guard let facts else {
            report.words("off")
            return
        }
        report.object("gpsd")
        report.words { line in
            for (index, address) in facts.addresses.enumerated() {
                if index > 0 { line.append(", ") }
                address.write(to: &line)
            }
        }
        report.member("listen") { line in
            line.append(UInt8(ascii: "["))
            for (index, address) in facts.addresses.enumerated() {
                line.append(index > 0 ? ",\"" : "\"")
                address.write(to: &line)
                line.append(UInt8(ascii: "\""))
            }
            line.append(UInt8(ascii: "]"))
        }
        report.count("clients", facts.connected, "; ", facts.connected == 1 ? " client (" : " clients (")
        report.count("watchingJSON", facts.watchingJSON, "", " json, ")
        report.count("watchingNMEA", facts.watchingSentences, "", " nmea); ")
        report.count("accepted", facts.accepted, "", " accepted, ")
        report.count("refused", facts.refused, "", " refused, ")
        report.count("dropped", facts.dropped, "", " dropped; ")
        report.count("lostObjects", facts.lostObjects, "", " objects lost to slow readers")
        report.count("overlongRequests", facts.overlongRequests, shown: .json)
        report.endObject()
    }
}
