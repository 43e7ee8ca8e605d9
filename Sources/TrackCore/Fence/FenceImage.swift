/// A compiled fences file: every table `FenceSet` reads, laid out flat so it can be used where
/// it lies, in a file the daemon maps (`/var/lib/trackd/fences.image`) and compiles again only
/// when the fences file or the settings that shape it change. Checked once when opened (the
/// CRC, every count, offset and index), so no read into it afterwards can leave its bytes.
///
/// Layout, little-endian, every section 8-byte aligned:
///
/// | offset | size | field |
/// |---:|---:|---|
/// | 0 | 4 | magic `89 54 4B 46` (0x89, then "TKF") |
/// | 4 | 4 | version, 1 |
/// | 8 | 8 | key: `FenceImage.key` of the fences file's bytes and the settings |
/// | 16 | 4 × 6 | fences F, rings R, vertices V, index nodes N, argv entries A, string bytes S |
/// | 40 | 4 | index root (−1: no nodes) |
/// | 44 | 4 | CRC-32C of the bytes from 64 to the end |
/// | 48 | 8 | total bytes |
/// | 56 | 4 | 0x01020304 (a reader of the other byte order sees 0x04030201) |
/// | 60 | 4 | 0 |
/// | 64 | 128 F | shapes: plane centre, east and north (x, y, z each), east and north metres, radius, centre latitude and longitude (nanodegrees, int64), first ring, end ring (uint32) |
/// | . | 40 F | fences: id (offset, length), name (offset, length; length 0xFFFFFFFF: none), first argv entry, argv count, dwell seconds (0xFFFFFFFF: none), notify bits, kind (0 circle, 1 polygon), 2 spare, the kind's radius (double) |
/// | . | 8 A | argv entries: offset, length into the strings |
/// | . | 8 R | rings: first vertex, end vertex |
/// | . | 16 V | vertices: east, north (double, metres in the fence's plane) |
/// | . | 40 N | index nodes: box (south, north, west, east degrees), first (fence or first child), count (0: an entry) |
/// | . | S, to 8 | strings, UTF-8 |
///
/// Example: two circles → 64 + 2 × 168 + 3 × 40 + strings = 528 bytes.
public struct FenceImage: @unchecked Sendable {
    /// The bytes, alive as long as this view.
    public let storage: FenceStorage
    let base: UnsafeRawPointer?
    /// Counts from the header.
    let fenceCount: Int, ringCount: Int, vertexCount: Int, nodeCount: Int, argumentCount: Int, stringCount: Int
    /// The index's root node, −1 for none.
    let root: Int
    /// Section offsets from `base`.
    let shapesAt: Int, fencesAt: Int, argumentsAt: Int, ringsAt: Int, verticesAt: Int, nodesAt: Int, stringsAt: Int

    static var magic: UInt32 { 0x464B_5489 }
    static var version: UInt32 { 1 }
    static var byteOrderMark: UInt32 { 0x0102_0304 }
    static var headerSize: Int { 64 }
    static var shapeSize: Int { 128 }
    static var fenceSize: Int { 40 }
    static var nodeSize: Int { 40 }
    static var none: UInt32 { 0xFFFF_FFFF }

    /// An image of no fences: the header alone (what `make` gives for no fences, written out
    /// here so a daemon that only maps images links no compiler).
    public static let empty: FenceImage = {
        var header = [UInt8](repeating: 0, count: FenceImage.headerSize)
        let fields: [(Int, UInt32)] = [(0, FenceImage.magic), (4, FenceImage.version), (40, 0xFFFF_FFFF),
                                       (44, CRC32C().value), (48, UInt32(FenceImage.headerSize)), (56, FenceImage.byteOrderMark)]
        for (at, value) in fields {
            for byte in 0..<4 { header[at + byte] = UInt8(truncatingIfNeeded: value >> (8 * byte)) }
        }
        do throws(FenceImageError) {
            return try FenceImage(FenceStorage(copying: header))
        } catch {
            preconditionFailure("the empty fence image")
        }
    }()

