/// The tables of a fence image that grow with the fences, in their order in the image (see
/// `FenceImage` for the layout): each fence's shape and record, the argv entries, the rings and
/// the vertices.
public enum FenceImageTable: Int, CaseIterable, Sendable {
    case shapes, fences, arguments, rings, vertices
}

/// Where `FenceImageBuilder` keeps the tables while fences are added, until the image is laid
/// out: in memory (`FenceImageMemorySpool`, for a `FenceSet`) or in files beside the image
/// (`trackctl fence compile`), so that a large set never has to be in memory at once.
public protocol FenceImageSpool {
    /// Appends `bytes` to `table`.
    mutating func append(_ bytes: UnsafeRawBufferPointer, to table: FenceImageTable)
    /// Calls `body` with all the bytes of `table` in order, in pieces (e.g. 64 KiB at a time).
    mutating func read(_ table: FenceImageTable, _ body: (UnsafeRawBufferPointer) -> Void)
    /// Forgets `table`: it will not be read again.
    mutating func remove(_ table: FenceImageTable)
}

/// The tables in arrays, e.g. for the fences `FenceFile.parse` returns.
public struct FenceImageMemorySpool: FenceImageSpool, Sendable {
    var tables: [[UInt8]] = Array(repeating: [], count: FenceImageTable.allCases.count)

    /// Empty tables.
    public init() {}

    /// Appends to the table's array.
    public mutating func append(_ bytes: UnsafeRawBufferPointer, to table: FenceImageTable) {
        tables[table.rawValue].append(contentsOf: bytes)
    }

    /// The table's array in one piece.
    public mutating func read(_ table: FenceImageTable, _ body: (UnsafeRawBufferPointer) -> Void) {
        tables[table.rawValue].withUnsafeBytes(body)
    }

    /// Frees the table's array.
    public mutating func remove(_ table: FenceImageTable) {
        tables[table.rawValue] = []
    }
}

/// Compiles fences into an image as they are added: each fence's records go to the spool in
/// image form at once, so what stays in memory is the strings (ids, names, commands), one index
/// entry per fence box (40 bytes) and the polygon being added. `finish` then lays the image out
/// (`FenceImage+Make.swift`). The bytes are those the compiler has always made for the same
/// fences in the same order.
///
/// Example: two circles appended, then `finish(key:)` → 64 + 2 × 168 + 3 × 40 + strings bytes.
public struct FenceImageBuilder<Spool: FenceImageSpool> {
    /// Where the tables go.
    public var spool: Spool
    /// Fences, rings, vertices and argv entries added so far.
    public internal(set) var fenceCount = 0, ringCount = 0, vertexCount = 0, argumentCount = 0
    /// Fences added that are circles.
    public internal(set) var circleCount = 0
    /// The strings table: ids, names and argv entries, in that order fence by fence.
    var strings: [UInt8] = []
    /// The index's entries (box, fence) in the order added; the tree once `finish` builds it.
    var nodes: [FenceIndex.Node] = []
    var indexBuilt = false
    /// One record being written, and the polygon being added: its vertices (east, north
    /// pairs, metres) and its rings' bounds (first, end vertex pairs, from its own first).
    var record: [UInt8] = []
    var polygonVertices: [Double] = []
    var polygonRings: [UInt32] = []

    /// A builder writing its tables to `spool`.
    public init(spool: Spool) {
        self.spool = spool
    }

    /// Adds a circle of `radiusMetres` (geodesic) around `centre`.
    public mutating func appendCircle(_ fence: Fence, centre: Coordinate, radiusMetres: Double) {
        let plane = LocalPlane(centre: GeoVector(centre))
        let number = fenceCount
        appendFence(fence, FenceSet.Shape(plane: plane, centre: centre, radiusMetres: radiusMetres, rings: ringCount..<ringCount))
        circleCount += 1
        // The radii of curvature bound the degrees; 1 % and 1 m cover the ellipsoid's slack.
        let reach = radiusMetres * 1.01 + 1
        let dLatitude = reach / plane.northMetres * 180 / Double.pi
        let cosine = Math.sinCosDegrees(min(centre.latitudeDegrees.magnitude + dLatitude, 90)).cos
        let dLongitude = cosine > 1e-9 ? reach / (plane.eastMetres * cosine) * 180 / Double.pi : 360
        let latitude = centre.latitudeDegrees
        FenceBox.covering(latitudes: (latitude - dLatitude)...(latitude + dLatitude),
                          centreLongitude: centre.longitudeDegrees, west: -dLongitude, east: dLongitude) {
            nodes.append(FenceIndex.Node(box: $0, first: Int32(number), count: 0))
        }
    }

