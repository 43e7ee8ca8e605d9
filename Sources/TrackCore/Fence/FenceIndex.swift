/// A packed R-tree over fence boxes (Sort-Tile-Recursive, as GEOS's STRtree), built once when
/// the fences are compiled and never changed: nodes in one table of the fence image, children
/// contiguous and before their parent, queries with a fixed stack and no allocation.
///
/// Example: 10,000 fences → 10,000 entries under 1,250 leaves of 8, 157, 20, 3, 1 nodes above.
public struct FenceIndex: Sendable {
    /// Children per node.
    static var fanOut: Int { 8 }

    struct Node: Sendable {
        var box: FenceBox
        /// For an entry: the fence index; otherwise the first child node.
        var first: Int32
        /// Children; 0 marks an entry.
        var count: Int32
    }

    /// The image the nodes are in.
    let image: FenceImage

    /// The index in `image`.
    init(_ image: FenceImage) {
        self.image = image
    }

    /// Builds the index in place: `nodes` holds the entries (box, fence index, count 0) in the
    /// order the fences were added, e.g. two for a fence across the antimeridian; after, the
    /// entries tiled, then each level of parents, the root last.
    static func build(_ nodes: inout [Node]) {
        guard !nodes.isEmpty else { return }
        var total = nodes.count
        var level = nodes.count
        while level > 1 {
            level = (level + fanOut - 1) / fanOut
            total += level
        }
        nodes.reserveCapacity(total)
        tile(&nodes)
        var levelStart = 0
        while nodes.count - levelStart > 1 {
            let levelEnd = nodes.count
            var child = levelStart
            while child < levelEnd {
                let end = min(child + FenceIndex.fanOut, levelEnd)
                var box = nodes[child].box
                for other in (child + 1)..<end { box = box.union(nodes[other].box) }
                nodes.append(Node(box: box, first: Int32(child), count: Int32(end - child)))
                child = end
            }
            levelStart = levelEnd
        }
    }

    /// Sort-Tile-Recursive order, in place: vertical slices by longitude, each sorted by
    /// latitude, so consecutive runs of `fanOut` are compact. (The sort is stable: the order
    /// is the one sorting copies gave.)
    static func tile(_ items: inout [Node]) {
        let leaves = (items.count + fanOut - 1) / fanOut
        var slices = 1
        while slices * slices < leaves { slices += 1 }
        let perSlice = slices * fanOut
        items.sort { $0.box.minLongitude + $0.box.maxLongitude < $1.box.minLongitude + $1.box.maxLongitude }
        var start = 0
        while start < items.count {
            let end = min(start + perSlice, items.count)
            items[start..<end].sort { $0.box.minLatitude + $0.box.maxLatitude < $1.box.minLatitude + $1.box.maxLatitude }
            start = end
        }
    }

    /// Calls `body` with the fence index of every entry whose box meets `box` (a fence split
    /// across the antimeridian may come twice). No allocation.
    @inline(__always)
    public func query(_ box: FenceBox, _ body: (Int) -> Void) {
        guard image.root >= 0, image.node(image.root).box.intersects(box) else { return }
        // Depth × fan-out bounds the stack: 8 levels hold 8^8 = 16.7 million entries. Only
        // nodes that meet the box are pushed (tested as their parent is opened), in the order
        // that reports entries as a plain depth-first walk in reverse child order does.
        var stack = InlineArray<72, Int32>(repeating: 0)
        var depth = 1
        stack[0] = Int32(image.root)
        while depth > 0 {
            depth &-= 1
            let node = image.node(Int(stack[depth]))
            if node.count == 0 {
                body(Int(node.first))
                continue
            }
            var child = Int(node.first)
            let end = child &+ Int(node.count)
            while child < end && depth < 72 {
                if image.node(child).box.intersects(box) {
                    stack[depth] = Int32(truncatingIfNeeded: child)
                    depth &+= 1
                }
                child &+= 1
            }
        }
    }
}
