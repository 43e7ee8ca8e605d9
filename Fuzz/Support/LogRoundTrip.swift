import TrackCore

/// Records through the daemon's log encoder and back through the chunk reader, for targets that
/// check "what was recorded reads back unchanged".
enum LogRoundTrip {
    /// Encodes `records` as the writer does (a chunk sealed every `perChunk` records, a sync, and
    /// whenever full) and reads the chunks back; returns what was read and the first error.
    /// Example: `reencode([.fix(fix)]).records == [.fix(fix)]`.
    static func reencode(_ records: [LogRecord], perChunk: Int = 5) -> (records: [LogRecord], error: LogError?) {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4_096)
        var encoder = LogEncoder(sequence: 0)
        func seal() {
            var span = buffer.mutableSpan
            let length = encoder.sealChunk(&span)
            bytes += buffer[0..<length]
        }
        for record in records {
            if encoder.recordCount >= perChunk { seal() }
            var span = buffer.mutableSpan
            if encoder.append(record, to: &span) == .full {
                seal()
                var again = buffer.mutableSpan
                check(encoder.append(record, to: &again) == .appended, "a record does not fit an empty chunk")
            }
        }
        seal()
        var read: [LogRecord] = []
        var reader = LogChunkReader()
        var offset = 0
        while offset < bytes.count {
            do throws(LogError) {
                let header = try reader.open(bytes.span, at: offset)
                while let record = try reader.next(bytes.span) { read.append(record) }
                offset = header.end
            } catch {
                return (read, error)
            }
        }
        return (read, nil)
    }
}
