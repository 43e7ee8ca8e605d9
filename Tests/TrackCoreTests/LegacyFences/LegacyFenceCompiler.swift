@testable import TrackCore

// The fences compiler as it was before the streaming reader (commit fda96ce): the whole
// document parsed into a JSONDocument tree, the features read from it, the tables collected in
// arrays, the index built by copying and sorting, and the image laid out in one allocation.
// Kept here, only in the tests, as the oracle the streaming compiler must agree with byte for
// byte and error for error (FenceStreamOracleTests). Do not "fix" it: it is what shipped.

/// The old compiler: the image bytes of a fences file, or its first problem.
enum LegacyFenceCompiler {
    static func compile(_ bytes: [UInt8], settings: FenceSettings) throws(FenceFileError) -> [UInt8] {
        let document: JSONDocument
        do {
            var parser = LegacyJSONParser(bytes: bytes)
            document = try parser.parseDocument()
        } catch {
            throw FenceFileError(featureIndex: nil, problem: .json(error))
        }
        guard let type = document.member("type", of: document.root), document.isString(type, "FeatureCollection"),
              let features = document.member("features", of: document.root),
              document.nodes[features].kind == .array else {
            throw FenceFileError(featureIndex: nil, problem: .notFeatureCollection)
        }
        var parts = LegacyParts()
        var firstIndexOfID: [[UInt8]: Int] = [:]
        for (number, feature) in document.children(of: features).enumerated() {
            var reader = LegacyFeatureReader(document: document, node: feature, number: number)
            do throws(FenceFileError.Problem) {
                let id = try reader.identify()
                if let first = firstIndexOfID[Array(id.utf8)] { throw FenceFileError.Problem.duplicateID(firstIndex: first) }
                firstIndexOfID[Array(id.utf8)] = number
                try reader.append(to: &parts, settings: settings)
            } catch {
                throw FenceFileError(featureIndex: number, featureID: reader.id, problem: error)
            }
        }
        return LegacyImage.make(&parts, key: FenceImage.key(source: bytes, settings: settings))
    }
}

/// The tables of a set being built, in the order fences were appended (the old FenceSet.Parts).
struct LegacyParts {
    var fences: [Fence] = []
    var shapes: [FenceSet.Shape] = []
    var rings: [Range<Int>] = []
    var vertices: [Double] = []
    var boxes: [(box: FenceBox, fence: Int)] = []

    mutating func appendCircle(_ fence: Fence, centre: Coordinate, radiusMetres: Double) {
        let vector = GeoVector(centre)
        let plane = LocalPlane(centre: vector)
        let number = fences.count
        fences.append(fence)
        shapes.append(FenceSet.Shape(plane: plane, centre: centre, radiusMetres: radiusMetres, rings: rings.count..<rings.count))
        let reach = radiusMetres * 1.01 + 1
        let dLatitude = reach / plane.northMetres * 180 / Double.pi
        let cosine = Math.sinCosDegrees(min(centre.latitudeDegrees.magnitude + dLatitude, 90)).cos
        let dLongitude = cosine > 1e-9 ? reach / (plane.eastMetres * cosine) * 180 / Double.pi : 360
        let latitude = centre.latitudeDegrees
        FenceBox.covering(latitudes: (latitude - dLatitude)...(latitude + dLatitude),
                          centreLongitude: centre.longitudeDegrees, west: -dLongitude, east: dLongitude) {
            boxes.append(($0, number))
        }
    }