    /// Writes the shape, the record and the argv entries of the next fence, its strings kept.
    mutating func appendFence(_ fence: Fence, _ shape: FenceSet.Shape) {
        record.removeAll(keepingCapacity: true)
        let plane = shape.plane
        for value in [plane.centre.x, plane.centre.y, plane.centre.z, plane.east.x, plane.east.y, plane.east.z,
                      plane.north.x, plane.north.y, plane.north.z, plane.eastMetres, plane.northMetres, shape.radiusMetres] {
            record.putLittleEndian(value.bitPattern)
        }
        record.putLittleEndian(UInt64(bitPattern: shape.centre.latitudeNanodegrees))
        record.putLittleEndian(UInt64(bitPattern: shape.centre.longitudeNanodegrees))
        record.putLittleEndian(UInt32(shape.rings.lowerBound))
        record.putLittleEndian(UInt32(shape.rings.upperBound))
        record.putLittleEndian(UInt64(0))
        write(.shapes)
        let id = text(fence.id)
        let name = fence.name.map { text($0) } ?? (0, FenceImage.none)
        var arguments: [UInt8] = []
        for argument in fence.command {
            let (offset, length) = text(argument)
            arguments.putLittleEndian(offset)
            arguments.putLittleEndian(length)
        }
        for value in [id.0, id.1, name.0, name.1, UInt32(argumentCount), UInt32(fence.command.count),
                      fence.dwellSeconds.map { UInt32($0) } ?? FenceImage.none] {
            record.putLittleEndian(value)
        }
        switch fence.kind {
        case .circle(let radius):
            record.putLittleEndian(UInt32(fence.notify.rawValue))
            record.putLittleEndian(radius.bitPattern)
        case .polygon(let rings):
            record.putLittleEndian(UInt32(fence.notify.rawValue) | 1 << 8)
            record.putLittleEndian(Double(rings).bitPattern)
        }
        write(.fences)
        arguments.withUnsafeBytes { spool.append($0, to: .arguments) }
        argumentCount += fence.command.count
        fenceCount += 1
    }

    /// Hands `record` to the spool as the next bytes of `table` and empties it.
    mutating func write(_ table: FenceImageTable) {
        record.withUnsafeBytes { spool.append($0, to: table) }
        record.removeAll(keepingCapacity: true)
    }

    /// `value`'s UTF-8 added to the strings: (offset, length).
    mutating func text(_ value: String) -> (UInt32, UInt32) {
        let offset = UInt32(strings.count)
        strings.append(contentsOf: value.utf8)
        return (offset, UInt32(strings.count) - offset)
    }
}

extension [UInt8] {
    /// Appends `value` little-endian, as every field of the image is stored.
    mutating func putLittleEndian<T: FixedWidthInteger>(_ value: T) {
        for shift in stride(from: 0, to: T.bitWidth, by: 8) { append(UInt8(truncatingIfNeeded: value >> shift)) }
    }
}

extension FenceImageBuilder: Sendable where Spool: Sendable {}

/// A spool that keeps nothing: for checking a fences file without compiling it
/// (`trackctl fence validate`), in the memory of the feature being read.
public struct FenceImageDiscardingSpool: FenceImageSpool, Sendable {
    /// Nothing kept.
    public init() {}
    /// Drops the bytes.
    public mutating func append(_ bytes: UnsafeRawBufferPointer, to table: FenceImageTable) {}
    /// Nothing to read.
    public mutating func read(_ table: FenceImageTable, _ body: (UnsafeRawBufferPointer) -> Void) {}
    /// Nothing to forget.
    public mutating func remove(_ table: FenceImageTable) {}
}
