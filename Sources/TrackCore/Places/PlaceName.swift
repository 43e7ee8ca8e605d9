/// Where a position is, said as a person would: `in Tübingen, Baden-Wurttemberg, DE` inside
/// the nearest place's radius (`PlaceRecord.radiusMetres`), `3.2 km NE of Tübingen,
/// Baden-Wurttemberg, DE` outside it, and the coordinate text (`48.540000°N, 9.080000°E`)
/// when no place lies within `PlaceName.defaultLimitMetres` or no gazetteer is installed.
///
/// A value without heap storage: the place's texts stay in the table, so writing the words
/// takes the table's bytes again. Example:
///
///     let name = PlaceName.lookUp(position, table: table, bytes: bytes)
///     var line = TextBuffer()
///     name.write(to: &line, bytes: bytes)                  // "2.8 km NE of Tübingen, …"
public struct PlaceName: Equatable, Sendable {
    /// How far a place may be and still name a position: 50 km.
    public static var defaultLimitMetres: Double { 50_000 }

    /// The position that was looked up.
    public var position: Coordinate
    /// The nearest place, its distance and the azimuth from it; nil for the coordinate text.
    public var match: PlaceMatch?
    /// What the table holds about the place.
    public var place: PlaceRecord?
    /// Distances in whole kilometres (approximate mode: nothing finer than its ~1 km grid).
    public var wholeKilometres: Bool

    /// A name from its parts.
    public init(position: Coordinate, match: PlaceMatch? = nil, place: PlaceRecord? = nil, wholeKilometres: Bool = false) {
        self.position = position
        self.match = match
        self.place = place
        self.wholeKilometres = wholeKilometres
    }

    /// The name of `position` from the nearest place of `table` within `limitMetres`.
    public static func lookUp(_ position: Coordinate, table: PlaceTable, bytes: Span<UInt8>,
                              limitMetres: Double = defaultLimitMetres, wholeKilometres: Bool = false) -> PlaceName {
        guard let match = table.nearest(to: position, withinMetres: limitMetres, in: bytes) else {
            return PlaceName(position: position, wholeKilometres: wholeKilometres)
        }
        return PlaceName(position: position, match: match, place: table.place(match.index, in: bytes),
                         wholeKilometres: wholeKilometres)
    }

    /// True when the position lies within the place's radius ("in Tübingen").
    public var isInside: Bool {
        guard let match, let place else { return false }
        return match.distanceMetres <= place.radiusMetres
    }

    /// The compass point from the place to the position; nil without a place.
    public var compassPoint: CompassPoint? {
        match.map { CompassPoint(azimuthDegrees: $0.azimuthDegrees) }
    }

    /// Appends the words to `out` without allocating; `bytes` are the table's (any span when
    /// there is no place).
    public func write(to out: inout TextBuffer, bytes: Span<UInt8>) {
        guard let match, let place, let compass = compassPoint else {
            out.append(position)
            return
        }
        if isInside {
            out.append("in ")
        } else {
            Self.appendDistance(match.distanceMetres, wholeKilometres: wholeKilometres, &out)
            out.append(UInt8(ascii: " "))
            out.append(compass.abbreviation)
            out.append(" of ")
        }
        Self.appendPlace(place, bytes: bytes, &out)
    }

    /// `Tübingen, Baden-Wurttemberg, DE` (the region left out when the place has none).
    public static func appendPlace(_ place: PlaceRecord, bytes: Span<UInt8>, _ out: inout TextBuffer) {
        out.append(bytes: bytes.extracting(place.name.offset..<(place.name.offset + place.name.count)))
        if place.admin1.count > 0 {
            out.append(", ")
            out.append(bytes: bytes.extracting(place.admin1.offset..<(place.admin1.offset + place.admin1.count)))
        }
        out.append(", ")
        out.append(place.countryCode.0)
        out.append(place.countryCode.1)
    }

    /// `3.2 km` below 10 km, `41 km` from there on, or always whole kilometres.
    static func appendDistance(_ metres: Double, wholeKilometres: Bool, _ out: inout TextBuffer) {
        let hectometres = Int64((max(metres, 0) + 50) / 100)
        if wholeKilometres || hectometres >= 100 {
            out.append(integer: Int64((max(metres, 0) + 500) / 1000))
        } else {
            out.appendFixed(hectometres, decimals: 1)
        }
        out.append(" km")
    }

    /// The words as a String (allocates: the command line and tests).
    public func text(bytes: Span<UInt8>) -> String {
        var out = TextBuffer()
        write(to: &out, bytes: bytes)
        return out.string
    }
}
