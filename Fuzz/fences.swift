// Fuzz target `fences`: a fences file as trackd and `trackctl fence validate` read it — the JSON
// reader (`JSONDocument.parse`), then `FenceFile.parse`, then the fences in use: the spatial
// index the daemon queries and the monitor it feeds, at points taken from the file's own
// coordinates. Checks beyond "no crash":
// * an error points inside the text (offset, line, column) and a feature that exists;
// * every node's children add up to its child count, every member has a key;
// * one fence per feature;
// * the index finds every fence the brute-force check says a point may be in;
// * the compiled image, copied and opened again (as trackd maps it), gives the same fences and
//   the same states at every point.
// The monitor then gets each point a few times over (it must not trap).
import TrackCore

func fuzzTarget(_ input: [UInt8]) {
    let document: JSONDocument
    do {
        document = try JSONDocument.parse(input)
    } catch {
        check(error.offset >= 0 && error.offset <= input.count, "JSON error offset \(error.offset) of \(input.count)")
        check(error.line >= 1 && error.line <= input.count(where: { $0 == 0x0A }) + 1, "JSON error line \(error.line)")
        check(error.column >= 1, "JSON error column \(error.column)")
        check(!error.description.isEmpty, "empty JSON error")
        return
    }
    FencesFuzz.checkTree(document, byteCount: input.count)

    let settings = FenceSettings()
    let fences: FenceSet
    do {
        fences = try FenceFile.parse(input, settings: settings)
    } catch {
        let features = FencesFuzz.featureCount(document)
        if let index = error.featureIndex { check(index < features, "error names feature \(index) of \(features)") }
        check(!error.description.isEmpty, "empty fences error")
        return
    }
    check(fences.count == FencesFuzz.featureCount(document), "\(fences.count) fences from \(FencesFuzz.featureCount(document)) features")

    let reopened: FenceSet
    do {
        reopened = FenceSet(image: try FenceImage(FenceStorage(copying: Array(fences.image.bytes))))
    } catch {
        check(false, "the compiled image does not open again: \(error.description)")
        return
    }
    check(reopened.count == fences.count, "\(reopened.count) fences in the reopened image of \(fences.count)")
    for fence in 0..<fences.count { check(reopened.fences[fence] == fences.fences[fence], "fence \(fence) differs when reopened") }

    var monitor = FenceMonitor(fences: fences, settings: settings)
    for (number, point) in FencesFuzz.points(document).enumerated() {
        let accuracyMetres = Double(number % 4) * 25
        var found = Set<Int>()
        fences.boxesAround(point, metres: accuracyMetres + 1) { box in
            fences.index.query(box) { found.insert($0) }
        }
        var states: [FenceState] = []
        fences.states(at: point, accuracyMetres: accuracyMetres) { fence, state in
            check(state == .outside || found.contains(fence), "the index misses fence \(fence) at \(point)")
            states.append(state)
        }
        var again: [FenceState] = []
        reopened.states(at: point, accuracyMetres: accuracyMetres) { _, state in again.append(state) }
        check(again == states, "the reopened image's states differ at \(point)")
        for repeatCount in 0..<settings.windowFixes {
            monitor.update(position: point, accuracyMillimetres: Int64(accuracyMetres * 1000),
                           timeMilliseconds: Int64(number * 100 + repeatCount) * 1000) { _, _ in }
        }
    }
}

enum FencesFuzz {
    /// Checks the links between nodes: children counted right, every object member keyed.
    static func checkTree(_ document: JSONDocument, byteCount: Int) {
        check(!document.nodes.isEmpty, "a parsed document without a root")
        for index in document.nodes.indices {
            let node = document.nodes[index]
            check(node.offset >= 0 && node.offset < byteCount, "node \(index) at offset \(node.offset)")
            let children = document.children(of: index)
            check(children.count == node.childCount, "node \(index): \(children.count) children, counted \(node.childCount)")
            for child in children {
                check(child > index, "a child before its parent")
                if node.kind == .object { check(document.key(child) != nil, "an object member without a key") }
                if node.kind == .array { check(document.key(child) == nil, "an array element with a key") }
            }
            check((node.kind == .string) == (document.string(index) != nil), "string() of node \(index)")
        }
    }

    /// The number of elements of the root's `features` array (0 when there is none).
    static func featureCount(_ document: JSONDocument) -> Int {
        guard let features = document.member("features", of: document.root),
              document.nodes[features].kind == .array else { return 0 }
        return document.nodes[features].childCount
    }

    /// Up to 16 points: every `[lon, lat]` pair of numbers in the document that is on the
    /// globe, and a point 0.001° north-east of each.
    static func points(_ document: JSONDocument) -> [Coordinate] {
        var points: [Coordinate] = []
        for index in document.nodes.indices where document.nodes[index].kind == .array {
            let children = document.children(of: index)
            guard children.count >= 2, document.nodes[children[0]].kind == .number,
                  document.nodes[children[1]].kind == .number,
                  let lon = document.nodes[children[0]].number.scaled(decimals: 9),
                  let lat = document.nodes[children[1]].number.scaled(decimals: 9),
                  abs(lat) <= 90_000_000_000, abs(lon) <= 180_000_000_000 else { continue }
            points.append(Coordinate(latitudeNanodegrees: lat, longitudeNanodegrees: lon))
            let north = min(lat + 1_000_000, 90_000_000_000)
            let east = lon + 1_000_000 > 180_000_000_000 ? lon + 1_000_000 - 360_000_000_000 : lon + 1_000_000
            points.append(Coordinate(latitudeNanodegrees: north, longitudeNanodegrees: east))
            if points.count >= 16 { break }
        }
        return points
    }
}
