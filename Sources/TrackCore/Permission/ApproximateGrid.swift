/// The grid that approximate accuracy snaps positions to: cells of 0.01° latitude (≥ 1.105 km)
/// by at least 1.11 km of longitude, e.g. 48.1173°N 11.5167°E → the centre 48.115°N 11.512150466°E.
///
/// Rows are 0.01° of latitude from the south pole. Each row is cut into `n` equal columns with
/// `n = ⌊360 · cos(φ) / 0.01⌋` (at least 1), φ the row's poleward edge, so a cell is at least
/// 0.01° of equatorial longitude wide (≈ 1.11 km) even at its narrowest edge. Everything after
/// the cosine is integer arithmetic on nanodegrees and `n` depends only on the row, so every
/// point of a cell maps to the same centre. 180° and −180° are one meridian: column 0. The rows
/// touching a pole are one cell each, centred on longitude 0.
public enum ApproximateGrid {
    /// The row height: 0.01° in nanodegrees.
    public static let rowNanodegrees: Int64 = 10_000_000
    /// Rows from pole to pole: 18 000.
    public static let rows: Int64 = 18_000

    /// The centre of the cell holding `coordinate`.
    public static func snap(_ coordinate: Coordinate) -> Coordinate {
        let latitude = min(max(coordinate.latitudeNanodegrees, -90_000_000_000), 90_000_000_000)
        let row = min((latitude + 90_000_000_000) / rowNanodegrees, rows - 1)
        let columns = columnCount(row: row)
        // Wrap into [−180°, 180°): the antimeridian belongs to column 0.
        var longitude = coordinate.longitudeNanodegrees % 360_000_000_000
        if longitude >= 180_000_000_000 { longitude -= 360_000_000_000 }
        if longitude < -180_000_000_000 { longitude += 360_000_000_000 }
        let column = min((longitude + 180_000_000_000) * columns / 360_000_000_000, columns - 1)
        let centreLongitude = (2 * column + 1) * 180_000_000_000 / columns - 180_000_000_000
        let centreLatitude = row * rowNanodegrees + rowNanodegrees / 2 - 90_000_000_000
        return Coordinate(latitudeNanodegrees: centreLatitude, longitudeNanodegrees: centreLongitude)
    }

    /// Columns in `row` (0 = southernmost): 36 000 at the equator, 1 at the poles.
    public static func columnCount(row: Int64) -> Int64 {
        let south = row * rowNanodegrees - 90_000_000_000
        let north = south + rowNanodegrees
        let poleward = max(abs(south), abs(north))
        let radians = Double(poleward) / 1e9 * (Double.pi / 180)
        let cosine = max(0, Math.cos(radians))
        return max(1, Int64(36_000 * cosine))
    }
}
