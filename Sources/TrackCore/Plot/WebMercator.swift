/// Web Mercator (EPSG:3857) in units of the whole map: x 0…1 west to east from −180°, y 0…1
/// north to south, the square every web map tiles, e.g. (0°, 0°) → (0.5, 0.5) and 85.0511°N
/// → y 0. Latitudes are clamped to ±85.0511° as web maps do. Pure Swift arithmetic, so the
/// host and firmware builds draw the same bytes.
public enum WebMercator {
    /// The latitude where y reaches 0 and 1.
    public static var latitudeLimitDegrees: Double { 85.05112878 }

    /// The map position of `coordinate`.
    public static func project(_ coordinate: Coordinate) -> (x: Double, y: Double) {
        let latitude = min(max(coordinate.latitudeDegrees, -latitudeLimitDegrees), latitudeLimitDegrees)
        let sine = Math.sinCosDegrees(latitude).sin
        let y = 0.5 - atanh(sine) / (2 * Double.pi)
        return ((coordinate.longitudeDegrees + 180) / 360, y)
    }

    /// Metres on the ground per unit of map at `latitudeDegrees` (the equator's 40,075,017 m
    /// times the cosine of the latitude).
    public static func metresPerUnit(latitudeDegrees: Double) -> Double {
        2 * Double.pi * Geodesic.equatorialRadiusMetres * Math.sinCosDegrees(latitudeDegrees).cos
    }

    /// The inverse hyperbolic tangent for |x| < 1: ½·ln((1 + x)/(1 − x)).
    static func atanh(_ x: Double) -> Double {
        0.5 * logarithm((1 + x) / (1 - x))
    }

    /// The natural logarithm of a positive finite `x`: x = m·2^e with m in [√½, √2), then
    /// ln m = 2·atanh((m − 1)/(m + 1)) by its series (|t| ≤ 0.172: 13 terms reach 1e-20).
    static func logarithm(_ x: Double) -> Double {
        guard x > 0, x.isFinite else { return x == 0 ? -.infinity : .nan }
        var exponent = Double(x.exponent)
        var mantissa = x.significand
        if mantissa > 1.4142135623730951 {
            mantissa /= 2
            exponent += 1
        }
        let t = (mantissa - 1) / (mantissa + 1)
        let t2 = t * t
        var term = t
        var sum = 0.0
        var k = 1.0
        for _ in 0..<13 {
            sum += term / k
            term *= t2
            k += 2
        }
        return 2 * sum + exponent * 0.6931471805599453
    }
}
