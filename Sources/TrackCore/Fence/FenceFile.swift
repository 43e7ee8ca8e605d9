/// Reads a fences file: a GeoJSON FeatureCollection (RFC 7946) of Polygon and MultiPolygon
/// features (holes allowed) and Point features with `properties.radius` in metres, as any map
/// editor exports it. Properties: `id`, `name`, `notify` (array of `enter`, `exit`, `dwell`),
/// `dwell` (seconds), `command` (argv array of strings).
///
/// Example: `{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"id":"home",
/// "radius":100},"geometry":{"type":"Point","coordinates":[9.0663,48.5242]}}]}` → one circle.
public enum FenceFile {
    /// The fences in `bytes`, checked and indexed; throws the first problem, naming the feature.
    public static func parse(_ bytes: [UInt8], settings: FenceSettings) throws(FenceFileError) -> FenceSet {
        let document: JSONDocument
        do {
            document = try JSONDocument.parse(bytes)
        } catch {
            throw FenceFileError(featureIndex: nil, problem: .json(error))
        }
        guard let type = document.member("type", of: document.root), document.isString(type, "FeatureCollection"),
              let features = document.member("features", of: document.root),
              document.nodes[features].kind == .array else {
            throw FenceFileError(featureIndex: nil, problem: .notFeatureCollection)
        }
        var set = FenceSet()
        var firstIndexOfID: [[UInt8]: Int] = [:]
        for (number, feature) in document.children(of: features).enumerated() {
            var reader = FeatureReader(document: document, node: feature, number: number)
            do throws(FenceFileError.Problem) {
                let id = try reader.identify()
                if let first = firstIndexOfID[Array(id.utf8)] { throw FenceFileError.Problem.duplicateID(firstIndex: first) }
                firstIndexOfID[Array(id.utf8)] = number
                try reader.append(to: &set, settings: settings)
            } catch {
                throw FenceFileError(featureIndex: number, featureID: reader.id, problem: error)
            }
        }
        set.buildIndex(key: FenceImage.key(source: bytes, settings: settings))
        return set
    }
}
