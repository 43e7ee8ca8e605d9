/// A trip drawn as a self-contained SVG map a person understands at a glance: the track in
/// Web Mercator coloured by speed with its legend, fence outlines, waypoints and fence events,
/// start and end marked and labelled with their places, a scale bar, a north arrow and a
/// title with the trip's summary. No tiles, no scripts, no external fonts: the same input
/// gives the same bytes. Example:
///
///     var plot = TripPlot(title: "Tübingen → Stuttgart, 41.2 km, 52 min", fixes: fixes)
///     plot.startLabel = "07:30 in Tübingen, Baden-Wurttemberg, DE"
///     let svg = plot.svg()                       // 1000 × 760 px
public struct TripPlot {
    /// A waypoint or fence event on the map.
    public struct Marker: Equatable, Sendable {
        /// What it is: `waypoint`, `fence-enter`, `fence-exit` or `fence-dwell`.
        public var kind: String
        /// Where, at 1e-7°.
        public var position: LogPosition
        /// Its label, e.g. `old bridge` or `depot enter`.
        public var label: String

        /// A marker from its parts.
        public init(kind: String, position: LogPosition, label: String) {
            self.kind = kind
            self.position = position
            self.label = label
        }
    }

    /// A fence's outline: its id and rings of coordinates (`FenceSet.outline(of:)`).
    public struct FenceOutline: Equatable, Sendable {
        /// The fences file's id, drawn beside the outline.
        public var id: String
        /// Closed rings, outer rings and holes.
        public var rings: [[Coordinate]]

        /// An outline from its parts.
        public init(id: String, rings: [[Coordinate]]) {
            self.id = id
            self.rings = rings
        }
    }

    /// Canvas size in px.
    public static var width: Double { 1000 }
    /// See `width`.
    public static var height: Double { 760 }
    /// The map's frame on the canvas: x, y, width, height in px.
    public static var mapFrame: (x: Double, y: Double, width: Double, height: Double) { (16, 72, 968, 592) }

    /// The first line, e.g. `Tübingen → Stuttgart, 41.2 km, 52 min`.
    public var title: String
    /// The second line, e.g. times, moving time and speeds.
    public var subtitle = ""
    /// The start's label, e.g. `Start 07:30 · in Tübingen, Baden-Wurttemberg, DE`.
    public var startLabel = "Start"
    /// The end's label.
    public var endLabel = "End"
    /// The track, in time order (at least one fix to draw anything but the frame).
    public var fixes: [LogFix]
    /// Waypoints and fence events.
    public var markers: [Marker] = []
    /// Fence outlines (drawn where they fall on the map).
    public var fences: [FenceOutline] = []
    /// The credit line at the bottom right, e.g. `Places: GeoNames (CC BY 4.0)`.
    public var attribution = "Web Mercator"

    /// A plot of `fixes` titled `title`.
    public init(title: String, fixes: [LogFix]) {
        self.title = title
        self.fixes = fixes
    }

    /// The view: which part of the Web Mercator square the map shows and at what scale.
    public var view: TripPlotView { TripPlotView(fitting: fixes.map { $0.position } + markers.map { $0.position }) }

    /// The SVG document.
    public func svg() -> String {
        let view = self.view
        let frame = Self.mapFrame
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1000\" height=\"760\" viewBox=\"0 0 1000 760\""
            + " font-family=\"DejaVu Sans, Verdana, Arial, sans-serif\">\n"
        out += "<title>" + TripPlotStyle.escaped(title) + "</title>\n"
        out += "<metadata id=\"projection\">" + view.metadata + "</metadata>\n"
        out += "<defs><clipPath id=\"map\"><rect x=\"16\" y=\"72\" width=\"968\" height=\"592\"/></clipPath></defs>\n"
        out += "<rect width=\"1000\" height=\"760\" fill=\"#ffffff\"/>\n"
        out += text(24, 36, title, size: 22, weight: "bold", fill: "#212121", limit: 70)
        out += text(24, 60, subtitle, size: 14, fill: "#555555", limit: 120)
        out += "<rect x=\"" + n(frame.x) + "\" y=\"" + n(frame.y) + "\" width=\"" + n(frame.width) + "\" height=\""
            + n(frame.height) + "\" fill=\"#eef2ea\" stroke=\"#c5cdbf\"/>\n"
        out += "<g clip-path=\"url(#map)\">\n"
        let fenceParts = fenceLayer(view)
        out += fenceParts.shapes
        out += trackLayer(view)
        out += fenceParts.labels
        out += markerLayer(view)
        out += "</g>\n"
        out += northArrow() + scaleBar(view) + legend()
        out += text(976, 748, attribution, size: 11, fill: "#757575", anchor: "end", limit: 90)
        return out + "</svg>\n"
    }

