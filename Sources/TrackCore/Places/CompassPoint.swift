/// One of the eight compass points, the direction a person gives, e.g. azimuth 46.8° → `.northEast` ("NE").
public enum CompassPoint: UInt8, Equatable, Sendable, CaseIterable {
    case north, northEast, east, southEast, south, southWest, west, northWest

    /// The point an azimuth (degrees clockwise from north, any value) falls in: each covers
    /// 45°, centred on its direction, e.g. 22.4° → N, 22.5° → NE, −10° → N, 200° → S.
    public init(azimuthDegrees: Double) {
        var degrees = Math.normalizedDegrees(azimuthDegrees)
        if degrees < 0 { degrees += 360 }
        let sector = Int((degrees + 22.5) / 45) % 8
        self = CompassPoint(rawValue: UInt8(sector)) ?? .north
    }

    /// The abbreviation, e.g. `NE`.
    public var abbreviation: StaticString {
        switch self {
        case .north: "N"
        case .northEast: "NE"
        case .east: "E"
        case .southEast: "SE"
        case .south: "S"
        case .southWest: "SW"
        case .west: "W"
        case .northWest: "NW"
        }
    }
}
