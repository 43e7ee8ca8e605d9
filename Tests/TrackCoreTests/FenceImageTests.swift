import Testing
import TrackCore

// The compiled fence image: what a parsed fences file compiles to opens again from its bytes
// alone and answers every question the same; any damage to the bytes is refused, naming it.

@Suite struct FenceImageTests {
    static let file = fenceCollection(
        pointFeature("\"id\":\"home\",\"name\":\"Home\",\"radius\":150,\"dwell\":300,\"command\":[\"/bin/true\",\"-x\"]"),
        polygonFeature("\"id\":\"yard\",\"notify\":[\"exit\"]", "[" + squareRing + "]"),
        "{\"type\":\"Feature\",\"id\":7,\"properties\":null,\"geometry\":{\"type\":\"MultiPolygon\",\"coordinates\":[["
            + squareRing + "],[[[10,48],[10.01,48],[10.01,48.01],[10,48]]]]}}",
        pointFeature("\"id\":\"ü-ß\",\"radius\":10", "[179.9999,-45]"))

    static func compiled() throws -> FenceSet { try FenceFile.parse(file, settings: FenceSettings()) }

    /// The image's bytes, copied, with `edit` applied.
    static func bytes(_ set: FenceSet, _ edit: (inout [UInt8]) -> Void = { _ in }) -> [UInt8] {
        var bytes = Array(set.image.bytes)
        edit(&bytes)
        return bytes
    }

    @Test func reopenedFromItsBytesItAnswersTheSame() throws {
        let set = try Self.compiled()
        let copy = FenceSet(image: try FenceImage(FenceStorage(copying: Self.bytes(set))))
        #expect(copy.count == 4)
        #expect(Array(copy.fences) == Array(set.fences))
        #expect(copy.fences[0] == Fence(id: "home", name: "Home", notify: [.enter, .exit, .dwell], dwellSeconds: 300,
                                        command: ["/bin/true", "-x"], kind: .circle(radiusMetres: 150)))
        #expect(copy.fences[3].id == "ü-ß" && copy.fences[3].name == nil && copy.fences[3].command.isEmpty)
        #expect(copy.image.key == FenceImage.key(source: Self.file, settings: FenceSettings()))
        #expect(copy.ringCount == 3 && copy.vertexCount == set.vertexCount)
        for latitude in stride(from: 48.49, through: 48.52, by: 0.0037) {
            for longitude in stride(from: 8.99, through: 9.07, by: 0.0041) {
                let coordinate = Coordinate(latitudeNanodegrees: Int64(latitude * 1e9), longitudeNanodegrees: Int64(longitude * 1e9))
                let point = GeoVector(coordinate)
                for fence in 0..<4 {
                    #expect(copy.signedDistance(of: fence, to: point, coordinate: coordinate, limitMetres: 500)
                            == set.signedDistance(of: fence, to: point, coordinate: coordinate, limitMetres: 500))
                }
                var found: [Int] = []
                copy.boxesAround(coordinate, metres: 300) { box in copy.index.query(box) { found.append($0) } }
                var expected: [Int] = []
                set.boxesAround(coordinate, metres: 300) { box in set.index.query(box) { expected.append($0) } }
                #expect(found == expected)
            }
        }
        #expect(copy.outline(of: 1) == set.outline(of: 1))
    }

    @Test func anotherFileOrRadiusLimitHasAnotherKey() {
        var settings = FenceSettings()
        let key = FenceImage.key(source: Self.file, settings: settings)
        #expect(FenceImage.key(source: Self.file.dropLast(), settings: settings) != key)
        settings.maximumRadiusMetres = 40_000
        #expect(FenceImage.key(source: Self.file, settings: settings) != key)
    }

    /// Sets the image's CRC (bytes 44…47) to that of its body again, so a test reaches the
    /// checks after it.
    static func reseal(_ bytes: inout [UInt8]) {
        var crc = CRC32C()
        bytes.withUnsafeBufferPointer { crc.update($0.span, 64..<$0.count) }
        for index in 0..<4 { bytes[44 + index] = UInt8(truncatingIfNeeded: crc.value >> (8 * index)) }
    }

    static func little(_ bytes: [UInt8], _ at: Int) -> Int {
        (0..<4).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) }
    }

    static func put(_ value: UInt32, _ bytes: inout [UInt8], _ at: Int) {
        for index in 0..<4 { bytes[at + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
    }

    @Test func damageIsRefusedNamingWhat() throws {
        let set = try Self.compiled()
        func open(_ bytes: [UInt8]) -> FenceImageError? {
            do { _ = try FenceImage(FenceStorage(copying: bytes)) } catch { return error }
            return nil
        }
        let good = Self.bytes(set)
        #expect(open(good) == nil)
        #expect(open([]) == .tooShort(bytes: 0))
        #expect(open(Array(good.prefix(40))) == .tooShort(bytes: 40))
        #expect(open(Self.bytes(set) { $0[1] ^= 1 }) == .notAnImage)
        #expect(open(Self.bytes(set) { $0[4] = 2 }) == .unknownVersion(2))
        #expect(open(Self.bytes(set) { $0[56...59] = [1, 2, 3, 4] }) == .otherByteOrder)
        #expect(open(Array(good.dropLast(8))) == .wrongLength(bytes: good.count - 8, expected: good.count))
        // One flipped bit anywhere in the body.
        for offset in stride(from: 64, to: good.count, by: 37) {
            #expect(open(Self.bytes(set) { $0[offset] ^= 0x10 }) == .badCRC, "flip at \(offset)")
        }
        // Tables that point outside themselves, with the CRC made to match.
        let fences = Self.little(good, 16), rings = Self.little(good, 20), arguments = Self.little(good, 32)
        let fencesAt = 64 + 128 * fences
        let ringsAt = fencesAt + 40 * fences + 8 * arguments
        let nodesAt = ringsAt + 8 * rings + 16 * Self.little(good, 24)
        #expect(open(Self.bytes(set) { Self.put(99, &$0, 64 + 116); Self.reseal(&$0) }) == .badFence(0))
        #expect(open(Self.bytes(set) { Self.put(1 << 20, &$0, fencesAt + 40 + 4); Self.reseal(&$0) }) == .badFence(1))
        #expect(open(Self.bytes(set) { Self.put(1 << 20, &$0, fencesAt + 40 * fences + 4); Self.reseal(&$0) }) == .badArgument(0))
        #expect(open(Self.bytes(set) { Self.put(1 << 20, &$0, ringsAt + 4); Self.reseal(&$0) }) == .badRing(0))
        // A node whose children come after it could loop: refused.
        let root = Self.little(good, 40)
        #expect(open(Self.bytes(set) { Self.put(UInt32(root), &$0, nodesAt + 40 * root + 32); Self.reseal(&$0) }) == .badNode(root))
    }

    @Test func noFencesCompileToAnImageToo() throws {
        let set = try FenceFile.parse(fenceCollection(), settings: FenceSettings())
        let copy = FenceSet(image: try FenceImage(FenceStorage(copying: Self.bytes(set))))
        #expect(copy.count == 0 && copy.fences.isEmpty)
        var found = false
        copy.index.query(FenceBox(minLatitude: -90, maxLatitude: 90, minLongitude: -180, maxLongitude: 180)) { _ in found = true }
        #expect(!found)
    }
}
