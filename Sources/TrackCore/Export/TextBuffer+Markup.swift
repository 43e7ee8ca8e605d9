// Text pieces every export format shares: exact decimals of the stored integers, and labels
// escaped for XML (JSON strings: Text/TextBuffer+JSON.swift).

extension TextBuffer {
    /// Appends `value / 10^decimals` exactly, without trailing zeros after the point (nor a bare
    /// point), e.g. `(481_173_000, 7)` → `"48.1173"`, `(27_400, 1)` → `"2740"`, `(-5, 2)` →
    /// `"-0.05"`.
    public mutating func appendTrimmed(_ value: Int64, decimals: Int) {
        var value = value
        var decimals = decimals
        while decimals > 0 && value % 10 == 0 {
            value /= 10
            decimals -= 1
        }
        appendFixed(value, decimals: decimals)
    }

    /// Appends the UTF-8 of `text` escaped for XML character data and attribute values:
    /// `&`, `<`, `>`, `"` and `'` as entities, control characters XML 1.0 forbids as U+FFFD,
    /// e.g. `fish & chips` → `fish &amp; chips`.
    public mutating func appendXMLEscaped(_ text: String) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"): append("&amp;")
            case UInt8(ascii: "<"): append("&lt;")
            case UInt8(ascii: ">"): append("&gt;")
            case UInt8(ascii: "\""): append("&quot;")
            case UInt8(ascii: "'"): append("&apos;")
            case 0x09, 0x0A, 0x0D: append(byte)
            case 0..<0x20: append("\u{FFFD}")
            default: append(byte)
            }
        }
    }

    /// Appends `<tag>text</tag>` with `text` escaped, e.g. `("name", "a & b")` →
    /// `<name>a &amp; b</name>`.
    public mutating func appendXMLElement(_ tag: StaticString, _ text: String) {
        append(UInt8(ascii: "<"))
        append(tag)
        append(UInt8(ascii: ">"))
        appendXMLEscaped(text)
        append("</")
        append(tag)
        append(UInt8(ascii: ">"))
    }

    /// Appends a latitude or longitude in 1e-7 degrees exactly, trailing zeros dropped,
    /// e.g. `115_167_000` → `"11.5167"`, `-3_234_795` → `"-0.3234795"`.
    public mutating func appendDegreesE7(_ value: Int32) {
        appendTrimmed(Int64(value), decimals: 7)
    }

    /// Appends `lon,lat` or `lon,lat,ele` (GeoJSON and KML order) at the stored precision, e.g.
    /// `11.5167,48.1173,545.4`.
    public mutating func appendLongitudeLatitude(_ position: LogPosition, altitudeDecimetres: Int32?) {
        appendDegreesE7(position.longitudeE7)
        append(UInt8(ascii: ","))
        appendDegreesE7(position.latitudeE7)
        if let altitudeDecimetres {
            append(UInt8(ascii: ","))
            appendTrimmed(Int64(altitudeDecimetres), decimals: 1)
        }
    }

    /// Appends an ISO 8601 time as `writeCompact` does, e.g. `2026-11-30T12:00:00Z`.
    public mutating func append(time: UTCTime) {
        time.writeCompact(to: &self)
    }
}
