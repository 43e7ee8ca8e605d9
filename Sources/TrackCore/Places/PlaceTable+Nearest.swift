/// The nearest place to a position and how far and which way it lies from the place, e.g.
/// 48.5400°N 9.0800°E → Tübingen, 2,815.6 m, azimuth 46.8° (from Tübingen towards the position).
public struct PlaceMatch: Equatable, Sendable {
    /// The place's index in the table.
    public var index: Int
    /// Geodesic distance on WGS-84 between the place and the position, in metres.
    public var distanceMetres: Double
    /// Initial azimuth of the geodesic from the place to the position, degrees clockwise from
    /// north, −180…180.
    public var azimuthDegrees: Double

    /// A match from its parts.
    public init(index: Int, distanceMetres: Double, azimuthDegrees: Double) {
        self.index = index
        self.distanceMetres = distanceMetres
        self.azimuthDegrees = azimuthDegrees
    }
}

extension PlaceTable {
    /// A radius no geodesic on WGS-84 in geodetic coordinates is shorter than, per radian of
    /// great-circle angle on the unit sphere: the ellipsoid's line element is at least
    /// a(1 − e²) = 6,335,439 m times the sphere's (the meridian radius at the equator is the
    /// smallest of both principal radii), so radius × angle bounds every distance from below.
    /// Rounded down for the floating point of the bound itself.
    static var lowerBoundRadiusMetres: Double { 6_335_000 }

    /// The place nearest to `coordinate` by geodesic distance, if one lies within
    /// `withinMetres`; ties go to the lower index, as a scan of the whole table in order would.
    /// No heap allocation; reads only the tree nodes whose boxes could hold a nearer place.
    ///
    /// Walks the k-d tree nearer side first and prunes a subtree when a lower bound of the
    /// distance to its box (latitude gap, and the distance to the nearest meridian the box can
    /// reach) exceeds the best distance so far. Example: `nearest(to: 48.54°N 9.08°E,
    /// withinMetres: 50_000, in: bytes)` → Tübingen at 2,816 m.
    public func nearest(to coordinate: Coordinate, withinMetres limit: Double, in bytes: Span<UInt8>) -> PlaceMatch? {
        guard placeCount > 0, limit >= 0 else { return nil }
        var search = NearestSearch(coordinate, limitMetres: limit)
        search.visit(self, bytes, low: 0, high: placeCount - 1, axis: 0,
                     box: NearestSearch.Box(south: -90, north: 90, west: -180, east: 180))
        guard search.bestIndex >= 0 else { return nil }
        return PlaceMatch(index: search.bestIndex, distanceMetres: search.bestMetres,
                          azimuthDegrees: search.bestAzimuth)
    }

    /// The geodesic from place `index` to `coordinate`: distance and initial azimuth.
    public func geodesic(from index: Int, to coordinate: Coordinate, in bytes: Span<UInt8>) -> GeodesicInverse {
        Geodesic.inverse(position(index, in: bytes).coordinate, coordinate)
    }
}

/// The state of one nearest-place search: the query and the best place so far.
struct NearestSearch {
    /// A latitude/longitude box in degrees, west ≤ east (boxes never wrap: the tree splits
    /// the plain −180…180 range).
    struct Box {
        var south: Double
        var north: Double
        var west: Double
        var east: Double
    }

    let query: Coordinate
    let latitude: Double
    let longitude: Double
    let cosLatitude: Double
    var bestMetres: Double
    var bestIndex = -1
    var bestAzimuth = 0.0

    init(_ query: Coordinate, limitMetres: Double) {
        self.query = query
        latitude = query.latitudeDegrees
        longitude = Math.normalizedDegrees(query.longitudeDegrees)
        cosLatitude = Math.sinCosDegrees(latitude).cos
        bestMetres = limitMetres
    }