    // MARK: layers

    /// The fences' outlines (clipped to the map frame) and, to draw over the track, their labels.
    func fenceLayer(_ view: TripPlotView) -> (shapes: String, labels: String) {
        var shapes = ""
        var labels = ""
        let frame = Self.mapFrame
        for fence in fences {
            var path = ""
            var top: (x: Double, y: Double)?
            for ring in fence.rings where !ring.isEmpty {
                let clipped = Self.clip(ring.map { view.canvas($0) })
                for (index, point) in clipped.enumerated() {
                    path += (index == 0 ? "M" : "L") + n(point.x) + " " + n(point.y)
                    if top.map({ point.y < $0.y }) ?? true { top = point }
                }
                if !clipped.isEmpty { path += "Z" }
            }
            guard let top else { continue }
            shapes += "<path d=\"" + path + "\" fill=\"#ff9800\" fill-opacity=\"0.16\" fill-rule=\"evenodd\" stroke=\"#e65100\""
                + " stroke-width=\"2\" stroke-dasharray=\"7 4\"/>\n"
            let y = max(top.y - 7, frame.y + 16)
            // Kept inside the frame: half the label's width (about 0.6 em a character) from its edges.
            let half = Double(min(fence.id.count + 6, 40)) * 13 * 0.3
            let x = min(max(top.x, frame.x + half + 4), frame.x + frame.width - half - 4)
            labels += text(x, y, "fence " + fence.id, size: 13, fill: "#bf360c", anchor: "middle", halo: true, limit: 40)
        }
        return (shapes, labels)
    }

    /// `ring` (canvas px) clipped to the map frame (Sutherland–Hodgman, one frame edge at a
    /// time): what shows is unchanged, and no coordinate leaves the canvas.
    static func clip(_ ring: [(x: Double, y: Double)]) -> [(x: Double, y: Double)] {
        let frame = mapFrame
        let edges: [(inside: ((x: Double, y: Double)) -> Bool, cross: ((x: Double, y: Double), (x: Double, y: Double)) -> (x: Double, y: Double))] = [
            ({ $0.x >= frame.x }, { a, b in (frame.x, a.y + (b.y - a.y) * (frame.x - a.x) / (b.x - a.x)) }),
            ({ $0.x <= frame.x + frame.width }, { a, b in
                (frame.x + frame.width, a.y + (b.y - a.y) * (frame.x + frame.width - a.x) / (b.x - a.x)) }),
            ({ $0.y >= frame.y }, { a, b in (a.x + (b.x - a.x) * (frame.y - a.y) / (b.y - a.y), frame.y) }),
            ({ $0.y <= frame.y + frame.height }, { a, b in
                (a.x + (b.x - a.x) * (frame.y + frame.height - a.y) / (b.y - a.y), frame.y + frame.height) }),
        ]
        var points = ring
        for edge in edges {
            guard let last = points.last else { return [] }
            var kept: [(x: Double, y: Double)] = []
            var previous = last
            for point in points {
                if edge.inside(point) {
                    if !edge.inside(previous) { kept.append(edge.cross(previous, point)) }
                    kept.append(point)
                } else if edge.inside(previous) {
                    kept.append(edge.cross(previous, point))
                }
                previous = point
            }
            points = kept
        }
        return points
    }

    func trackLayer(_ view: TripPlotView) -> String {
        guard !fixes.isEmpty else { return "" }
        let points = fixes.map { view.canvas($0.position.coordinate) }
        var casing = "M" + n(points[0].x) + " " + n(points[0].y)
        for point in points.dropFirst() { casing += "L" + n(point.x) + " " + n(point.y) }
        var out = "<path d=\"" + casing + "\" fill=\"none\" stroke=\"#ffffff\" stroke-width=\"9\" stroke-linecap=\"round\""
            + " stroke-linejoin=\"round\"/>\n"
        let scale = TripPlotSpeeds(fixes)
        var index = 1
        while index < points.count {
            let bucket = scale.bucket(segment: index)
            var path = "M" + n(points[index - 1].x) + " " + n(points[index - 1].y) + "L" + n(points[index].x) + " " + n(points[index].y)
            index += 1
            while index < points.count, scale.bucket(segment: index) == bucket {
                path += "L" + n(points[index].x) + " " + n(points[index].y)
                index += 1
            }
            out += "<path d=\"" + path + "\" fill=\"none\" stroke=\"" + TripPlotStyle.hex(bucket) + "\" stroke-width=\"5\""
                + " stroke-linecap=\"round\" stroke-linejoin=\"round\"/>\n"
        }
        return out
    }

