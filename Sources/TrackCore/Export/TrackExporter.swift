/// Turns log records into one export file, streaming: the only records it holds are the
/// fixes of the current segment when simplifying (Douglas–Peucker needs the whole segment),
/// and the first fix of a segment until a second arrives.
///
/// Formats with places take two passes over the log: waypoints and fence events first (GPX
/// requires its `wpt` before its `trk`), then the tracks. A track ends at a boot marker, a
/// segment at a gap record or where consecutive fixes are more than
/// `options.splitAfterMilliseconds` apart (either way in time), unless a sleep record came
/// between them: the receiver slept because the tracker stood still, a stop, not a lost
/// signal, so the segment goes on. Records outside
/// [since, until) are left out; positions are written in `options.datum`. Example:
///
///     var exporter = TrackExporter(GPXWriter(), options: ExportOptions())
///     for pass in 0..<exporter.passCount {
///         exporter.begin(pass: pass, emit)
///         for record in log { exporter.consume(record, emit) }   // emit: (inout TextBuffer) -> Void
///         exporter.end(pass: pass, emit)
///     }
public struct TrackExporter<Writer: ExportWriter> {
    /// The format's writer.
    public private(set) var writer: Writer
    /// What to export.
    public let options: ExportOptions
    /// What has been written so far.
    public private(set) var counts = ExportCounts()

    var placesPass = false
    var trackNumber = 0
    var segmentNumber = 0
    var inTrack = false
    /// The open segment's first fix (WGS-84), its count and last fix (both as written).
    var segmentFirst: LogFix?
    var segmentCount = 0
    /// The open segment's first fix was written early, ahead of a place that followed it
    /// (places inline: the rows stay in log order).
    var segmentFirstWritten = false
    var lastWritten: LogFix?
    var lastFixTime: UTCTime?
    /// A sleep record came since the last fix: the time to the next is the stop's.
    var slept = false
    /// The segment's fixes while simplifying (WGS-84).
    var pending: [LogFix] = []

    /// An exporter writing through `writer`.
    public init(_ writer: Writer, options: ExportOptions) {
        self.writer = writer
        self.options = options
    }

    /// 2 for formats with places before the tracks (places, then tracks), 1 for CSV.
    public var passCount: Int { Writer.exportsPlaces && !Writer.placesInline ? 2 : 1 }

    /// Starts `pass` (0 first): the header at pass 0.
    public mutating func begin(pass: Int, _ emit: (inout TextBuffer) -> Void) {
        placesPass = passCount == 2 && pass == 0
        if pass == 0 { write(emit) { writer, out in writer.header(&out) } }
    }

    /// Takes the next record of the log, in log order.
    public mutating func consume(_ record: LogRecord, _ emit: (inout TextBuffer) -> Void) {
        if placesPass {
            guard let place = namedPlace(record) else { return }
            counts.places += 1
            write(emit) { writer, out in writer.place(place, &out) }
            return
        }
        switch record {
        case .fix(let fix):
            consume(fix, emit)
        case .gap:
            endSegment(emit)
        case .receiverAsleep:
            // A stop, not a lost receiver: the segment goes on after it.
            slept = true
        case .bootMarker:
            endSegment(emit)
            endTrack(emit)
        case .waypoint, .fenceEvent:
            guard Writer.placesInline, let place = namedPlace(record) else { return }
            counts.places += 1
            if segmentCount == 1, !segmentFirstWritten, options.simplifyMillimetres == nil, let first = segmentFirst {
                segmentFirstWritten = true
                openTrack(emit)
                write(emit) { writer, out in writer.fix(first, &out) }
            }
            write(emit) { writer, out in writer.place(place, &out) }
        case .permissionChange:
            return
        }
    }

    /// The place `record` stands for, named with the options' fence ids and place words; nil
    /// (counted) when it is outside the window, nil for records that are not places.
    mutating func namedPlace(_ record: LogRecord) -> ExportPlace? {
        guard ExportPlace(record, datum: options.datum) != nil else { return nil }
        guard options.contains(record.time) else {
            counts.outsideWindow += 1
            return nil
        }
        let words = counts.places < options.placeNames.count ? options.placeNames[counts.places] : nil
        return ExportPlace(record, datum: options.datum, fenceIDs: options.fenceIDs, place: words)
    }

