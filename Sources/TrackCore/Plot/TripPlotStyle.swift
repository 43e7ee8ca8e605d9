/// The plot's colours and number formats. Speeds run from blue (slow) through green and
/// yellow to red (fast) in `TripPlotStyle.buckets` steps, so a person reads the track's speed
/// from its colour and the legend's scale.
public enum TripPlotStyle {
    /// Speed steps of the track's colour scale.
    public static var buckets: Int { 12 }

    /// The colour stops, slow to fast (RGB).
    static let stops: [(Double, Double, Double)] = [
        (44, 123, 182), (0, 166, 202), (0, 204, 188), (144, 235, 157), (249, 208, 87), (242, 158, 46), (215, 25, 28),
    ]

    /// The colour of speed step `bucket` (0 slowest … buckets − 1), e.g. 0 → `#2c7bb6`.
    public static func colour(_ bucket: Int) -> (red: Int, green: Int, blue: Int) {
        let position = Double(min(max(bucket, 0), buckets - 1)) / Double(buckets - 1) * Double(stops.count - 1)
        let low = min(Int(position), stops.count - 2)
        let fraction = position - Double(low)
        func mix(_ a: Double, _ b: Double) -> Int { Int(a + (b - a) * fraction + 0.5) }
        return (mix(stops[low].0, stops[low + 1].0), mix(stops[low].1, stops[low + 1].1), mix(stops[low].2, stops[low + 1].2))
    }

    /// `#rrggbb` of speed step `bucket`.
    public static func hex(_ bucket: Int) -> String {
        let rgb = colour(bucket)
        return "#" + byte(rgb.red) + byte(rgb.green) + byte(rgb.blue)
    }

    static func byte(_ value: Int) -> String {
        let digits: [Character] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "a", "b", "c", "d", "e", "f"]
        return String(digits[(value >> 4) & 15]) + String(digits[value & 15])
    }

    /// `value` with one decimal, rounded half away from zero, e.g. 12.25 → `12.3`, −0.04 → `0`.
    static func number(_ value: Double) -> String {
        let scaled = value * 10
        let tenths = Int64(scaled + (scaled < 0 ? -0.5 : 0.5))
        let whole = tenths / 10
        let fraction = (tenths % 10).magnitude
        if fraction == 0 { return String(whole) }
        return (tenths < 0 && whole == 0 ? "-" : "") + String(whole) + "." + String(fraction)
    }

    /// Text escaped for SVG (XML) content and attributes.
    static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default:
                if let ascii = character.asciiValue, ascii < 0x20 { out += " " } else { out.append(character) }
            }
        }
        return out
    }

    /// A round length near `metres` for the scale bar: 1, 2 or 5 times a power of ten.
    static func niceLength(_ metres: Double) -> Double {
        var power = 1.0
        while power * 10 <= metres { power *= 10 }
        while power > metres && power > 1 { power /= 10 }
        for factor in [5.0, 2.0, 1.0] where factor * power <= metres { return factor * power }
        return power
    }
}
