/// Which part of the Web Mercator square a `TripPlot` shows: the box of the trip's positions
/// with a margin, at least 600 m across, centred in the map frame at one scale for x and y.
/// Canvas px = (mercator − origin) × scale. A trip across the antimeridian is drawn whole: x
/// is unwrapped to within half a turn of the first position.
public struct TripPlotView: Equatable, Sendable {
    /// The Web Mercator position at canvas (0, 0).
    public var originX: Double
    /// See `originX`.
    public var originY: Double
    /// Canvas px per unit of Web Mercator.
    public var scale: Double
    /// The first position's x, which unwrapping keeps others within 0.5 of.
    var referenceX: Double
    /// The centre's latitude, for the scale bar.
    var centreLatitudeDegrees: Double

    /// The view fitting `positions` into `TripPlot.mapFrame` with 40 px to spare.
    public init(fitting positions: [LogPosition]) {
        let frame = TripPlot.mapFrame
        guard let first = positions.first else {
            self.init(originX: 0, originY: 0, scale: frame.width, referenceX: 0.5, centreLatitudeDegrees: 0)
            return
        }
        let reference = WebMercator.project(first.coordinate).x
        var west = Double.infinity, east = -Double.infinity, north = Double.infinity, south = -Double.infinity
        var latitudes = (low: 90.0, high: -90.0)
        for position in positions {
            let point = WebMercator.project(position.coordinate)
            let x = Self.unwrap(point.x, reference)
            west = min(west, x)
            east = max(east, x)
            north = min(north, point.y)
            south = max(south, point.y)
            let latitude = position.coordinate.latitudeDegrees
            latitudes = (min(latitudes.low, latitude), max(latitudes.high, latitude))
        }
        let centreLatitude = (latitudes.low + latitudes.high) / 2
        let minimum = 600 / WebMercator.metresPerUnit(latitudeDegrees: centreLatitude)
        let spanX = max(east - west, minimum)
        let spanY = max(south - north, minimum)
        let scale = min((frame.width - 80) / spanX, (frame.height - 80) / spanY)
        let centreX = (west + east) / 2
        let centreY = (north + south) / 2
        self.init(originX: centreX - (frame.x + frame.width / 2) / scale,
                  originY: centreY - (frame.y + frame.height / 2) / scale,
                  scale: scale, referenceX: reference, centreLatitudeDegrees: centreLatitude)
    }

    init(originX: Double, originY: Double, scale: Double, referenceX: Double, centreLatitudeDegrees: Double) {
        self.originX = originX
        self.originY = originY
        self.scale = scale
        self.referenceX = referenceX
        self.centreLatitudeDegrees = centreLatitudeDegrees
    }

    /// Where `coordinate` lands on the canvas, in px.
    public func canvas(_ coordinate: Coordinate) -> (x: Double, y: Double) {
        let point = WebMercator.project(coordinate)
        return ((Self.unwrap(point.x, referenceX) - originX) * scale, (point.y - originY) * scale)
    }

    /// Ground metres per canvas px at the map's centre latitude.
    public var metresPerPixel: Double {
        WebMercator.metresPerUnit(latitudeDegrees: centreLatitudeDegrees) / scale
    }

    /// True when `point` is within a map's width of the frame (fences far away are left out).
    func isNear(_ point: (x: Double, y: Double)) -> Bool {
        point.x > -TripPlot.width && point.x < 2 * TripPlot.width && point.y > -TripPlot.height && point.y < 2 * TripPlot.height
    }

    /// `origin-x origin-y scale` for the SVG's metadata, so tools can put positions on the picture.
    var metadata: String {
        "web-mercator origin " + Self.exact(originX) + " " + Self.exact(originY) + " scale " + Self.exact(scale)
            + " (canvas px = (mercator - origin) * scale; mercator x = (lon + 180) / 360, y = 0.5 - atanh(sin lat) / 2pi)"
    }

    static func unwrap(_ x: Double, _ reference: Double) -> Double {
        if x - reference > 0.5 { return x - 1 }
        if reference - x > 0.5 { return x + 1 }
        return x
    }

    /// Nine significant decimals, enough to place a fix within a thousandth of a px.
    static func exact(_ value: Double) -> String {
        let scaled = value * 1e9
        let units = Int64(scaled + (scaled < 0 ? -0.5 : 0.5))
        var out = TextBuffer()
        out.appendFixed(units, decimals: 9)
        return out.string
    }
}

/// The track's speeds for colouring: each segment's speed (the recorded speeds of its two
/// fixes averaged, else distance over time), and the legend's range, from the 2nd percentile
/// rounded down to the 98th rounded up to 5 km/h, so the colours spread over the speeds the
/// trip had and one spike does not wash the rest out.
struct TripPlotSpeeds {
    /// km/h of segment i (from fix i − 1 to fix i), index 0 unused.
    var kilometresPerHour: [Double]
    var minimumKilometresPerHour: Double
    var maximumKilometresPerHour: Double

    init(_ fixes: [LogFix]) {
        var speeds = [0.0]
        for index in fixes.indices.dropFirst() {
            let a = fixes[index - 1]
            let b = fixes[index]
            if let first = a.speedCentimetresPerSecond, let second = b.speedCentimetresPerSecond {
                speeds.append(Double(first + second) / 2 * 0.036)
            } else {
                let milliseconds = b.time.millisecondsSinceEpoch - a.time.millisecondsSinceEpoch
                let metres = a.position.coordinate.distance(to: b.position.coordinate)
                speeds.append(milliseconds > 0 ? metres / Double(milliseconds) * 3_600 : speeds[speeds.count - 1])
            }
        }
        kilometresPerHour = speeds
        let sorted = speeds.dropFirst().sorted()
        let top = sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, sorted.count * 98 / 100)]
        let bottom = sorted.isEmpty ? 0 : sorted[sorted.count * 2 / 100]
        minimumKilometresPerHour = max(0, Double(Int(bottom / 5)) * 5)
        maximumKilometresPerHour = max(minimumKilometresPerHour + 5, Double(Int((top + 4.999) / 5)) * 5)
    }

    /// The colour step of segment `index`.
    func bucket(segment index: Int) -> Int {
        let range = maximumKilometresPerHour - minimumKilometresPerHour
        let fraction = (kilometresPerHour[index] - minimumKilometresPerHour) / range
        return min(TripPlotStyle.buckets - 1, max(0, Int(fraction * Double(TripPlotStyle.buckets))))
    }
}
