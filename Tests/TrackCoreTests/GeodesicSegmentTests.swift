import Testing
import TrackCore

/// The segment distance against an independent answer: the minimum over 2,001 points along
/// the geodesic (refined around the best by a golden-section search), for random segments of
/// 10 m to 1,000 km anywhere on earth and points off them, beyond their ends included.
@Test func segmentDistanceMatchesADenseSearch() {
    var g = SplitMix64(seed: 0x5E6)
    for _ in 0..<40 {
        let latitude = Double.random(in: -85...85, using: &g)
        let longitude = Double.random(in: -180...180, using: &g)
        let azimuth = Double.random(in: -180...180, using: &g)
        let length = [10.0, 1_000, 50_000, 1_000_000][Int.random(in: 0..<4, using: &g)]
        let end = Geodesic.direct(latitude: latitude, longitude: longitude, azimuthDegrees: azimuth, distanceMetres: length)
        let foot = Geodesic.direct(latitude: latitude, longitude: longitude, azimuthDegrees: azimuth,
                                   distanceMetres: length * Double.random(in: -0.2...1.2, using: &g))
        let point = Geodesic.direct(latitude: foot.latitudeDegrees, longitude: foot.longitudeDegrees,
                                    azimuthDegrees: foot.finalAzimuthDegrees + 90,
                                    distanceMetres: Double.random(in: -100...100, using: &g))
        let p = (point.latitudeDegrees, point.longitudeDegrees)
        func distance(at along: Double) -> Double {
            let here = Geodesic.direct(latitude: latitude, longitude: longitude, azimuthDegrees: azimuth, distanceMetres: along)
            return Geodesic.inverse(latitude1: here.latitudeDegrees, longitude1: here.longitudeDegrees,
                                    latitude2: p.0, longitude2: p.1).distanceMetres
        }
        var bestAlong = 0.0
        var best = distance(at: 0)
        for step in 1...2000 {
            let along = length * Double(step) / 2000
            let d = distance(at: along)
            if d < best { best = d; bestAlong = along }
        }
        var low = max(bestAlong - length / 2000, 0)
        var high = min(bestAlong + length / 2000, length)
        for _ in 0..<60 {
            let a = low + (high - low) * 0.382
            let b = low + (high - low) * 0.618
            if distance(at: a) < distance(at: b) { high = b } else { low = a }
        }
        best = min(best, distance(at: (low + high) / 2))
        let start = Coordinate(latitudeNanodegrees: Int64((latitude * 1e9).rounded()), longitudeNanodegrees: Int64((longitude * 1e9).rounded()))
        let found = Geodesic.distance(from: Coordinate(latitudeNanodegrees: Int64((p.0 * 1e9).rounded()),
                                                       longitudeNanodegrees: Int64((p.1 * 1e9).rounded())),
                                      toSegmentFrom: start, to: end.end)
        // Nanodegree rounding of the three positions moves things by up to ~0.2 mm.
        #expect(abs(found - best) < 0.001, "segment \(length) m: found \(found), search \(best)")
    }
}