    /// Nodes `low...high` of the implicit tree, split on longitude (axis 0) or latitude (1).
    mutating func visit(_ table: PlaceTable, _ bytes: Span<UInt8>, low: Int, high: Int, axis: Int, box: Box) {
        if high - low <= table.leafSize {
            var index = low
            while index <= high {
                consider(index, table, bytes)
                index += 1
            }
            return
        }
        let middle = (low + high) >> 1
        let split = table.position(middle, in: bytes)
        consider(middle, table, bytes)
        var below = box
        var above = box
        let value: Double
        if axis == 0 {
            let degrees = Double(split.longitudeE7) / 1e7
            below.east = degrees
            above.west = degrees
            value = longitude
        } else {
            let degrees = Double(split.latitudeE7) / 1e7
            below.north = degrees
            above.south = degrees
            value = latitude
        }
        let belowFirst = value < (axis == 0 ? below.east : below.north)
        let first = belowFirst ? below : above
        let second = belowFirst ? above : below
        let firstLow = belowFirst ? low : middle + 1
        let firstHigh = belowFirst ? middle - 1 : high
        let secondLow = belowFirst ? middle + 1 : low
        let secondHigh = belowFirst ? high : middle - 1
        if lowerBoundMetres(first) <= bestMetres {
            visit(table, bytes, low: firstLow, high: firstHigh, axis: 1 - axis, box: first)
        }
        if lowerBoundMetres(second) <= bestMetres {
            visit(table, bytes, low: secondLow, high: secondHigh, axis: 1 - axis, box: second)
        }
    }

    /// Measures place `index` when its own bound does not rule it out.
    mutating func consider(_ index: Int, _ table: PlaceTable, _ bytes: Span<UInt8>) {
        let position = table.position(index, in: bytes)
        let latitudeDegrees = Double(position.latitudeE7) / 1e7
        let longitudeDegrees = Double(position.longitudeE7) / 1e7
        let point = Box(south: latitudeDegrees, north: latitudeDegrees, west: longitudeDegrees, east: longitudeDegrees)
        guard lowerBoundMetres(point) <= bestMetres else { return }
        let line = Geodesic.inverse(position.coordinate, query)
        let metres = line.distanceMetres
        guard metres < bestMetres || (metres == bestMetres && (bestIndex < 0 || index < bestIndex)) else { return }
        bestMetres = metres
        bestIndex = index
        bestAzimuth = line.initialAzimuthDegrees
    }

    /// A distance in metres that no point of `box` is nearer than.
    ///
    /// Two bounds on the unit sphere, the larger taken: the latitude gap (a path changes
    /// latitude at most as fast as it runs), and the distance to the nearest meridian the box
    /// reaches, Δλ of longitude away: asin(cos φ · sin Δλ) up to 90°, beyond that the nearer
    /// pole, 90° − |φ| (the distance to a half-meridian grows with Δλ, so the nearest one bounds
    /// them all). Times `lowerBoundRadiusMetres`.
    func lowerBoundMetres(_ box: Box) -> Double {
        var degrees = 0.0
        if latitude < box.south { degrees = box.south - latitude }
        if latitude > box.north { degrees = latitude - box.north }
        if longitude < box.west || longitude > box.east {
            let gap = min(Self.eastward(from: box.east, to: longitude), Self.eastward(from: longitude, to: box.west))
            let meridian: Double
            if gap >= 90 {
                meridian = 90 - abs(latitude)
            } else {
                let sine = min(cosLatitude * Math.sinCosDegrees(gap).sin, 1)
                meridian = Math.atan2Degrees(sine, Math.squareRoot(max(0, 1 - sine * sine)))
            }
            degrees = max(degrees, meridian)
        }
        return degrees * (Double.pi / 180) * PlaceTable.lowerBoundRadiusMetres
    }

    /// Degrees east from `start` to `end`, 0 ≤ result < 360.
    static func eastward(from start: Double, to end: Double) -> Double {
        var difference = end - start
        while difference < 0 { difference += 360 }
        while difference >= 360 { difference -= 360 }
        return difference
    }
}
