import Testing
@testable import TrackCore

/// Published WGS-84 → GCJ-02 pairs from other implementations: (wgs lat, lon, gcj lat, lon,
/// tolerance °). eviltransform computes with the WGS-84 equatorial radius where the common
/// form (and this one) uses Krasovsky's, which moves its answers by up to ~1e-6°.
private let gcjVectors: [(Double, Double, Double, Double, Double)] = [
    (39.90734, 116.39089, 39.90874107, 116.39713094, 1e-8),                   // R package "geoChina"-style test
    (40.0, 116.0, 40.001213650174, 116.006141221789, 1e-7),                   // geoToolbox test
    (39.915, 116.404, 39.91640428150164, 116.41024449916938, 1e-9),           // coordtransform README
    (31.1774276, 121.5272106, 31.17530398364597, 121.531541859215, 2e-6),     // eviltransform, Shanghai
    (22.543847, 113.912316, 22.540796131694766, 113.9171764808363, 2e-6),     // eviltransform, Shenzhen
    (39.911954, 116.377817, 39.91334545536069, 116.38404722455657, 2e-6),     // eviltransform, Beijing
]

@Test(arguments: gcjVectors.indices)
func gcj02MatchesPublishedValues(index: Int) {
    let (latitude, longitude, gcjLatitude, gcjLongitude, tolerance) = gcjVectors[index]
    let gcj = Datum.gcj02.fromWGS84(latitude: latitude, longitude: longitude)
    #expect(abs(gcj.latitude - gcjLatitude) < tolerance)
    #expect(abs(gcj.longitude - gcjLongitude) < tolerance)
}

@Test func bd09MatchesPublishedValues() {
    // coordtransform's README: gcj02tobd09(116.404, 39.915).
    let bd = Datum.bdFromGCJ(39.915, 116.404)
    #expect(abs(bd.latitude - 39.92133699351022) < 1e-9)
    #expect(abs(bd.longitude - 116.41036949371029) < 1e-9)
    // eviltransform's BD-09 → WGS-84 pair; its inverse is a one-step approximation good to
    // about 10 m (1e-4°), ours iterates to the exact one.
    let wgs = Datum.bd09.toWGS84(latitude: 29.199786, longitude: 120.019809)
    #expect(abs(wgs.latitude - 29.196131605295484) < 1e-4)
    #expect(abs(wgs.longitude - 120.00877901149691) < 1e-4)
    let forward = Datum.bd09.fromWGS84(latitude: wgs.latitude, longitude: wgs.longitude)
    #expect(abs(forward.latitude - 29.199786) < 1e-10 && abs(forward.longitude - 120.019809) < 1e-10)
}

@Test(arguments: Datum.allCases)
func outsideChinaEveryDatumIsTheIdentity(datum: Datum) {
    for (latitude, longitude) in [(48.1173, 11.5167), (-33.9, 151.2), (0.5, 100.0), (56.0, 120.0), (30.0, 71.9), (30.0, 138.0)] {
        let moved = datum.fromWGS84(latitude: latitude, longitude: longitude)
        #expect(moved.latitude == latitude && moved.longitude == longitude)
        let back = datum.toWGS84(latitude: latitude, longitude: longitude)
        #expect(back.latitude == latitude && back.longitude == longitude)
    }
    let munich = LogPosition(latitudeE7: 481_173_000, longitudeE7: 115_167_000)
    #expect(datum.fromWGS84(munich) == munich)
}

@Test(arguments: [Datum.gcj02, .bd09])
func theInverseIsWithinAMillimetreEverywhereInChina(datum: Datum) {
    // A seeded grid of 20,000 points over the box, kept 0.05° inside its edges (where the
    // transform itself jumps).
    var g = SplitMix64(seed: 0xC41A)
    var worst = 0.0
    for _ in 0..<20_000 {
        let latitude = Double.random(in: 0.88...55.77, using: &g)
        let longitude = Double.random(in: 72.06...137.78, using: &g)
        let shifted = datum.fromWGS84(latitude: latitude, longitude: longitude)
        let back = datum.toWGS84(latitude: shifted.latitude, longitude: shifted.longitude)
        let error = Geodesic.inverse(latitude1: latitude, longitude1: longitude,
                                     latitude2: back.latitude, longitude2: back.longitude).distanceMetres
        worst = max(worst, error)
        // And the shift is real: GCJ-02 moves points by tens to hundreds of metres.
        let moved = Geodesic.inverse(latitude1: latitude, longitude1: longitude,
                                     latitude2: shifted.latitude, longitude2: shifted.longitude).distanceMetres
        #expect(moved > 1 && moved < 2_000)
    }
    #expect(worst < 0.001, "worst round trip \(worst) m")
}

@Test func theLogPositionFormRoundsToTheStoredPrecision() {
    let tiananmen = LogPosition(latitudeE7: 399_087_000, longitudeE7: 1_163_975_000)
    let gcj = Datum.gcj02.fromWGS84(tiananmen)
    let exact = Datum.gcj02.fromWGS84(latitude: 39.9087, longitude: 116.3975)
    #expect(abs(Double(gcj.latitudeE7) / 1e7 - exact.latitude) <= 0.5e-7)
    #expect(abs(Double(gcj.longitudeE7) / 1e7 - exact.longitude) <= 0.5e-7)
    #expect(Datum.wgs84.fromWGS84(tiananmen) == tiananmen)
}
