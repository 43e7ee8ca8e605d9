extension Geodesic {
    /// The shortest distance in metres from `point` to the geodesic segment from `start` to
    /// `end` on WGS-84, e.g. 10.000 m for a point 10 m north of the middle of a 1 km segment
    /// along the equator.
    ///
    /// Walks along the segment to the foot of the perpendicular from `point` (Karney's
    /// intercept iteration, "Geodesics on an ellipsoid of revolution", 2011, §8, with the
    /// spherical step), then takes the nearest of foot and ends. Every candidate is a real
    /// point of the segment, so the answer never understates the distance; it converges to
    /// micrometres in a few rounds for points near the segment.
    public static func distance(from point: Coordinate, toSegmentFrom start: Coordinate, to end: Coordinate) -> Double {
        let toStart = start.distance(to: point)
        let toEnd = end.distance(to: point)
        var best = min(toStart, toEnd)
        let line = inverse(start, end)
        guard line.distanceMetres > 1e-3 else { return best }
        // Start at the end the point is nearer to.
        var along = toStart <= toEnd ? 0 : line.distanceMetres
        for _ in 0..<30 {
            let here = direct(latitude: start.latitudeDegrees, longitude: start.longitudeDegrees,
                              azimuthDegrees: line.initialAzimuthDegrees, distanceMetres: along)
            let toPoint = inverse(latitude1: here.latitudeDegrees, longitude1: here.longitudeDegrees,
                                  latitude2: point.latitudeDegrees, longitude2: point.longitudeDegrees)
            best = min(best, toPoint.distanceMetres)
            let turn = Math.sinCosDegrees(toPoint.initialAzimuthDegrees - here.finalAzimuthDegrees)
            let next = min(max(along + toPoint.distanceMetres * turn.cos, 0), line.distanceMetres)
            if abs(next - along) < 1e-6 { break }
            along = next
        }
        return best
    }
}
