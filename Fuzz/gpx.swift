// Fuzz target `gpx`: a GPX file as `trackctl log import FILE.gpx` and `trackctl simulate
// FILE.gpx` read it — `GPXTrack(parsing:)`, the import's conversion to log records
// (`LogImport.records`), and the simulator's NMEA for its first 120 epochs.
// Checks beyond "no crash":
// * an error names a line that exists; points keep file order and lie on the globe;
// * imported records read back unchanged from the log codec;
// * imported records exported as GPX import again to the same records;
// * every sentence the simulator writes passes the receiver's checks.
import TrackCore
@testable import TrackctlCommands

func fuzzTarget(_ input: [UInt8]) {
    let lineCount = input.count(where: { $0 == 0x0A }) + 1
    let track: GPXTrack
    do {
        track = try GPXTrack(parsing: input)
    } catch {
        check(error.line >= 1 && error.line <= lineCount, "error at line \(error.line) of \(lineCount)")
        check(startsWithBytes(error.description, "line \(error.line): "), "error text \(error.description)")
        return
    }
    var previousLine = 0
    for point in track.points {
        check(point.line >= previousLine && point.line <= lineCount, "point at line \(point.line)")
        previousLine = point.line
        check(abs(point.position.latitudeNanodegrees) <= 90_000_000_000, "latitude out of range")
        check(abs(point.position.longitudeNanodegrees) <= 180_000_000_000, "longitude out of range")
    }

    switch LogImport.records(input, file: "route.gpx") {
    case .failure(let message):
        check(startsWithBytes(message.text, "route.gpx:"), "import error without the file: \(message.text)")
    case .success(let records):
        check(records.count == track.points.count, "\(records.count) records from \(track.points.count) points")
        let readBack = LogRoundTrip.reencode(records)
        check(readBack.error == nil, "imported records did not read back: \(String(describing: readBack.error))")
        check(readBack.records == records, "imported records read back differently")
        let exported = ExportBytes.of(records, GPXWriter())
        switch LogImport.records(exported, file: "export.gpx") {
        case .failure(let message): check(false, "an exported GPX does not import: \(message.text)")
        case .success(let again): check(again == records, "an exported GPX imports to other records")
        }
    }

    // The simulator's options (`trackctl simulate --noise --rate --speed --cold-start --loop`),
    // chosen by the input's length so that each input always runs the same way.
    let configurations = [
        NMEASimulator.Configuration(),
        NMEASimulator.Configuration(noiseMetres: 5),
        NMEASimulator.Configuration(speedFactor: 60, rateHertz: 10, coldStartSeconds: 5, loops: true),
        NMEASimulator.Configuration(speedFactor: 0.5, rateHertz: 5, noiseMetres: 50, seed: 7),
    ]
    guard var simulator = try? NMEASimulator(track: track, configuration: configurations[input.count % 4]) else { return }
    var receiver = NMEAReceiver()
    for _ in 0..<120 {
        var buffer = TextBuffer()
        guard simulator.writeEpoch(to: &buffer) else { break }
        check(!buffer.overflowed, "an epoch overflows the simulator's buffer")
        var epoch: [UInt8] = []
        buffer.withBytes { span in
            for index in span.indices { epoch.append(span[index]) }
        }
        epoch.withUnsafeBytes { receiver.consume($0) { _ in } }
    }
    let counters = receiver.counters
    let rejected = counters.badChecksum + counters.overlong + counters.outOfRange + counters.malformed
    check(rejected == 0, "the receiver rejected \(rejected) simulated sentences: \(String(describing: receiver.lastError))")
}
