import TrackCore
import TrackIO

/// `trackctl log export [--format gpx|geojson|kml|csv] [--log DIR] [--since T] [--until T]
/// [--simplify METRES] [--datum wgs84|gcj02|bd09] [--points]`: the log as a file on standard output, what
/// was left out and any damage on standard error. Exit 0 when the export was written (damaged
/// chunks are skipped and named), 1 when the log cannot be read or the output fails, 2 for bad
/// arguments.
enum LogExport {
    static let usage: StaticString = """
        usage: trackctl log export [--format gpx|geojson|kml|csv] [--log DIR]
                                   [--since TIME] [--until TIME] [--simplify METRES]
                                   [--datum wgs84|gcj02|bd09] [--points]

        Writes the track log to standard output, e.g.
            ssh tracker trackctl log export --format gpx > trip.gpx

          --format     gpx (default), geojson, kml or csv (time_utc,lat,lon,ele_m,speed_mps)
          --log        the log directory (default /var/lib/trackd/log)
          --since      leave out records before TIME (ISO 8601, e.g. 2026-11-30T12:00:00Z or 2026-11-30)
          --until      leave out records at or after TIME
          --simplify   drop fixes within METRES of the simplified line (Douglas-Peucker)
          --datum      gcj02 or bd09 for Chinese maps (identity outside China)
          --points     GeoJSON: a Point feature with its time per fix, not a LineString per
                       segment (whose times are in properties.coordTimes)
          --trip N     only trip N of trackctl log trips, its track named "Tübingen → Stuttgart"
          --places     the gazetteer naming tracks, waypoints and fence events (default
                       $TRACKD_PLACES, else /usr/share/trackd/places.bin when installed)
          --fences     the fences file whose ids name fence events (default the configuration's)

        """

    static func run(_ arguments: [String]) -> Int32 {
        if arguments.contains("-h") || arguments.contains("--help") {
            try? FileDescriptor.standardOutput.writeAll(usage)
            return 0
        }
        var parsed: LogExportArguments
        do {
            parsed = try LogExportArguments(arguments)
        } catch {
            try? FileDescriptor.standardError.writeAll("trackctl log export: " + error.description + "\n")
            try? FileDescriptor.standardError.writeAll(usage)
            return 2
        }
        guard parsed.naming.apply(to: &parsed) else { return 1 }
        switch parsed.format {
        case .gpx: return export(GPXWriter(), parsed)
        case .geojson: return export(GeoJSONWriter(points: parsed.points), parsed)
        case .kml: return export(KMLWriter(), parsed)
        case .csv: return export(CSVWriter(), parsed)
        }
    }

    /// Streams the log through `writer` to standard output, what was left out and any damage
    /// on standard error.
    static func export<W: ExportWriter>(_ writer: W, _ arguments: LogExportArguments) -> Int32 {
        switch stream(writer, options: arguments.options, directory: arguments.directory, to: .standardOutput,
                      showsProgress: true) {
        case .failure(let failure):
            try? FileDescriptor.standardError.writeAll("trackctl log export: " + failure.description + "\n")
            return 1
        case .success(let streamed):
            for problem in streamed.problems {
                try? FileDescriptor.standardError.writeAll("trackctl log export: " + problem.description + "\n")
            }
            try? FileDescriptor.standardError.writeAll("trackctl log export: "
                + summary(streamed.counts, problems: streamed.problems.count) + "\n")
            return 0
        }
    }

    /// What a stream wrote and what it found damaged.
    struct Streamed {
        var counts: ExportCounts
        var problems: [LogProblem]
    }

    /// Why a stream stopped: the log cannot be listed, or the output failed.
    enum StreamFailure: Error {
        case log(LogStoreError)
        case output(Errno)

        var description: String {
            switch self {
            case .log(let error): return error.description
            case .output(let error): return "output: " + error.message
            }
        }
    }

    /// Streams the records of `directory` through `writer` into `output`, one pass per
    /// `TrackExporter.passCount`, leaving out the first `skipping` records of each pass (what an
    /// earlier pull exported already), e.g. `skipping: 1200` on a 1,500-record copy writes the
    /// last 300. `showsProgress`: the segment and records read so far on a terminal's standard
    /// error (ProgressLines), e.g. `log export: segment 3 of 40, 12,288 records`.
    static func stream<W: ExportWriter>(
        _ writer: W, options: ExportOptions, directory: String, skipping: Int = 0, to descriptor: FileDescriptor,
        showsProgress: Bool = false
    ) -> Result<Streamed, StreamFailure> {
        var progress = ProgressLines(shown: showsProgress ? nil : false)
        defer { progress.clear() }
        var exporter = TrackExporter(writer, options: options)
        var output = BufferedOutput(descriptor)
        var failure: Errno?
        func emit(_ line: inout TextBuffer) {
            guard failure == nil else { return }
            do throws(Errno) {
                try line.withBytes { (bytes) throws(Errno) in try output.write(bytes) }
            } catch {
                failure = error
            }
        }
        var problems: [LogProblem] = []
        for pass in 0..<exporter.passCount {
            var reader: LogReader<PosixLogFiles>
            do throws(LogStoreError) {
                reader = try LogReader(directory: directory)
            } catch {
                return .failure(.log(error))
            }
            exporter.begin(pass: pass, emit)
            var seen = 0
            while failure == nil, let record = reader.next() {
                seen += 1
                if seen > skipping { exporter.consume(record, emit) }
                // The clock once per 256 records, the text only when a redraw is due.
                if seen & 255 == 0, progress.isDue() {
                    let segments = reader.segmentNumbers.count
                    progress.show("log export: segment " + String(min(reader.segments.count + 1, segments)) + " of "
                        + String(segments) + (exporter.passCount > 1 ? " (pass " + String(pass + 1) + " of "
                        + String(exporter.passCount) + ")" : "") + ", " + ProgressLines.grouped(seen) + " records")
                }
            }
            exporter.end(pass: pass, emit)
            problems = reader.problems
        }
        if failure == nil {
            do throws(Errno) { try output.flush() } catch { failure = error }
        }
        if let failure { return .failure(.output(failure)) }
        return .success(Streamed(counts: exporter.counts, problems: problems))
    }

    /// E.g. `3453 fixes in 2 segments, 1 place; 3101 fixes simplified away, 12 records outside the time window; 0 problems`.
    static func summary(_ counts: ExportCounts, problems: Int) -> String {
        var line = String(counts.fixes) + " fixes in " + String(counts.segments) + " segments, "
            + String(counts.places) + " places"
        if counts.simplified > 0 { line += "; " + String(counts.simplified) + " fixes simplified away" }
        if counts.outsideWindow > 0 { line += "; " + String(counts.outsideWindow) + " records outside the time window" }
        return line + "; " + String(problems) + " log problems"
    }
}
