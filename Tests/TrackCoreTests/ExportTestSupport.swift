import Testing
import TrackCore

/// Runs `records` through a `TrackExporter` with `writer` as trackctl does (every pass over the
/// same records) and returns the text and the counts.
func exportText<W: ExportWriter>(_ records: [LogRecord], _ writer: W, _ options: ExportOptions = ExportOptions())
    -> (text: String, counts: ExportCounts) {
    var exporter = TrackExporter(writer, options: options)
    var bytes: [UInt8] = []
    func emit(_ line: inout TextBuffer) {
        let overflowed = line.overflowed
        #expect(!overflowed, "one piece of export text overflowed its buffer")
        line.withBytes { span in
            for index in span.indices { bytes.append(span[index]) }
        }
    }
    for pass in 0..<exporter.passCount {
        exporter.begin(pass: pass, emit)
        for record in records { exporter.consume(record, emit) }
        exporter.end(pass: pass, emit)
    }
    return (String(decoding: bytes, as: UTF8.self), exporter.counts)
}

/// The same in any format.
func exportText(_ records: [LogRecord], format: ExportFormat, _ options: ExportOptions = ExportOptions())
    -> (text: String, counts: ExportCounts) {
    switch format {
    case .gpx: exportText(records, GPXWriter(), options)
    case .geojson: exportText(records, GeoJSONWriter(), options)
    case .kml: exportText(records, KMLWriter(), options)
    case .csv: exportText(records, CSVWriter(), options)
    }
}

extension SharedTracks {
    /// Every shared track as log fixes (the log's precision: 1e-7°, dm, cm/s), by name.
    static func logTracks() throws -> [(name: String, fixes: [LogFix])] {
        try load().map { track in
            (track.name, track.fixes.compactMap { fix -> LogFix? in
                guard let time = fix.time, let position = fix.position else { return nil }
                return LogFix(time: time, position: LogPosition(position),
                              altitudeDecimetres: fix.altitudeMSLMillimetres.map { Int32(($0 + ($0 < 0 ? -50 : 50)) / 100) },
                              speedCentimetresPerSecond: fix.speedMillimetresPerSecond.map { Int32(($0 + 5) / 10) },
                              mode: fix.mode)
            })
        }
    }
}

/// The distance in metres from `point` to the geodesic segment `start`–`end` on WGS-84, by
/// TrackCore's geodesic solver (checked against a dense search in GeodesicSegmentTests).
func geodesicDistance(from point: LogPosition, toSegment start: LogPosition, _ end: LogPosition) -> Double {
    Geodesic.distance(from: point.coordinate, toSegmentFrom: start.coordinate, to: end.coordinate)
}
