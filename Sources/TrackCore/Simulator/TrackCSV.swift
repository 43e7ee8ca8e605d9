/// Reads a track in the CSV layout of the shared tracks: a header `time_utc,lat,lon,ele_m,speed_mps`
/// then one fix per line, e.g. `2025-06-21T12:01:29Z,39.40794834,-0.32347952,12.3,1.25`
/// (elevation and speed may be empty; extra columns are ignored). `trackctl log export`'s CSV
/// adds `kind,name`: rows of kind `waypoint` are waypoints, fence events are left out (their
/// fence is not in the file), `fix` or an empty kind is a fix. Fields may be quoted (RFC 4180).
///
/// Values are rounded to the log's precision (1e-7°, decimetres, cm/s), half away from zero;
/// times are ISO 8601 as data files record them (`ISO8601Form.recorded`), cut to milliseconds.
/// A fix with elevation is 3D, without 2D. A bad line is an error naming its line number.
public enum TrackCSV {
    /// The fixes of `bytes` in file order; throws at the first bad line (the header is line 1).
    public static func parse(_ bytes: [UInt8]) throws(TrackCSVError) -> [LogFix] {
        var fixes: [LogFix] = []
        for record in try records(bytes) {
            if case .fix(let fix) = record { fixes.append(fix) }
        }
        return fixes
    }

    /// The fixes and waypoints of `bytes` in file order.
    public static func records(_ bytes: [UInt8]) throws(TrackCSVError) -> [LogRecord] {
        var records: [LogRecord] = []
        var line = 0
        var start = 0
        var kindColumn: Int?
        var nameColumn: Int?
        while start < bytes.count {
            var end = start
            while end < bytes.count && bytes[end] != UInt8(ascii: "\n") { end += 1 }
            line += 1
            var stop = end
            if stop > start && bytes[stop - 1] == UInt8(ascii: "\r") { stop -= 1 }
            let text = bytes[start..<stop]
            if line == 1 {
                guard text.starts(with: Array("time_utc,lat,lon".utf8)) else {
                    throw TrackCSVError(line: 1, reason: "header is not time_utc,lat,lon,ele_m,speed_mps")
                }
                let names = fields(text)
                kindColumn = names.firstIndex { $0 == Array("kind".utf8) }
                nameColumn = names.firstIndex { $0 == Array("name".utf8) }
            } else if !text.isEmpty {
                let row = fields(text)
                let kind = kindColumn.flatMap { $0 < row.count ? row[$0] : nil } ?? []
                if kind.isEmpty || kind == Array("fix".utf8) {
                    records.append(.fix(try fix(row, line: line)))
                } else if kind == Array("waypoint".utf8) {
                    let position = try fix(row, line: line)
                    var label = LogLabel()
                    for byte in nameColumn.flatMap({ $0 < row.count ? row[$0] : nil }) ?? [] {
                        guard label.append(byte) else { break }
                    }
                    records.append(.waypoint(time: position.time, position: position.position, label: label))
                } else if !kind.starts(with: Array("fence-".utf8)) {
                    throw TrackCSVError(line: line, reason: "kind '" + String(decoding: kind, as: UTF8.self)
                                        + "' is not fix, waypoint or a fence event")
                }
            }
            start = end + 1
        }
        return records
    }

    /// The fields of one line, split at commas outside quotes; a quoted field loses its quotes
    /// and `""` inside becomes `"`.
    static func fields(_ text: ArraySlice<UInt8>) -> [[UInt8]] {
        var fields: [[UInt8]] = []
        var field: [UInt8] = []
        var quoted = false
        var index = text.startIndex
        while index < text.endIndex {
            let byte = text[index]
            if quoted {
                if byte == UInt8(ascii: "\"") {
                    if index + 1 < text.endIndex && text[index + 1] == UInt8(ascii: "\"") {
                        field.append(byte)
                        index += 1
                    } else {
                        quoted = false
                    }
                } else {
                    field.append(byte)
                }
            } else if byte == UInt8(ascii: "\"") && field.isEmpty {
                quoted = true
            } else if byte == UInt8(ascii: ",") {
                fields.append(field)
                field = []
            } else {
                field.append(byte)
            }
            index += 1
        }
        fields.append(field)
        return fields
    }

    static func fix(_ fields: [[UInt8]], line: Int) throws(TrackCSVError) -> LogFix {
        guard fields.count >= 3 else { throw TrackCSVError(line: line, reason: "fewer than 3 fields") }
        guard let time = UTCTime(iso8601: fields[0], form: .recorded) else {
            throw TrackCSVError(line: line, reason: "time is not YYYY-MM-DDTHH:MM:SS[.fff]Z or ±hh:mm")
        }
        guard let lat = DecimalText.read(fields[1][...], scale: 7), let latE7 = Int32(exactly: lat), abs(lat) <= 900_000_000 else {
            throw TrackCSVError(line: line, reason: "latitude is not a number within ±90")
        }
        guard let lon = DecimalText.read(fields[2][...], scale: 7), let lonE7 = Int32(exactly: lon), abs(lon) <= 1_800_000_000 else {
            throw TrackCSVError(line: line, reason: "longitude is not a number within ±180")
        }
        let altitude = try optional(fields, 3, digits: 1, line: line, name: "ele_m")
        let speed = try optional(fields, 4, digits: 2, line: line, name: "speed_mps")
        return LogFix(time: time, position: LogPosition(latitudeE7: latE7, longitudeE7: lonE7),
                      altitudeDecimetres: altitude, speedCentimetresPerSecond: speed,
                      mode: altitude == nil ? .twoD : .threeD)
    }

    static func optional(_ fields: [[UInt8]], _ index: Int, digits: Int, line: Int,
                         name: String) throws(TrackCSVError) -> Int32? {
        guard index < fields.count, !fields[index].isEmpty else { return nil }
        guard let value = DecimalText.read(fields[index][...], scale: digits), let narrow = Int32(exactly: value) else {
            throw TrackCSVError(line: line, reason: name + " is not a number")
        }
        return narrow
    }
}

/// A bad line of a track CSV, e.g. line 7: "latitude is not a number within ±90".
public struct TrackCSVError: Error, Equatable, Sendable {
    /// The 1-based line number.
    public var line: Int
    /// What is wrong with it.
    public var reason: String
}
