/// Reading the tables where they lie: each accessor is a few loads, allocation-free but for
/// `fence(_:)`, which builds a `Fence` with its strings (per event or listing, never per fix).
/// Indices are the caller's to keep in range (`fenceCount` and the ring ranges of a shape);
/// everything the image itself points at was checked when it was opened.
extension FenceImage {
    /// The shape of fence `fence`.
    @inline(__always)
    func shape(_ fence: Int) -> FenceSet.Shape {
        guard let base else { preconditionFailure("shape of an empty fence image") }
        let at = shapesAt + FenceImage.shapeSize * fence
        func double(_ field: Int) -> Double { base.load(fromByteOffset: at + 8 * field, as: Double.self) }
        func vector(_ field: Int) -> GeoVector { GeoVector(x: double(field), y: double(field + 1), z: double(field + 2)) }
        let plane = LocalPlane(centre: vector(0), east: vector(3), north: vector(6), eastMetres: double(9), northMetres: double(10))
        let centre = Coordinate(latitudeNanodegrees: base.load(fromByteOffset: at + 96, as: Int64.self),
                                longitudeNanodegrees: base.load(fromByteOffset: at + 104, as: Int64.self))
        let first = Int(base.load(fromByteOffset: at + 112, as: UInt32.self))
        let end = Int(base.load(fromByteOffset: at + 116, as: UInt32.self))
        return FenceSet.Shape(plane: plane, centre: centre, radiusMetres: double(11), rings: first..<end)
    }

    /// Ring bounds as (first vertex, end vertex) pairs, `2 × ringCount` values.
    var ringBounds: UnsafeBufferPointer<UInt32> {
        UnsafeBufferPointer(start: base.map { ($0 + ringsAt).assumingMemoryBound(to: UInt32.self) }, count: 2 * ringCount)
    }

    /// Vertices as east, north pairs in metres, `2 × vertexCount` values.
    var vertexValues: UnsafeBufferPointer<Double> {
        UnsafeBufferPointer(start: base.map { ($0 + verticesAt).assumingMemoryBound(to: Double.self) }, count: 2 * vertexCount)
    }

    /// Index node `node`.
    @inline(__always)
    func node(_ node: Int) -> FenceIndex.Node {
        guard let base else { preconditionFailure("node of an empty fence image") }
        let at = nodesAt + FenceImage.nodeSize * node
        let box = FenceBox(minLatitude: base.load(fromByteOffset: at, as: Double.self),
                           maxLatitude: base.load(fromByteOffset: at + 8, as: Double.self),
                           minLongitude: base.load(fromByteOffset: at + 16, as: Double.self),
                           maxLongitude: base.load(fromByteOffset: at + 24, as: Double.self))
        return FenceIndex.Node(box: box, first: base.load(fromByteOffset: at + 32, as: Int32.self),
                               count: base.load(fromByteOffset: at + 36, as: Int32.self))
    }

    private func field(_ fence: Int, _ offset: Int) -> UInt32 {
        guard let base else { preconditionFailure("fence of an empty fence image") }
        return base.load(fromByteOffset: fencesAt + FenceImage.fenceSize * fence + offset, as: UInt32.self)
    }

    /// Which transitions fence `fence` reports.
    @inline(__always)
    func notify(_ fence: Int) -> FenceNotify {
        FenceNotify(rawValue: UInt8(truncatingIfNeeded: field(fence, 28)))
    }

    /// Fence `fence`'s loitering delay in seconds, nil for none.
    @inline(__always)
    func dwellSeconds(_ fence: Int) -> Int? {
        let value = field(fence, 24)
        return value == FenceImage.none ? nil : Int(value)
    }

    /// The string at the (offset, length) pair at `at` from `base`.
    private func string(at: Int) -> String {
        guard let base else { return "" }
        let offset = Int(base.load(fromByteOffset: at, as: UInt32.self))
        let length = Int(base.load(fromByteOffset: at + 4, as: UInt32.self))
        let start = (base + stringsAt + offset).assumingMemoryBound(to: UInt8.self)
        return String(decoding: UnsafeBufferPointer(start: start, count: length), as: UTF8.self)
    }

    /// Fence `fence`'s id, e.g. `home`.
    func id(_ fence: Int) -> String {
        string(at: fencesAt + FenceImage.fenceSize * fence)
    }

    /// Fence `fence` as the fences file describes it.
    func fence(_ fence: Int) -> Fence {
        guard let base else { preconditionFailure("fence of an empty fence image") }
        let record = fencesAt + FenceImage.fenceSize * fence
        let name = field(fence, 12) == FenceImage.none ? nil : string(at: record + 8)
        var command: [String] = []
        let first = Int(field(fence, 16))
        for argument in first..<(first + Int(field(fence, 20))) { command.append(string(at: argumentsAt + 8 * argument)) }
        let kind: FenceKind = base.load(fromByteOffset: record + 29, as: UInt8.self) == 0
            ? .circle(radiusMetres: base.load(fromByteOffset: record + 32, as: Double.self))
            : .polygon(rings: Int(base.load(fromByteOffset: record + 32, as: Double.self)))
        return Fence(id: id(fence), name: name, notify: notify(fence), dwellSeconds: dwellSeconds(fence),
                     command: command, kind: kind)
    }
}

/// The fences of a set in file order, each built from the image when asked for (its strings
/// allocated), e.g. `fences.fences[0].id` → `home`.
public struct FenceList: RandomAccessCollection, Sendable {
    let image: FenceImage

    /// 0.
    public var startIndex: Int { 0 }
    /// The number of fences.
    public var endIndex: Int { image.fenceCount }

    /// Fence `index` as the fences file describes it.
    public subscript(index: Int) -> Fence {
        precondition(index >= 0 && index < image.fenceCount, "fence index out of range")
        return image.fence(index)
    }
}