    /// Ends `pass`: after the last, closes the open segment and track and writes the footer.
    public mutating func end(pass: Int, _ emit: (inout TextBuffer) -> Void) {
        guard pass == passCount - 1 else { return }
        endSegment(emit)
        endTrack(emit)
        write(emit) { writer, out in writer.footer(&out) }
    }

    mutating func consume(_ fix: LogFix, _ emit: (inout TextBuffer) -> Void) {
        guard options.contains(fix.time) else {
            counts.outsideWindow += 1
            return
        }
        if let last = lastFixTime, !slept {
            let step = fix.time.millisecondsSinceEpoch &- last.millisecondsSinceEpoch
            if step > options.splitAfterMilliseconds || step < -options.splitAfterMilliseconds { endSegment(emit) }
        }
        lastFixTime = fix.time
        slept = false
        if options.simplifyMillimetres != nil {
            pending.append(fix)
        } else {
            add(fix, emit)
        }
    }

    /// Writes one fix (WGS-84) of the open segment, opening track and segment as needed.
    mutating func add(_ fix: LogFix, _ emit: (inout TextBuffer) -> Void) {
        var shown = fix
        shown.position = options.datum.fromWGS84(fix.position)
        counts.fixes += 1
        guard let first = segmentFirst else {
            segmentFirst = shown
            segmentCount = 1
            segmentFirstWritten = false
            return
        }
        if segmentCount == 1 {
            openTrack(emit)
            segmentNumber += 1
            let number = segmentNumber
            let written = segmentFirstWritten
            write(emit) { writer, out in
                writer.beginSegment(number, first: first, &out)
                if !written { writer.fix(first, &out) }
            }
        }
        segmentCount += 1
        lastWritten = shown
        write(emit) { writer, out in writer.fix(shown, &out) }
    }

    mutating func endSegment(_ emit: (inout TextBuffer) -> Void) {
        lastFixTime = nil
        if let tolerance = options.simplifyMillimetres, !pending.isEmpty {
            let fixes = pending
            pending.removeAll(keepingCapacity: true)
            let kept = DouglasPeucker.keep(fixes.map { $0.position }, toleranceMillimetres: tolerance)
            for index in fixes.indices {
                if kept[index] { add(fixes[index], emit) } else { counts.simplified += 1 }
            }
        }
        guard let first = segmentFirst else { return }
        counts.segments += 1
        if segmentCount == 1 {
            openTrack(emit)
            segmentNumber += 1
            let number = segmentNumber
            if !segmentFirstWritten { write(emit) { writer, out in writer.loneFix(first, segment: number, &out) } }
        } else if let last = lastWritten {
            let count = segmentCount
            write(emit) { writer, out in writer.endSegment(last: last, count: count, &out) }
        }
        segmentFirst = nil
        segmentCount = 0
        lastWritten = nil
    }

    mutating func openTrack(_ emit: (inout TextBuffer) -> Void) {
        guard !inTrack else { return }
        inTrack = true
        trackNumber += 1
        segmentNumber = 0
        let number = trackNumber
        let name = number <= options.trackNames.count ? options.trackNames[number - 1] : nil
        write(emit) { writer, out in writer.beginTrack(number, name: name, &out) }
    }

    mutating func endTrack(_ emit: (inout TextBuffer) -> Void) {
        guard inTrack else { return }
        inTrack = false
        write(emit) { writer, out in writer.endTrack(&out) }
    }

    /// Runs `body` on a fresh line buffer and hands it to `emit` when it is not empty, then
    /// the rest of what the writer has to say, a buffer at a time.
    mutating func write(_ emit: (inout TextBuffer) -> Void, _ body: (inout Writer, inout TextBuffer) -> Void) {
        var out = TextBuffer()
        body(&writer, &out)
        if out.count > 0 { emit(&out) }
        while writer.hasMoreText {
            out.removeAll()
            writer.continueText(&out)
            if out.count > 0 { emit(&out) }
        }
    }
}
