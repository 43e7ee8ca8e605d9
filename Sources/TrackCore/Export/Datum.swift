// The datums Chinese maps use. GCJ-02 is WGS-84 moved by an obfuscating offset of a few hundred
// metres that varies smoothly with position; BD-09 is Baidu's further shift of GCJ-02. Both are
// defined only inside China; everywhere else the offset is zero (identity), by the same box the
// published implementations (eviltransform, coordtransform) and the map SDKs use.

/// The datum of exported positions: WGS-84 (as the receiver gives it), GCJ-02 (AutoNavi/Amap,
/// Tencent, Google Maps in China) or BD-09 (Baidu).
///
/// `Datum.gcj02.fromWGS84(latitude: 39.9087, longitude: 116.3975)` is about (39.9101, 116.4037):
/// Tiananmen moves 570 m; `toWGS84` undoes it to under a millimetre. Outside `Datum.chinaBox`
/// both are the identity.
public enum Datum: String, Equatable, Sendable, CaseIterable {
    /// WGS-84: no change.
    case wgs84
    /// GCJ-02 ("Mars coordinates").
    case gcj02
    /// BD-09 (Baidu), GCJ-02 shifted again.
    case bd09

    /// The region where GCJ-02 and BD-09 differ from WGS-84: latitude 0.8293…55.8271°N,
    /// longitude 72.004…137.8347°E, the usual China box. It also covers neighbouring areas
    /// (e.g. Mongolia, parts of Korea and Vietnam), as the Chinese map services do; Taiwan,
    /// Hong Kong and Macau are inside too.
    public static func inChina(latitude: Double, longitude: Double) -> Bool {
        latitude >= 0.8293 && latitude <= 55.8271 && longitude >= 72.004 && longitude <= 137.8347
    }

    /// The WGS-84 position in this datum, in degrees, e.g. GCJ-02 of (39.9087, 116.3975) is
    /// (39.91012, 116.40374). Identity for `.wgs84` and outside China.
    public func fromWGS84(latitude: Double, longitude: Double) -> (latitude: Double, longitude: Double) {
        guard self != .wgs84, Datum.inChina(latitude: latitude, longitude: longitude) else {
            return (latitude, longitude)
        }
        let gcj = Datum.gcjFromWGS(latitude, longitude)
        return self == .gcj02 ? gcj : Datum.bdFromGCJ(gcj.latitude, gcj.longitude)
    }

    /// The WGS-84 position that `fromWGS84` maps to (`latitude`, `longitude`), found by
    /// iteration until the forward transform reproduces the input to 1e-11° (about 1 µm), e.g.
    /// GCJ-02 (39.91012, 116.40374) → (39.9087, 116.3975). Identity for `.wgs84` and for
    /// positions outside China.
    public func toWGS84(latitude: Double, longitude: Double) -> (latitude: Double, longitude: Double) {
        guard self != .wgs84, Datum.inChina(latitude: latitude, longitude: longitude) else {
            return (latitude, longitude)
        }
        // Start from the target moved back by the offset there, then correct by the residual:
        // the offset changes by far less than its own size over its size, so this converges
        // geometrically (three to six rounds for a micrometre).
        var guess = (latitude: latitude, longitude: longitude)
        for _ in 0..<40 {
            let forward = fromWGS84(latitude: guess.latitude, longitude: guess.longitude)
            let dLatitude = forward.latitude - latitude
            let dLongitude = forward.longitude - longitude
            if abs(dLatitude) < 1e-11 && abs(dLongitude) < 1e-11 { break }
            guess = (guess.latitude - dLatitude, guess.longitude - dLongitude)
        }
        return guess
    }

    /// `position` (WGS-84) in this datum at the log's precision (rounded to 1e-7°).
    public func fromWGS84(_ position: LogPosition) -> LogPosition {
        guard self != .wgs84 else { return position }
        let moved = fromWGS84(latitude: Double(position.latitudeE7) / 1e7, longitude: Double(position.longitudeE7) / 1e7)
        return LogPosition(latitudeE7: Datum.e7(moved.latitude), longitudeE7: Datum.e7(moved.longitude))
    }

    static func e7(_ degrees: Double) -> Int32 {
        let scaled = degrees * 1e7
        return Int32(clamping: Int64(scaled + (scaled < 0 ? -0.5 : 0.5)))
    }
}

extension Datum {
    // Krasovsky 1940, which GCJ-02's published form uses.
    static let krasovskyA = 6_378_245.0
    static let krasovskyE2 = 0.006_693_421_622_965_943_23
    static let pi = 3.141_592_653_589_793_238_46
    static let baiduXPi = 3.141_592_653_589_793_238_46 * 3000.0 / 180.0

    static func gcjFromWGS(_ latitude: Double, _ longitude: Double) -> (latitude: Double, longitude: Double) {
        let x = longitude - 105.0
        let y = latitude - 35.0
        var dLatitude = -100.0 + 2.0 * x + 3.0 * y + 0.2 * y * y + 0.1 * x * y + 0.2 * Math.squareRoot(abs(x))
        dLatitude += (20.0 * Math.sin(6.0 * x * pi) + 20.0 * Math.sin(2.0 * x * pi)) * 2.0 / 3.0
        dLatitude += (20.0 * Math.sin(y * pi) + 40.0 * Math.sin(y / 3.0 * pi)) * 2.0 / 3.0
        dLatitude += (160.0 * Math.sin(y / 12.0 * pi) + 320.0 * Math.sin(y * pi / 30.0)) * 2.0 / 3.0
        var dLongitude = 300.0 + x + 2.0 * y + 0.1 * x * x + 0.1 * x * y + 0.1 * Math.squareRoot(abs(x))
        dLongitude += (20.0 * Math.sin(6.0 * x * pi) + 20.0 * Math.sin(2.0 * x * pi)) * 2.0 / 3.0
        dLongitude += (20.0 * Math.sin(x * pi) + 40.0 * Math.sin(x / 3.0 * pi)) * 2.0 / 3.0
        dLongitude += (150.0 * Math.sin(x / 12.0 * pi) + 300.0 * Math.sin(x / 30.0 * pi)) * 2.0 / 3.0
        let radians = latitude / 180.0 * pi
        let sine = Math.sin(radians)
        let magic = 1 - krasovskyE2 * sine * sine
        let root = Math.squareRoot(magic)
        dLatitude = (dLatitude * 180.0) / ((krasovskyA * (1 - krasovskyE2)) / (magic * root) * pi)
        dLongitude = (dLongitude * 180.0) / (krasovskyA / root * Math.cos(radians) * pi)
        return (latitude + dLatitude, longitude + dLongitude)
    }

    static func bdFromGCJ(_ latitude: Double, _ longitude: Double) -> (latitude: Double, longitude: Double) {
        let x = longitude
        let y = latitude
        let z = Math.squareRoot(x * x + y * y) + 0.000_02 * Math.sin(y * baiduXPi)
        let theta = Math.atan2(y, x) + 0.000_003 * Math.cos(x * baiduXPi)
        let sinCos = Math.sinCos(theta)
        return (z * sinCos.sin + 0.006, z * sinCos.cos + 0.0065)
    }
}
