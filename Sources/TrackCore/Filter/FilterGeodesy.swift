/// Distance in metres and initial bearing in degrees (0 north, 90 east, 0 ≤ bearing < 360)
/// from `a` to `b` on the WGS-84 ellipsoid; 0 m and 0° for equal points.
///
/// The one place the filter and the sampling policy measure: Karney's geodesic, exact to
/// nanometres, so thresholds mean what they say at any latitude and across the antimeridian.
func geodesicDistanceAndBearing(_ a: Coordinate, _ b: Coordinate) -> (metres: Double, degrees: Double) {
    if a == b { return (0, 0) }
    let inverse = Geodesic.inverse(a, b)
    var bearing = inverse.initialAzimuthDegrees
    if bearing < 0 { bearing += 360 }
    if bearing >= 360 { bearing -= 360 }
    return (inverse.distanceMetres, bearing)
}