    func markerLayer(_ view: TripPlotView) -> String {
        var out = ""
        for marker in markers {
            let point = view.canvas(marker.position.coordinate)
            let fill: String
            switch marker.kind {
            case "fence-enter": fill = "#2e7d32"
            case "fence-exit": fill = "#c62828"
            case "fence-dwell": fill = "#6a1b9a"
            default: fill = "#1565c0"
            }
            if marker.kind == "waypoint" {
                out += "<circle cx=\"" + n(point.x) + "\" cy=\"" + n(point.y) + "\" r=\"6\" fill=\"" + fill
                    + "\" stroke=\"#ffffff\" stroke-width=\"2\"/>\n"
            } else {
                out += "<path d=\"M" + n(point.x) + " " + n(point.y - 8) + "l8 8l-8 8l-8 -8z\" fill=\"" + fill
                    + "\" stroke=\"#ffffff\" stroke-width=\"2\"/>\n"
            }
            out += label(point, marker.label, size: 12, fill: "#263238", dy: 4)
        }
        guard let first = fixes.first, let last = fixes.last else { return out }
        let start = view.canvas(first.position.coordinate)
        let end = view.canvas(last.position.coordinate)
        out += "<rect x=\"" + n(end.x - 7) + "\" y=\"" + n(end.y - 7) + "\" width=\"14\" height=\"14\" fill=\"#c62828\""
            + " stroke=\"#ffffff\" stroke-width=\"3\"/>\n"
        out += "<circle cx=\"" + n(start.x) + "\" cy=\"" + n(start.y) + "\" r=\"8\" fill=\"#2e7d32\" stroke=\"#ffffff\""
            + " stroke-width=\"3\"/>\n"
        // Start above its marker and end below, so a loop's two labels do not overprint.
        out += label(start, startLabel, size: 14, fill: "#1b5e20", dy: -12, weight: "bold")
        out += label(end, endLabel, size: 14, fill: "#b71c1c", dy: 24, weight: "bold")
        return out
    }

    // MARK: furniture

    func northArrow() -> String {
        let x = 950.0
        let y = 92.0
        return "<g><circle cx=\"" + n(x) + "\" cy=\"" + n(y + 14) + "\" r=\"19\" fill=\"#ffffff\" fill-opacity=\"0.85\" stroke=\"#9e9e9e\"/>"
            + "<path d=\"M" + n(x) + " " + n(y - 2) + "l8 22l-8 -6l-8 6z\" fill=\"#212121\"/>"
            + "<text x=\"" + n(x) + "\" y=\"" + n(y + 30) + "\" font-size=\"10\" font-weight=\"bold\" text-anchor=\"middle\""
            + " fill=\"#212121\">N</text></g>\n"
    }

    func scaleBar(_ view: TripPlotView) -> String {
        let metresPerPixel = view.metresPerPixel
        let metres = TripPlotStyle.niceLength(160 * metresPerPixel)
        let pixels = metres / metresPerPixel
        let words = metres >= 1_000 ? TripPlotStyle.number(metres / 1_000) + " km" : TripPlotStyle.number(metres) + " m"
        let x = 32.0
        let y = 640.0
        return "<g><rect x=\"24\" y=\"614\" width=\"" + n(pixels + 24) + "\" height=\"40\" rx=\"4\" fill=\"#ffffff\""
            + " fill-opacity=\"0.85\"/>"
            + "<path d=\"M" + n(x) + " " + n(y - 6) + "v10h" + n(pixels) + "v-10\" fill=\"none\" stroke=\"#212121\" stroke-width=\"2\"/>"
            + "<text x=\"" + n(x + pixels / 2) + "\" y=\"" + n(y - 10) + "\" font-size=\"12\" text-anchor=\"middle\""
            + " fill=\"#212121\">" + words + "</text></g>\n"
    }

