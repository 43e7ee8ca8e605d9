extension FenceSet {
    /// Fence `fence`'s outline as rings of coordinates, for drawing: a circle as 72 points on
    /// its geodesic radius, a polygon as its rings (outer rings and holes) back out of the
    /// fence's plane. Each ring is closed (last point equals the first). Example: the 150 m
    /// circle `home` → one ring of 73 points, each 150 m from the centre.
    public func outline(of fence: Int) -> [[Coordinate]] {
        let shape = image.shape(fence)
        if shape.rings.isEmpty {
            var ring: [Coordinate] = []
            for step in 0...72 {
                ring.append(Geodesic.direct(from: shape.centre, azimuthDegrees: Double(step % 72) * 5,
                                            distanceMetres: shape.radiusMetres))
            }
            return [ring]
        }
        var result: [[Coordinate]] = []
        let bounds = image.ringBounds
        let vertices = image.vertexValues
        for ring in shape.rings {
            var points: [Coordinate] = []
            for vertex in Int(bounds[2 * ring])..<Int(bounds[2 * ring + 1]) {
                points.append(shape.plane.unproject(east: vertices[2 * vertex], north: vertices[2 * vertex + 1]))
            }
            result.append(points)
        }
        return result
    }
}

extension LocalPlane {
    /// The point at (east, north) plane metres, the inverse of `project`, rounded to nanodegrees.
    public func unproject(east eastward: Double, north northward: Double) -> Coordinate {
        let a = eastward / eastMetres
        let b = northward / northMetres
        let x = centre.x + a * east.x + b * north.x
        let y = centre.y + a * east.y + b * north.y
        let z = centre.z + a * east.z + b * north.z
        let latitude = Math.atan2Degrees(z, Math.hypot(x, y))
        let longitude = Math.atan2Degrees(y, x)
        return Coordinate(latitudeNanodegrees: Geodesic.nanodegrees(latitude),
                          longitudeNanodegrees: Geodesic.nanodegrees(longitude))
    }
}
