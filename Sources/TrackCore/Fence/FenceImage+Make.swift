/// Compiling: the tables a `FenceSet` was built in, and the index over its boxes, laid out as
/// the image (see `FenceImage` for the layout). Runs once per fences file, at load.
extension FenceImage {
    /// The image of `parts` (its index built from its boxes here), opened, for `key`. Empties
    /// `parts` as it goes, so a large set is not held twice.
    static func compiled(_ parts: inout FenceSet.Parts, key: UInt64) -> FenceImage {
        let storage = make(&parts, key: key)
        // What `make` lays out passes every check `init` makes; failing one is a bug here.
        do {
            return try FenceImage(storage)
        } catch {
            preconditionFailure("fence image made wrong: " + error.description)
        }
    }

    /// The bytes of the image of `parts`: see `compiled`.
    static func make(_ parts: inout FenceSet.Parts, key: UInt64) -> FenceStorage {
        let nodes = FenceIndex.nodes(entries: parts.boxes)
        parts.boxes = []
        var strings: [UInt8] = []
        var arguments: [(UInt32, UInt32)] = []
        func text(_ value: String) -> (UInt32, UInt32) {
            let offset = UInt32(strings.count)
            strings.append(contentsOf: value.utf8)
            return (offset, UInt32(strings.count) - offset)
        }
        var names: [(id: (UInt32, UInt32), name: (UInt32, UInt32), first: UInt32)] = []
        for fence in parts.fences {
            let id = text(fence.id)
            let name = fence.name.map(text) ?? (0, FenceImage.none)
            names.append((id, name, UInt32(arguments.count)))
            for argument in fence.command { arguments.append(text(argument)) }
        }
        let total = FenceImage.headerSize + (FenceImage.shapeSize + FenceImage.fenceSize) * parts.fences.count
            + 8 * arguments.count + 8 * parts.rings.count + 8 * parts.vertices.count
            + FenceImage.nodeSize * nodes.count + (strings.count + 7) / 8 * 8
        var out = ImageWriter(count: total)
        out.at = FenceImage.headerSize
        for shape in parts.shapes {
            let plane = shape.plane
            for value in [plane.centre.x, plane.centre.y, plane.centre.z, plane.east.x, plane.east.y, plane.east.z,
                          plane.north.x, plane.north.y, plane.north.z, plane.eastMetres, plane.northMetres, shape.radiusMetres] {
                out.put(value.bitPattern)
            }
            out.put(UInt64(bitPattern: shape.centre.latitudeNanodegrees))
            out.put(UInt64(bitPattern: shape.centre.longitudeNanodegrees))
            out.put(UInt32(shape.rings.lowerBound))
            out.put(UInt32(shape.rings.upperBound))
            out.put(UInt64(0))
        }
        parts.shapes = []
        for (fence, name) in zip(parts.fences, names) {
            out.put(name.id.0)
            out.put(name.id.1)
            out.put(name.name.0)
            out.put(name.name.1)
            out.put(name.first)
            out.put(UInt32(fence.command.count))
            out.put(fence.dwellSeconds.map { UInt32($0) } ?? FenceImage.none)
            let kindValue: Double
            switch fence.kind {
            case .circle(let radius):
                out.put(UInt32(fence.notify.rawValue))
                kindValue = radius
            case .polygon(let rings):
                out.put(UInt32(fence.notify.rawValue) | 1 << 8)
                kindValue = Double(rings)
            }
            out.put(kindValue.bitPattern)
        }
        let fenceCount = parts.fences.count
        parts.fences = []
        for (offset, length) in arguments {
            out.put(offset)
            out.put(length)
        }
        let ringCount = parts.rings.count
        for ring in parts.rings {
            out.put(UInt32(ring.lowerBound))
            out.put(UInt32(ring.upperBound))
        }
        parts.rings = []
        let vertexCount = parts.vertices.count / 2
        for value in parts.vertices { out.put(value.bitPattern) }
        parts.vertices = []
        for node in nodes {
            for value in [node.box.minLatitude, node.box.maxLatitude, node.box.minLongitude, node.box.maxLongitude] {
                out.put(value.bitPattern)
            }
            out.put(UInt32(bitPattern: node.first))
            out.put(UInt32(bitPattern: node.count))
        }
        for byte in strings { out.put(byte) }
        let header: [UInt32] = [FenceImage.magic, FenceImage.version, UInt32(truncatingIfNeeded: key), UInt32(truncatingIfNeeded: key >> 32),
                                UInt32(fenceCount), UInt32(ringCount), UInt32(vertexCount), UInt32(nodes.count),
                                UInt32(arguments.count), UInt32(strings.count), UInt32(bitPattern: Int32(nodes.count - 1))]
        for (index, value) in header.enumerated() { out.set(value, at: 4 * index) }
        var crc = CRC32C()
        crc.update(UnsafeBufferPointer(start: out.base.assumingMemoryBound(to: UInt8.self), count: total).span,
                   FenceImage.headerSize..<total)
        out.set(crc.value, at: 44)
        out.set(UInt32(truncatingIfNeeded: total), at: 48)
        out.set(UInt32(truncatingIfNeeded: UInt64(total) >> 32), at: 52)
        out.set(FenceImage.byteOrderMark, at: 56)
        precondition(out.at <= total && total - out.at < 8, "fence image size")
        let memory = out.base
        return FenceStorage(base: UnsafeRawPointer(memory), count: total) { memory.deallocate() }
    }
}

/// Little-endian fields stored in order into, or set in, the image being made: memory of the
/// image's size, zeroed, 16-byte aligned.
struct ImageWriter {
    let base: UnsafeMutableRawPointer
    /// Where the next `put` goes.
    var at = 0

    init(count: Int) {
        base = UnsafeMutableRawPointer.allocate(byteCount: max(count, 1), alignment: 16)
        base.initializeMemory(as: UInt8.self, repeating: 0, count: max(count, 1))
    }

    /// Stores `value` at `at` (aligned to its size, as the layout keeps every field) and moves on.
    mutating func put<T: FixedWidthInteger>(_ value: T) {
        base.storeBytes(of: value.littleEndian, toByteOffset: at, as: T.self)
        at += MemoryLayout<T>.size
    }

    func set(_ value: UInt32, at offset: Int) {
        base.storeBytes(of: value.littleEndian, toByteOffset: offset, as: UInt32.self)
    }
}