    func legend() -> String {
        let scale = TripPlotSpeeds(fixes)
        var out = "<g><text x=\"24\" y=\"688\" font-size=\"12\" fill=\"#424242\">speed</text>"
        let width = 280.0 / Double(TripPlotStyle.buckets)
        for bucket in 0..<TripPlotStyle.buckets {
            out += "<rect x=\"" + n(70 + Double(bucket) * width) + "\" y=\"678\" width=\"" + n(width + 0.5)
                + "\" height=\"12\" fill=\"" + TripPlotStyle.hex(bucket) + "\"/>"
        }
        out += "<text x=\"70\" y=\"708\" font-size=\"11\" fill=\"#616161\">"
            + TripPlotStyle.number(scale.minimumKilometresPerHour) + " km/h</text>"
        out += "<text x=\"210\" y=\"708\" font-size=\"11\" text-anchor=\"middle\" fill=\"#616161\">"
            + TripPlotStyle.number((scale.minimumKilometresPerHour + scale.maximumKilometresPerHour) / 2) + "</text>"
        out += "<text x=\"350\" y=\"708\" font-size=\"11\" text-anchor=\"end\" fill=\"#616161\">"
            + TripPlotStyle.number(scale.maximumKilometresPerHour) + " km/h</text>"
        out += "<circle cx=\"420\" cy=\"684\" r=\"6\" fill=\"#2e7d32\" stroke=\"#ffffff\" stroke-width=\"2\"/>"
            + "<text x=\"432\" y=\"688\" font-size=\"12\" fill=\"#424242\">start</text>"
            + "<rect x=\"476\" y=\"678\" width=\"12\" height=\"12\" fill=\"#c62828\"/>"
            + "<text x=\"494\" y=\"688\" font-size=\"12\" fill=\"#424242\">end</text>"
            + "<circle cx=\"538\" cy=\"684\" r=\"5\" fill=\"#1565c0\"/>"
            + "<text x=\"548\" y=\"688\" font-size=\"12\" fill=\"#424242\">waypoint</text>"
            + "<path d=\"M616 677l7 7l-7 7l-7 -7z\" fill=\"#2e7d32\"/><path d=\"M632 677l7 7l-7 7l-7 -7z\" fill=\"#c62828\"/>"
            + "<text x=\"646\" y=\"688\" font-size=\"12\" fill=\"#424242\">fence enter / exit</text>"
            + "<rect x=\"768\" y=\"678\" width=\"16\" height=\"12\" fill=\"#ff9800\" fill-opacity=\"0.3\" stroke=\"#e65100\""
            + " stroke-dasharray=\"4 2\"/><text x=\"790\" y=\"688\" font-size=\"12\" fill=\"#424242\">fence</text></g>\n"
        return out
    }

    // MARK: text

    /// A label beside `point`: to its right, or to its left in the map's right third so it
    /// stays on the canvas.
    func label(_ point: (x: Double, y: Double), _ words: String, size: Double, fill: String, dy: Double,
               weight: String = "normal") -> String {
        let right = point.x < Self.mapFrame.x + Self.mapFrame.width * 0.62
        let y = min(max(point.y + dy, Self.mapFrame.y + size + 2), Self.mapFrame.y + Self.mapFrame.height - 6)
        return text(right ? point.x + 12 : point.x - 12, y, words, size: size, weight: weight, fill: fill,
                    anchor: right ? "start" : "end", halo: true, limit: 56)
    }

    func text(_ x: Double, _ y: Double, _ words: String, size: Double, weight: String = "normal", fill: String,
              anchor: String = "start", halo: Bool = false, limit: Int) -> String {
        guard !words.isEmpty else { return "" }
        var clipped = words
        if clipped.count > limit { clipped = String(clipped.prefix(limit - 1)) + "…" }
        var out = "<text x=\"" + n(x) + "\" y=\"" + n(y) + "\" font-size=\"" + n(size) + "\""
        if weight != "normal" { out += " font-weight=\"" + weight + "\"" }
        if anchor != "start" { out += " text-anchor=\"" + anchor + "\"" }
        if halo { out += " stroke=\"#ffffff\" stroke-width=\"4\" stroke-linejoin=\"round\" paint-order=\"stroke\"" }
        return out + " fill=\"" + fill + "\">" + TripPlotStyle.escaped(clipped) + "</text>\n"
    }

    func n(_ value: Double) -> String { TripPlotStyle.number(value) }
}
