import TrackCore

/// What `trackctl log export` writes, for targets that export what they read.
enum ExportBytes {
    /// The output of `writer` for `records` (every pass, as the command streams it); stops the
    /// run when a line was cut at the end of its buffer. Example: `of([.fix(fix)], CSVWriter())`
    /// → `time_utc,lat,lon,ele_m,speed_mps\n2026-…Z,48.1173,11.5167,,\n`.
    static func of<W: ExportWriter>(_ records: [LogRecord], _ writer: W,
                                    _ options: ExportOptions = ExportOptions()) -> [UInt8] {
        var exporter = TrackExporter(writer, options: options)
        var bytes: [UInt8] = []
        var cut = 0
        func emit(_ line: inout TextBuffer) {
            if line.overflowed { cut += 1 }
            line.withBytes { span in
                for index in span.indices { bytes.append(span[index]) }
            }
        }
        for pass in 0..<exporter.passCount {
            exporter.begin(pass: pass, emit)
            for record in records { exporter.consume(record, emit) }
            exporter.end(pass: pass, emit)
        }
        check(cut == 0, "\(cut) export lines cut at the end of their buffer")
        return bytes
    }
}
