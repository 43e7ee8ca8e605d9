/// Reads a fences file: a GeoJSON FeatureCollection (RFC 7946) of Polygon and MultiPolygon
/// features (holes allowed) and Point features with `properties.radius` in metres, as any map
/// editor exports it. Properties: `id`, `name`, `notify` (array of `enter`, `exit`, `dwell`),
/// `dwell` (seconds), `command` (argv array of strings).
///
/// The file is read streaming (`JSONReader`), one feature at a time, each compiled as soon as
/// its object closes: memory holds the feature being read, not the document. Problems come in
/// the order a whole-document reader finds them: a JSON error anywhere first, then a file that
/// is no FeatureCollection, then the first bad feature.
///
/// Example: `{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"id":"home",
/// "radius":100},"geometry":{"type":"Point","coordinates":[9.0663,48.5242]}}]}` → one circle.
public enum FenceFile {
    /// The fences in `bytes`, checked and indexed; throws the first problem, naming the feature.
    public static func parse(_ bytes: [UInt8], settings: FenceSettings) throws(FenceFileError) -> FenceSet {
        var source = JSONBytes(bytes)
        return try parse(from: &source, settings: settings)
    }

    /// The fences `source` reads, compiled on the heap (for a set the caller uses at once,
    /// e.g. `trackctl fence check`).
    public static func parse<Source: JSONByteSource>(from source: inout Source, settings: FenceSettings)
        throws(FenceFileError) -> FenceSet {
        var builder = FenceImageBuilder(spool: FenceImageMemorySpool())
        let key = try read(&source, into: &builder, settings: settings)
        return FenceSet(compiling: &builder, key: key)
    }

    /// Reads every fence `source` gives into `builder` and returns the image key of the bytes
    /// read with `settings` (`FenceImage.key`); `builder.write(key:)` then lays the image out.
    /// A source that fails looks like a text cut short: its owner reports its own failure first.
    /// `windowBytes` is the reader's window (`JSONReader`).
    public static func read<Source: JSONByteSource, Spool: FenceImageSpool>(
        _ source: inout Source, into builder: inout FenceImageBuilder<Spool>, settings: FenceSettings,
        windowBytes: Int = 65_536
    ) throws(FenceFileError) -> UInt64 {
        var reader = JSONReader(FenceKeySource(source: source), windowBytes: windowBytes)
        defer { source = reader.source.source }
        var collection = CollectionReader()
        do throws(JSONError) {
            try collection.read(&reader, into: &builder, settings: settings)
        } catch {
            throw FenceFileError(featureIndex: nil, problem: .json(error))
        }
        guard collection.isFeatureCollection else { throw FenceFileError(featureIndex: nil, problem: .notFeatureCollection) }
        if let problem = collection.firstProblem { throw problem }
        return reader.source.key.value(settings: settings)
    }
}

/// The top level of a fences file: `type` and `features` of the root object, the other members
/// skipped; each feature handed to a `FeatureReader`. The first bad feature is kept while the
/// rest of the text is still read for JSON errors (which come first), the features after it
/// only skipped.
struct CollectionReader {
    var rootIsObject = false
    var typeIsFeatureCollection = false
    var featuresIsArray = false
    var firstProblem: FenceFileError?
    var ids = FenceIDTable()

    var isFeatureCollection: Bool { rootIsObject && typeIsFeatureCollection && featuresIsArray }

    mutating func read<Source, Spool: FenceImageSpool>(
        _ reader: inout JSONReader<Source>, into builder: inout FenceImageBuilder<Spool>, settings: FenceSettings
    ) throws(JSONError) {
        let first = try reader.next()
        if first == .objectStart {
            rootIsObject = true
            while try reader.next() == .key {
                if reader.textIs("type") {
                    let value = try reader.next()
                    typeIsFeatureCollection = value == .string && reader.textIs("FeatureCollection")
                    try reader.skipValue(after: value)
                } else if reader.textIs("features") {
                    let value = try reader.next()
                    if value == .arrayStart {
                        featuresIsArray = true
                        try readFeatures(&reader, into: &builder, settings: settings)
                    } else {
                        try reader.skipValue(after: value)
                    }
                } else {
                    try reader.skipValue(after: try reader.next())
                }
            }
        } else {
            try reader.skipValue(after: first)
        }
        // Only white space may follow.
        _ = try reader.next()
    }

    mutating func readFeatures<Source, Spool: FenceImageSpool>(
        _ reader: inout JSONReader<Source>, into builder: inout FenceImageBuilder<Spool>, settings: FenceSettings
    ) throws(JSONError) {
        var number = 0
        while true {
            let first = try reader.next()
            if first == .arrayEnd { return }
            defer { number += 1 }
            guard firstProblem == nil else {
                try reader.skipValue(after: first)
                continue
            }
            var feature = FeatureReader(number: number)
            try feature.read(first, &reader)
            do throws(FenceFileError.Problem) {
                let id = try feature.identify()
                if let earlier = ids.insert(id, number: number) { throw .duplicateID(firstIndex: earlier) }
                try feature.append(to: &builder, settings: settings)
            } catch {
                firstProblem = FenceFileError(featureIndex: number, featureID: feature.id, problem: error)
            }
        }
    }
}

/// A source whose bytes also go into the image key as they are read.
struct FenceKeySource<Source: JSONByteSource>: JSONByteSource {
    var source: Source
    var key = FenceImage.Key()

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let count = source.read(into: buffer)
        key.add(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        return count
    }
}

extension JSONReader {
    /// True when the last key or string is `expected`, byte for byte.
    func textIs(_ expected: StaticString) -> Bool {
        guard text.count == expected.utf8CodeUnitCount else { return false }
        for index in 0..<text.count where text[index] != expected.utf8Start[index] { return false }
        return true
    }
}
