/// Laying the image out: the header counting the tables and carrying their CRC, the tables the
/// builder spooled, the index built over its boxes, the strings (see `FenceImage` for the
/// layout). Runs once per fences file, at load or compile.
extension FenceImageBuilder {
    /// Builds the index (once) and returns the image's size in bytes.
    public mutating func buildIndex() -> Int {
        if !indexBuilt {
            FenceIndex.build(&nodes)
            indexBuilt = true
        }
        return FenceImage.headerSize + (FenceImage.shapeSize + FenceImage.fenceSize) * fenceCount + 8 * argumentCount
            + 8 * ringCount + 16 * vertexCount + FenceImage.nodeSize * nodes.count + (strings.count + 7) / 8 * 8
    }

    /// Index nodes in the image once `buildIndex` has run.
    public var nodeCount: Int { nodes.count }

    /// Writes the image for `key` through `write`, every byte in order, in pieces (the header
    /// first, then about 64 KiB at a time); the spool's tables are read twice (for the CRC,
    /// then out) and removed. Returns the bytes written. Call once, after the last fence.
    public mutating func write(key: UInt64, _ write: (UnsafeRawBufferPointer) -> Void) -> Int {
        let total = buildIndex()
        var crc = CRC32C()
        body(removing: false) { bytes in
            crc.update(UnsafeBufferPointer(start: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), count: bytes.count).span,
                       0..<bytes.count)
        }
        var header: [UInt8] = []
        for value in [FenceImage.magic, FenceImage.version, UInt32(truncatingIfNeeded: key), UInt32(truncatingIfNeeded: key >> 32),
                      UInt32(fenceCount), UInt32(ringCount), UInt32(vertexCount), UInt32(nodes.count),
                      UInt32(argumentCount), UInt32(strings.count), UInt32(bitPattern: Int32(nodes.count - 1)), crc.value,
                      UInt32(truncatingIfNeeded: total), UInt32(truncatingIfNeeded: UInt64(total) >> 32),
                      FenceImage.byteOrderMark, 0] {
            header.putLittleEndian(value)
        }
        header.withUnsafeBytes(write)
        body(removing: true, write)
        return total
    }

    /// Everything after the header, in order: the tables, the index nodes (serialized a
    /// hundred at a time), the strings and the zeros that pad them to 8 bytes.
    mutating func body(removing: Bool, _ out: (UnsafeRawBufferPointer) -> Void) {
        for table in FenceImageTable.allCases {
            spool.read(table, out)
            if removing { spool.remove(table) }
        }
        var start = 0
        while start < nodes.count {
            record.removeAll(keepingCapacity: true)
            for node in nodes[start..<min(start + 100, nodes.count)] {
                for value in [node.box.minLatitude, node.box.maxLatitude, node.box.minLongitude, node.box.maxLongitude] {
                    record.putLittleEndian(value.bitPattern)
                }
                record.putLittleEndian(UInt32(bitPattern: node.first))
                record.putLittleEndian(UInt32(bitPattern: node.count))
            }
            record.withUnsafeBytes(out)
            start += 100
        }
        strings.withUnsafeBytes(out)
        let padding = [UInt8](repeating: 0, count: (8 - strings.count % 8) % 8)
        padding.withUnsafeBytes(out)
    }
}

extension FenceImage {
    /// The image `builder` lays out for `key`, on the heap, opened.
    static func compiled<Spool: FenceImageSpool>(_ builder: inout FenceImageBuilder<Spool>, key: UInt64) -> FenceImage {
        let total = builder.buildIndex()
        let memory = UnsafeMutableRawPointer.allocate(byteCount: total, alignment: 16)
        var at = 0
        let written = builder.write(key: key) { bytes in
            guard let source = bytes.baseAddress, at + bytes.count <= total else { return }
            (memory + at).copyMemory(from: source, byteCount: bytes.count)
            at += bytes.count
        }
        precondition(written == total && at == total, "fence image size")
        // What the builder lays out passes every check `init` makes; failing one is a bug here.
        do {
            return try FenceImage(FenceStorage(base: UnsafeRawPointer(memory), count: total) { memory.deallocate() })
        } catch {
            preconditionFailure("fence image made wrong: " + error.description)
        }
    }
}