    mutating func appendPolygon(_ fence: Fence, parts: [[[Coordinate]]]) throws(FenceFileError.Problem) {
        var centreSum = GeoVector(x: 0, y: 0, z: 0)
        var ringNumber = 0
        for part in parts {
            for ring in part {
                guard ring.count >= 4 else { throw .tooFewPositions(ring: ringNumber, count: ring.count) }
                guard ring[0] == ring[ring.count - 1] else { throw .ringNotClosed(ring: ringNumber) }
                for position in ring.dropLast() { centreSum = centreSum + GeoVector(position) }
                ringNumber += 1
            }
        }
        guard ringNumber > 0 else { throw .malformedCoordinates(expected: "at least one ring") }
        let centre = centreSum.length > 1e-9 ? centreSum.normalized : GeoVector(x: 1, y: 0, z: 0)
        let plane = LocalPlane(centre: centre)
        let firstRing = rings.count
        var projected: [Double] = []
        var reach = 0.0
        ringNumber = 0
        for part in parts {
            for ring in part {
                let start = vertices.count / 2
                projected.removeAll(keepingCapacity: true)
                for position in ring {
                    guard let local = plane.project(GeoVector(position)) else {
                        throw .tooLarge(metres: .infinity, maximumMetres: FenceSet.maximumPolygonReachMetres)
                    }
                    projected.append(local.east)
                    projected.append(local.north)
                    reach = max(reach, Math.squareRoot(local.east * local.east + local.north * local.north))
                }
                guard reach <= FenceSet.maximumPolygonReachMetres else {
                    throw .tooLarge(metres: reach, maximumMetres: FenceSet.maximumPolygonReachMetres)
                }
                if let crossing = FenceSet.selfIntersection(projected[...]) {
                    throw .selfIntersecting(ring: ringNumber, edge: crossing.0, otherEdge: crossing.1)
                }
                vertices.append(contentsOf: projected)
                rings.append(start..<(vertices.count / 2))
                ringNumber += 1
            }
        }
        let number = fences.count
        fences.append(fence)
        let shape = FenceSet.Shape(plane: plane, centre: Coordinate(latitudeNanodegrees: 0, longitudeNanodegrees: 0),
                                   radiusMetres: 0, rings: firstRing..<rings.count)
        shapes.append(shape)
        appendPolygonBoxes(shape, number: number, parts: parts)
    }

    mutating func appendPolygonBoxes(_ shape: FenceSet.Shape, number: Int, parts: [[[Coordinate]]]) {
        let centre = shape.plane.centre
        let centreLongitude = centre.longitudeDegrees
        var south = 90.0
        var north = -90.0
        var west = 360.0
        var east = -360.0
        var longest = 0.0
        var capCosine = 1.0
        for part in parts {
            for ring in part {
                for index in 0..<(ring.count - 1) {
                    let a = GeoVector(ring[index])
                    let b = GeoVector(ring[index + 1])
                    longest = max(longest, (a + b * -1).length)
                    capCosine = min(capCosine, centre.dot(a))
                    FenceSet.arcLatitudeExtremes(a, b) { latitude in
                        south = min(south, latitude)
                        north = max(north, latitude)
                    }
                    var longitude = a.longitudeDegrees - centreLongitude
                    if longitude > 180 { longitude -= 360 }
                    if longitude < -180 { longitude += 360 }
                    south = min(south, a.latitudeDegrees)
                    north = max(north, a.latitudeDegrees)
                    west = min(west, longitude)
                    east = max(east, longitude)
                }
            }
        }
        let marginMetres = 1 + longest * 6_371_000 * 0.001
        let dLatitude = marginMetres / 110_000
        var bounds: [UInt32] = []
        for ring in rings[shape.rings] { bounds += [UInt32(ring.lowerBound), UInt32(ring.upperBound)] }
        let local = FenceSet.Shape(plane: shape.plane, centre: shape.centre, radiusMetres: 0, rings: 0..<shape.rings.count)
        for pole in [GeoVector(x: 0, y: 0, z: 1), GeoVector(x: 0, y: 0, z: -1)] {
            let distance = bounds.withUnsafeBufferPointer { rings in
                vertices.withUnsafeBufferPointer { FenceSet.polygonDistance(local, point: pole, limitMetres: 1, rings: rings, vertices: $0) }
            }
            if distance > -1 { if pole.z > 0 { north = 90 } else { south = -90 } }
        }
        let capDegrees = Math.atan2Degrees(Math.squareRoot(max(0, 1 - capCosine * capCosine)), capCosine)
        let centreLatitude = centre.latitudeDegrees
        if centreLatitude + capDegrees + dLatitude >= 90 { north = 90 }
        if centreLatitude - capDegrees - dLatitude <= -90 { south = -90 }
        let cosine = Math.sinCosDegrees(min(max(south.magnitude, north.magnitude) + dLatitude, 90)).cos
        let dLongitude = cosine > 1e-9 ? marginMetres / (111_000 * cosine) : 360
        FenceBox.covering(latitudes: (south - dLatitude)...(north + dLatitude), centreLongitude: centreLongitude,
                          west: west - dLongitude, east: east + dLongitude) {
            boxes.append(($0, number))
        }
    }
}
