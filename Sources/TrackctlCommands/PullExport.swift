import TrackCore
import TrackIO

/// `trackctl pull --export FORMAT`: what one pull brought, written as one file beside the copy,
/// `DIR/HOST/exports/FROM-TO.FORMAT` (the first and last record times of the pull, UTC, e.g.
/// `exports/20250621T120129Z-20250621T122128Z.gpx`), so successive pulls never overwrite each
/// other. The copy is read from its start (records decode against what precedes them) and the
/// records before this pull's are left out. Written to a temporary file, synced, then renamed.
enum PullExport {
    /// The exports folder of the copy `directory`.
    static func folder(_ directory: String) -> String { LogSegmentName.path(directory, "exports") }

    /// Writes the records `transfer` brought into `directory` as `format`; the path written,
    /// nil when the pull brought no records.
    static func write(_ format: ExportFormat, copy directory: String, transfer: LogTransfer) -> Result<String?, PullError> {
        let summary = transfer.summary
        guard summary.recordCount > 0 else { return .success(nil) }
        var total = 0
        do throws(LogStoreError) {
            var reader = try LogReader(directory: directory)
            while reader.next() != nil { total += 1 }
        } catch {
            return .failure(.export(path: directory, message: error.description))
        }
        let skipping = max(total - summary.recordCount, 0)
        var files = PosixLogFiles()
        let exports = folder(directory)
        do throws(Errno) { try files.makeDirectory(exports) } catch { return .failure(.local(path: exports, error)) }
        let stem = LogSegmentName.path(exports, compact(summary.firstTime) + "-" + compact(summary.lastTime))
        var path = stem + "." + format.rawValue
        var suffix = 2
        while FileDescriptor.exists(path) {
            path = stem + "-" + String(suffix) + "." + format.rawValue
            suffix += 1
        }
        let temporary = path + ".tmp"
        var storage = PosixStateFileStorage()
        let handle: FileDescriptor
        do throws(Errno) { handle = try storage.create(temporary) } catch { return .failure(.local(path: temporary, error)) }
        let streamed: Result<LogExport.Streamed, LogExport.StreamFailure>
        switch format {
        case .gpx: streamed = LogExport.stream(GPXWriter(), options: ExportOptions(), directory: directory, skipping: skipping, to: handle)
        case .geojson: streamed = LogExport.stream(GeoJSONWriter(), options: ExportOptions(), directory: directory, skipping: skipping, to: handle)
        case .kml: streamed = LogExport.stream(KMLWriter(), options: ExportOptions(), directory: directory, skipping: skipping, to: handle)
        case .csv: streamed = LogExport.stream(CSVWriter(), options: ExportOptions(), directory: directory, skipping: skipping, to: handle)
        }
        if case .failure(let failure) = streamed {
            try? storage.close(handle)
            return .failure(.export(path: temporary, message: failure.description))
        }
        do throws(Errno) {
            try storage.sync(handle)
            try storage.close(handle)
            try storage.rename(temporary, to: path)
            try storage.syncDirectory(exports)
        } catch {
            return .failure(.local(path: path, error))
        }
        return .success(path)
    }

    /// "20250621T120129Z" for 2025-06-21T12:01:29.000Z: no ':' (not allowed in names on
    /// every file system a copy may land on), no fraction.
    static func compact(_ time: UTCTime?) -> String {
        var bytes: [UInt8] = []
        for byte in LogCommand.time(time).utf8 {
            if byte == UInt8(ascii: ".") { break }
            if byte != UInt8(ascii: "-"), byte != UInt8(ascii: ":") { bytes.append(byte) }
        }
        if bytes.last != UInt8(ascii: "Z"), time != nil { bytes.append(UInt8(ascii: "Z")) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
