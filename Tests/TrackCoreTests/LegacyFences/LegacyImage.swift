@testable import TrackCore

/// The old image layout (FenceImage.make) and index (FenceIndex.nodes), on `LegacyParts`.
enum LegacyImage {
    static func make(_ parts: inout LegacyParts, key: UInt64) -> [UInt8] {
        let nodes = LegacyImage.nodes(entries: parts.boxes)
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
        var out = [UInt8](repeating: 0, count: total)
        var at = FenceImage.headerSize
        func put<T: FixedWidthInteger>(_ value: T) {
            for byte in 0..<MemoryLayout<T>.size { out[at + byte] = UInt8(truncatingIfNeeded: value >> (8 * byte)) }
            at += MemoryLayout<T>.size
        }
        func set(_ value: UInt32, at offset: Int) {
            for byte in 0..<4 { out[offset + byte] = UInt8(truncatingIfNeeded: value >> (8 * byte)) }
        }
        for shape in parts.shapes {
            let plane = shape.plane
            for value in [plane.centre.x, plane.centre.y, plane.centre.z, plane.east.x, plane.east.y, plane.east.z,
                          plane.north.x, plane.north.y, plane.north.z, plane.eastMetres, plane.northMetres, shape.radiusMetres] {
                put(value.bitPattern)
            }
            put(UInt64(bitPattern: shape.centre.latitudeNanodegrees))
            put(UInt64(bitPattern: shape.centre.longitudeNanodegrees))
            put(UInt32(shape.rings.lowerBound))
            put(UInt32(shape.rings.upperBound))
            put(UInt64(0))
        }
        for (fence, name) in zip(parts.fences, names) {
            put(name.id.0)
            put(name.id.1)
            put(name.name.0)
            put(name.name.1)
            put(name.first)
            put(UInt32(fence.command.count))
            put(fence.dwellSeconds.map { UInt32($0) } ?? FenceImage.none)
            let kindValue: Double
            switch fence.kind {
            case .circle(let radius):
                put(UInt32(fence.notify.rawValue))
                kindValue = radius
            case .polygon(let rings):
                put(UInt32(fence.notify.rawValue) | 1 << 8)
                kindValue = Double(rings)
            }
            put(kindValue.bitPattern)
        }
        for (offset, length) in arguments {
            put(offset)
            put(length)
        }
        for ring in parts.rings {
            put(UInt32(ring.lowerBound))
            put(UInt32(ring.upperBound))
        }
        for value in parts.vertices { put(value.bitPattern) }
        for node in nodes {
            for value in [node.box.minLatitude, node.box.maxLatitude, node.box.minLongitude, node.box.maxLongitude] {
                put(value.bitPattern)
            }
            put(UInt32(bitPattern: node.first))
            put(UInt32(bitPattern: node.count))
        }
        for byte in strings { put(byte) }
        let header: [UInt32] = [FenceImage.magic, FenceImage.version, UInt32(truncatingIfNeeded: key), UInt32(truncatingIfNeeded: key >> 32),
                                UInt32(parts.fences.count), UInt32(parts.rings.count), UInt32(parts.vertices.count / 2),
                                UInt32(nodes.count), UInt32(arguments.count), UInt32(strings.count),
                                UInt32(bitPattern: Int32(nodes.count - 1))]
        for (index, value) in header.enumerated() { set(value, at: 4 * index) }
        var crc = CRC32C()
        crc.update(out.span, FenceImage.headerSize..<total)
        set(crc.value, at: 44)
        set(UInt32(truncatingIfNeeded: total), at: 48)
        set(UInt32(truncatingIfNeeded: UInt64(total) >> 32), at: 52)
        set(FenceImage.byteOrderMark, at: 56)
        return out
    }

    static func nodes(entries: [(box: FenceBox, fence: Int)]) -> [FenceIndex.Node] {
        guard !entries.isEmpty else { return [] }
        var level = entries.map { FenceIndex.Node(box: $0.box, first: Int32($0.fence), count: 0) }
        level = tiled(level)
        var levelStart = 0
        var nodes = level
        while nodes.count - levelStart > 1 {
            let levelEnd = nodes.count
            var parents: [FenceIndex.Node] = []
            var child = levelStart
            while child < levelEnd {
                let end = min(child + FenceIndex.fanOut, levelEnd)
                var box = nodes[child].box
                for other in (child + 1)..<end { box = box.union(nodes[other].box) }
                parents.append(FenceIndex.Node(box: box, first: Int32(child), count: Int32(end - child)))
                child = end
            }
            levelStart = levelEnd
            nodes.append(contentsOf: parents)
        }
        return nodes
    }

    static func tiled(_ items: [FenceIndex.Node]) -> [FenceIndex.Node] {
        let leaves = (items.count + FenceIndex.fanOut - 1) / FenceIndex.fanOut
        var slices = 1
        while slices * slices < leaves { slices += 1 }
        let perSlice = slices * FenceIndex.fanOut
        let byLongitude = items.sorted { $0.box.minLongitude + $0.box.maxLongitude < $1.box.minLongitude + $1.box.maxLongitude }
        var result: [FenceIndex.Node] = []
        result.reserveCapacity(items.count)
        var start = 0
        while start < byLongitude.count {
            let end = min(start + perSlice, byLongitude.count)
            result.append(contentsOf: byLongitude[start..<end].sorted {
                $0.box.minLatitude + $0.box.maxLatitude < $1.box.minLatitude + $1.box.maxLatitude
            })
            start = end
        }
        return result
    }
}
