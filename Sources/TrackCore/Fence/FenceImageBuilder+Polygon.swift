/// Adding polygons: the local plane, the checks a ring must pass, and the boxes for the index.
extension FenceImageBuilder {
    /// Adds a polygon or multi-polygon: `parts` of rings (the first of each part outer, the
    /// rest holes; any winding), each ring closed with at least 4 positions, e.g. a square
    /// `[[[a, b, c, d, a]]]`. Throws the first problem found, naming the ring; nothing is
    /// added then.
    public mutating func appendPolygon(_ fence: Fence, parts: [[[Coordinate]]]) throws(FenceFileError.Problem) {
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
        polygonVertices.removeAll(keepingCapacity: true)
        polygonRings.removeAll(keepingCapacity: true)
        var reach = 0.0
        ringNumber = 0
        for part in parts {
            for ring in part {
                let start = polygonVertices.count
                for position in ring {
                    guard let local = plane.project(GeoVector(position)) else {
                        throw .tooLarge(metres: .infinity, maximumMetres: FenceSet.maximumPolygonReachMetres)
                    }
                    polygonVertices.append(local.east)
                    polygonVertices.append(local.north)
                    reach = max(reach, Math.squareRoot(local.east * local.east + local.north * local.north))
                }
                guard reach <= FenceSet.maximumPolygonReachMetres else {
                    throw .tooLarge(metres: reach, maximumMetres: FenceSet.maximumPolygonReachMetres)
                }
                if let crossing = FenceSet.selfIntersection(polygonVertices[start...]) {
                    throw .selfIntersecting(ring: ringNumber, edge: crossing.0, otherEdge: crossing.1)
                }
                polygonRings.append(UInt32(start / 2))
                polygonRings.append(UInt32(polygonVertices.count / 2))
                ringNumber += 1
            }
        }
        // Checked: the rings and vertices go out, numbered from the tables' ends.
        record.removeAll(keepingCapacity: true)
        for bound in polygonRings { record.putLittleEndian(UInt32(vertexCount) + bound) }
        write(.rings)
        for value in polygonVertices { record.putLittleEndian(value.bitPattern) }
        write(.vertices)
        let number = fenceCount
        let shape = FenceSet.Shape(plane: plane, centre: Coordinate(latitudeNanodegrees: 0, longitudeNanodegrees: 0),
                                   radiusMetres: 0, rings: ringCount..<(ringCount + ringNumber))
        appendFence(fence, shape)
        ringCount += ringNumber
        vertexCount += polygonVertices.count / 2
        appendPolygonBoxes(plane, number: number, parts: parts)
    }

    /// Boxes over the vertices and each edge's highest and lowest point (great circles bulge
    /// poleward between vertices), widened by 1 m and 0.1 % of the longest edge; all longitudes
    /// up to the pole when the cap round the centre that holds the polygon reaches a pole (there
    /// the longitudes the vertices span say nothing of those between them).
    mutating func appendPolygonBoxes(_ plane: LocalPlane, number: Int, parts: [[[Coordinate]]]) {
        let centre = plane.centre
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
                    // The arc's longitudes lie between its vertices' (see below): each vertex
                    // once, as the start of its edge.
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
        // A margin of 1 m and 0.1 % of the longest edge for rounding: metres → degrees.
        let marginMetres = 1 + longest * 6_371_000 * 0.001
        let dLatitude = marginMetres / 110_000
        let local = FenceSet.Shape(plane: plane, centre: Coordinate(latitudeNanodegrees: 0, longitudeNanodegrees: 0),
                                   radiusMetres: 0, rings: 0..<(polygonRings.count / 2))
        for pole in [GeoVector(x: 0, y: 0, z: 1), GeoVector(x: 0, y: 0, z: -1)] {
            let distance = polygonRings.withUnsafeBufferPointer { rings in
                polygonVertices.withUnsafeBufferPointer { FenceSet.polygonDistance(local, point: pole, limitMetres: 1, rings: rings, vertices: $0) }
            }
            if distance > -1 { if pole.z > 0 { north = 90 } else { south = -90 } }
        }
        // Every edge lies in the cap of the vertices' largest angle from the centre (a cap under
        // a hemisphere is convex). One clear of the poles is less than 90° of longitude either
        // side of the centre, so the relative longitudes do not wrap, and a great-circle arc that
        // passes no pole runs monotonically in longitude: the vertices bound it.
        let capDegrees = Math.atan2Degrees(Math.squareRoot(max(0, 1 - capCosine * capCosine)), capCosine)
        let centreLatitude = centre.latitudeDegrees
        if centreLatitude + capDegrees + dLatitude >= 90 { north = 90 }
        if centreLatitude - capDegrees - dLatitude <= -90 { south = -90 }
        let cosine = Math.sinCosDegrees(min(max(south.magnitude, north.magnitude) + dLatitude, 90)).cos
        let dLongitude = cosine > 1e-9 ? marginMetres / (111_000 * cosine) : 360
        FenceBox.covering(latitudes: (south - dLatitude)...(north + dLatitude), centreLongitude: centreLongitude,
                          west: west - dLongitude, east: east + dLongitude) {
            nodes.append(FenceIndex.Node(box: $0, first: Int32(number), count: 0))
        }
    }
}
