import Foundation
import TestData
import Testing
import TrackCore

/// The gazetteer scripts/build-places compiles (scripts/setup runs it) into
/// `.build/places/places.bin`, read whole for the tests.
enum PlaceTestTable {
    static let path: String = TestData.gazetteer

    static let bytes: [UInt8]? = FileManager.default.contents(atPath: path).map { [UInt8]($0) }

    /// The bytes and table, or nil after recording why the tests cannot run (a test that
    /// needs them is `.needsGazetteer`, so absent is a skip, and this a damaged table).
    static func load() -> ([UInt8], PlaceTable)? {
        guard let bytes else {
            Issue.record("no gazetteer at \(path): run scripts/build-places (scripts/setup does)")
            return nil
        }
        do {
            return (bytes, try PlaceTable(bytes.span))
        } catch {
            Issue.record("\(path): \(error.description)")
            return nil
        }
    }
}

/// The nearest place by scanning the whole table with geodesic distances: places sorted by
/// latitude, walked outwards from the query's latitude until the latitude gap alone is farther
/// than the best distance; a spherical lower bound (haversine on a sphere of the smallest
/// radius of curvature) skips the geodesics that cannot win. Exact, and independent of the
/// table's tree.
struct BruteForcePlaces {
    struct Entry {
        var index: Int
        var latitude: Double
        var longitude: Double
        var coordinate: Coordinate
    }

    let entries: [Entry]
    /// Metres per degree of latitude, at least, on WGS-84 (a(1 − e²) · π/180).
    static let metresPerDegree = 6_335_000.0 * Double.pi / 180

    init(_ table: PlaceTable, _ bytes: [UInt8]) {
        var entries: [Entry] = []
        for index in 0..<table.placeCount {
            let position = table.position(index, in: bytes.span)
            entries.append(Entry(index: index, latitude: Double(position.latitudeE7) / 1e7,
                                 longitude: Double(position.longitudeE7) / 1e7, coordinate: position.coordinate))
        }
        self.entries = entries.sorted { ($0.latitude, $0.index) < ($1.latitude, $1.index) }
    }

    func nearest(to query: Coordinate) -> PlaceMatch? {
        let latitude = query.latitudeDegrees
        var best = Double.infinity
        var bestIndex = -1
        var bestAzimuth = 0.0
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].latitude < latitude { low = middle + 1 } else { high = middle }
        }
        func consider(_ entry: Entry) {
            // Haversine on a sphere of radius 6,335 km: never more than the geodesic.
            let radians = Double.pi / 180
            let dLat = (entry.latitude - latitude) * radians
            let dLon = (entry.longitude - query.longitudeDegrees) * radians
            let h = sin(dLat / 2) * sin(dLat / 2)
                + cos(latitude * radians) * cos(entry.latitude * radians) * sin(dLon / 2) * sin(dLon / 2)
            let bound = 2 * asin(min(1, h.squareRoot())) * 6_335_000 * (1 - 1e-9)
            guard bound <= best else { return }
            let line = Geodesic.inverse(entry.coordinate, query)
            if line.distanceMetres < best || (line.distanceMetres == best && entry.index < bestIndex) {
                best = line.distanceMetres
                bestIndex = entry.index
                bestAzimuth = line.initialAzimuthDegrees
            }
        }
        var up = low
        var down = low - 1
        while up < entries.count || down >= 0 {
            if up < entries.count {
                if (entries[up].latitude - latitude) * Self.metresPerDegree > best { up = entries.count } else {
                    consider(entries[up])
                    up += 1
                }
            }
            if down >= 0 {
                if (latitude - entries[down].latitude) * Self.metresPerDegree > best { down = -1 } else {
                    consider(entries[down])
                    down -= 1
                }
            }
        }
        return bestIndex < 0 ? nil : PlaceMatch(index: bestIndex, distanceMetres: best, azimuthDegrees: bestAzimuth)
    }
}

/// Seeded points for the place tests (SplitMix64), so a failure names a point that reproduces.
struct PlacePoints {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }

    /// Uniform over the sphere's area.
    mutating func anywhere() -> Coordinate {
        let latitude = asin(2 * unit() - 1) * 180 / Double.pi
        return Self.coordinate(latitude, unit() * 360 - 180)
    }

    static func coordinate(_ latitude: Double, _ longitude: Double) -> Coordinate {
        Coordinate(latitudeNanodegrees: Int64((latitude * 1e9).rounded()),
                   longitudeNanodegrees: Int64((longitude * 1e9).rounded()))
    }
}