    /// Opens and checks the image in `storage`; throws what is wrong, e.g.
    /// `.badCRC` for a torn or decayed file.
    public init(_ storage: FenceStorage) throws(FenceImageError) {
        self.storage = storage
        guard let base = storage.base, storage.count >= FenceImage.headerSize else { throw .tooShort(bytes: storage.count) }
        self.base = base
        func u32(_ at: Int) -> Int { Int(base.load(fromByteOffset: at, as: UInt32.self)) }
        guard base.load(fromByteOffset: 0, as: UInt32.self) == FenceImage.magic else { throw .notAnImage }
        guard base.load(fromByteOffset: 56, as: UInt32.self) == FenceImage.byteOrderMark else { throw .otherByteOrder }
        let version = base.load(fromByteOffset: 4, as: UInt32.self)
        guard version == FenceImage.version else { throw .unknownVersion(version) }
        fenceCount = u32(16)
        ringCount = u32(20)
        vertexCount = u32(24)
        nodeCount = u32(28)
        argumentCount = u32(32)
        stringCount = u32(36)
        root = Int(base.load(fromByteOffset: 40, as: Int32.self))
        shapesAt = FenceImage.headerSize
        fencesAt = shapesAt + FenceImage.shapeSize * fenceCount
        argumentsAt = fencesAt + FenceImage.fenceSize * fenceCount
        ringsAt = argumentsAt + 8 * argumentCount
        verticesAt = ringsAt + 8 * ringCount
        nodesAt = verticesAt + 16 * vertexCount
        stringsAt = nodesAt + FenceImage.nodeSize * nodeCount
        let total = stringsAt + (stringCount + 7) / 8 * 8
        guard Int(base.load(fromByteOffset: 48, as: UInt64.self)) == total, storage.count == total else {
            throw .wrongLength(bytes: storage.count, expected: total)
        }
        var crc = CRC32C()
        crc.update(UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: total).span,
                   FenceImage.headerSize..<total)
        guard crc.value == base.load(fromByteOffset: 44, as: UInt32.self) else { throw .badCRC }
        try check()
    }

    /// Every index and offset inside its table, and the index a tree whose children come
    /// before their parent (so a query ends).
    func check() throws(FenceImageError) {
        guard let base else { return }
        for fence in 0..<fenceCount {
            let shape = shapesAt + FenceImage.shapeSize * fence
            let first = Int(base.load(fromByteOffset: shape + 112, as: UInt32.self))
            let end = Int(base.load(fromByteOffset: shape + 116, as: UInt32.self))
            let record = fencesAt + FenceImage.fenceSize * fence
            let kind = base.load(fromByteOffset: record + 29, as: UInt8.self)
            guard first <= end, end <= ringCount, kind <= 1, (kind == 0) == (first == end) else { throw .badFence(fence) }
            guard inStrings(record), inStrings(record + 8) || base.load(fromByteOffset: record + 12, as: UInt32.self) == FenceImage.none else {
                throw .badFence(fence)
            }
            let firstArgument = Int(base.load(fromByteOffset: record + 16, as: UInt32.self))
            let arguments = Int(base.load(fromByteOffset: record + 20, as: UInt32.self))
            guard firstArgument <= argumentCount, arguments <= argumentCount - firstArgument else { throw .badFence(fence) }
        }
        for argument in 0..<argumentCount where !inStrings(argumentsAt + 8 * argument) { throw .badArgument(argument) }
        for ring in 0..<ringCount {
            let first = Int(base.load(fromByteOffset: ringsAt + 8 * ring, as: UInt32.self))
            let end = Int(base.load(fromByteOffset: ringsAt + 8 * ring + 4, as: UInt32.self))
            guard first < end, end <= vertexCount else { throw .badRing(ring) }
        }
        guard nodeCount == 0 ? root == -1 : root >= 0 && root < nodeCount else { throw .badNode(root) }
        for node in 0..<nodeCount {
            let at = nodesAt + FenceImage.nodeSize * node
            let first = Int(base.load(fromByteOffset: at + 32, as: Int32.self))
            let count = Int(base.load(fromByteOffset: at + 36, as: Int32.self))
            let fine = count == 0 ? first >= 0 && first < fenceCount
                : count > 0 && count <= FenceIndex.fanOut && first >= 0 && first + count <= node
            guard fine else { throw .badNode(node) }
        }
    }

    /// True when the (offset, length) pair at `at` lies inside the strings.
    func inStrings(_ at: Int) -> Bool {
        guard let base else { return false }
        let offset = Int(base.load(fromByteOffset: at, as: UInt32.self))
        let length = Int(base.load(fromByteOffset: at + 4, as: UInt32.self))
        return offset <= stringCount && length <= stringCount - offset
    }

    /// Where the key of an image comes from: the fences file's bytes and the settings that
    /// change what is compiled (the circle radius limits), so a different file or limit
    /// compiles again. CRC-32C and FNV-1a side by side, e.g. for the bytes `{}` and the
    /// default limits, a key that no other file of those limits is likely to share.
    public static func key(source: [UInt8], settings: FenceSettings) -> UInt64 {
        var key = Key()
        source.withUnsafeBytes { key.add($0) }
        return key.value(settings: settings)
    }

    /// `key(source:settings:)` fed in pieces, e.g. a file read 64 KiB at a time.
    public struct Key {
        var crc = CRC32C()
        var fnv: UInt32 = 0x811C_9DC5
        var count: UInt64 = 0

        /// Nothing fed yet.
        public init() {}

        mutating func add(_ byte: UInt8) {
            crc.update(byte)
            fnv = (fnv ^ UInt32(byte)) &* 0x0100_0193
        }

        /// Feeds the next bytes of the source.
        public mutating func add(_ bytes: UnsafeRawBufferPointer) {
            for byte in bytes { add(byte) }
            count &+= UInt64(bytes.count)
        }

        /// The key of the bytes fed, with `settings`.
        public func value(settings: FenceSettings) -> UInt64 {
            var key = self
            for value in [settings.minimumRadiusMetres.bitPattern, settings.maximumRadiusMetres.bitPattern, count] {
                for shift in stride(from: 0, to: 64, by: 8) { key.add(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
            }
            return UInt64(key.crc.value) << 32 | UInt64(key.fnv)
        }
    }

    /// The key the image was compiled for.
    public var key: UInt64 { base?.load(fromByteOffset: 8, as: UInt64.self) ?? 0 }

    /// All the bytes, e.g. to write the image to a file.
    public var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: storage.count) }
}

/// Why a fence image cannot be used; the daemon then compiles the fences file again.
public enum FenceImageError: Error, Equatable, Sendable {
    /// Shorter than its header.
    case tooShort(bytes: Int)
    /// Does not start with the image's magic.
    case notAnImage
    /// Written on a machine of the other byte order.
    case otherByteOrder
    /// A version this build does not read.
    case unknownVersion(UInt32)
    /// The file's length is not what its header's counts make it.
    case wrongLength(bytes: Int, expected: Int)
    /// The CRC does not match: torn or decayed.
    case badCRC
    /// A fence, argv entry, ring or index node that points outside its table.
    case badFence(Int), badArgument(Int), badRing(Int), badNode(Int)

    /// One line, e.g. `the CRC does not match (torn or damaged)`.
    public var description: String {
        switch self {
        case .tooShort: "shorter than its header"
        case .notAnImage: "not a fence image"
        case .otherByteOrder: "written on a machine of the other byte order"
        case .unknownVersion: "a version this trackd does not read"
        case .wrongLength: "not the length its header gives"
        case .badCRC: "the CRC does not match (torn or damaged)"
        case .badFence, .badArgument, .badRing, .badNode: "a table points outside the image"
        }
    }
}
