/// The grid a receiver's positions lie on, so that latitude and longitude can be predicted and
/// coded in grid steps instead of 1e-7°: NMEA 0183 sends `ddmm.mmmm` with a fixed number of
/// decimals of a minute, and IGC files `ddmm.mmm`, so every position is a multiple of
/// 1/(60 · 10^d) degree.
///
/// Grid g (2 bits in a fix's flags): 0 none (1e-7°), 1 a thousandth of a minute (500/3 × 1e-7°),
/// 2 a ten-thousandth (50/3), 3 a hundred-thousandth (5/3). Index of a value v (1e-7°):
/// `round(3v / p)`, value of an index n: `round(n · p / 3)`, p = 500, 50, 5, rounding half away
/// from zero in 64-bit wrapping arithmetic. E.g. 52.3721683° (`5222.3301` at 4 decimals) is
/// 523_721_683 → index 31_423_301 on grid 2, and back.
enum LogGrid {
    static let count = 4

    /// p of grid 1…3 (grid 0 is not a scale).
    @inline(__always)
    static func numerator(_ grid: UInt8) -> Int64 {
        switch grid {
        case 1: 500
        case 2: 50
        default: 5
        }
    }

    /// The grid index of `value` (grid 0: the value itself).
    @inline(__always)
    static func index(_ value: Int64, _ grid: UInt8) -> Int64 {
        grid == 0 ? value : divideRounding(value &* 3, numerator(grid))
    }

    /// The value of grid index `index` (grid 0: the index itself).
    @inline(__always)
    static func value(_ index: Int64, _ grid: UInt8) -> Int64 {
        grid == 0 ? index : divideRounding(index &* numerator(grid), 3)
    }

    /// True when `value` lies on `grid`, i.e. the grid codes it exactly.
    static func holds(_ value: Int64, _ grid: UInt8) -> Bool {
        Self.value(index(value, grid), grid) == value
    }

    /// `x / d` rounded half away from zero, for d in 3…500; never traps.
    private static func divideRounding(_ x: Int64, _ d: Int64) -> Int64 {
        let quotient = (x.magnitude + UInt64(d / 2)) / UInt64(d)
        let signed = Int64(bitPattern: quotient)
        return x < 0 ? 0 &- signed : signed
    }
}

/// The encoder's choice of grid (not part of the format: a decoder only follows the flags). It
/// keeps the current grid while fixes lie on it, falls back to the coarsest grid a fix lies on
/// when it does not, and moves to a coarser grid once `patience` moves in a row landed on it
/// (16: about 3 in 5 integers lie on grid 3, so positions with no grid fit it 16 times in a row
/// about once in 10^7 moves; a fix at the same position as the last is no evidence).
struct LogGridChooser: Sendable {
    static let patience: UInt8 = 16
    /// For grids 1…3, how many moves in a row landed on it (saturating).
    var runs = InlineArray<4, UInt8>(repeating: 0)
    var lastLatitude: Int64 = 0
    var lastLongitude: Int64 = 0

    /// The grid for a fix at `latitude`, `longitude` when the last fix's grid was `current`.
    mutating func grid(latitude: Int64, longitude: Int64, current: UInt8) -> UInt8 {
        if latitude == lastLatitude && longitude == lastLongitude
            && (current == 0 || LogGrid.holds(latitude, current) && LogGrid.holds(longitude, current)) {
            return current
        }
        lastLatitude = latitude
        lastLongitude = longitude
        var coarsestHolding: UInt8 = 0
        var coarsestSettled: UInt8 = 0
        var grid: UInt8 = 3
        while grid >= 1 {
            if LogGrid.holds(latitude, grid) && LogGrid.holds(longitude, grid) {
                if runs[Int(grid)] < 255 { runs[Int(grid)] += 1 }
                if coarsestHolding == 0 || grid < coarsestHolding { coarsestHolding = grid }
                if runs[Int(grid)] >= LogGridChooser.patience { coarsestSettled = grid }
            } else {
                runs[Int(grid)] = 0
            }
            grid -= 1
        }
        let holdsCurrent = current == 0 || runs[Int(current)] > 0
        if coarsestSettled != 0 && (current == 0 || coarsestSettled < current) { return coarsestSettled }
        if holdsCurrent { return current }
        return coarsestHolding
    }
}
