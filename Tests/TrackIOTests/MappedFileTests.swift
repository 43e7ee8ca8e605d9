import Foundation
import TestData
import Testing
import TrackCore
import TrackIO

/// The gazetteer through `MappedFile`: the same answers as the file read whole, and errors for
/// what cannot be mapped.
@Suite struct MappedFileTests {
    static let table = TestData.gazetteer

    @Test(.needsGazetteer) func lookupsOnTheMappedTableEqualThoseOnItsBytes() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.table))
        let bytes = [UInt8](data)
        let mapped = try MappedFile(path: Self.table)
        #expect(mapped.count == bytes.count)
        let table = try PlaceTable(bytes.span)
        let mappedTable = try mapped.withBytes { (span) throws(PlaceTableError) in try PlaceTable(span) }
        #expect(mappedTable == table)
        var state: UInt64 = 99
        for _ in 0..<500 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let latitude = Int64(state >> 40) % 170_000_000_000 / 1 - 85_000_000_000
            let longitude = Int64(state >> 20 & 0xFFFFFFFFF) % 360_000_000_000 - 180_000_000_000
            let point = Coordinate(latitudeNanodegrees: latitude, longitudeNanodegrees: longitude)
            let expected = table.nearest(to: point, withinMetres: 2_000_000, in: bytes.span)
            let found = mapped.withBytes { span in table.nearest(to: point, withinMetres: 2_000_000, in: span) }
            #expect(found == expected)
        }
        #expect(mapped.cachedPageCount() > 0)
    }

    @Test func aMissingFileIsENOENTAndAnEmptyOneHasNoBytes() throws {
        #expect(throws: Errno.noSuchFile) { _ = try MappedFile(path: "/nonexistent/places.bin") }
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("empty-\(getpid()).bin")
        #expect(FileManager.default.createFile(atPath: empty.path, contents: Data()))
        defer { try? FileManager.default.removeItem(at: empty) }
        let mapped = try MappedFile(path: empty.path)
        #expect(mapped.count == 0)
        #expect(throws: PlaceTableError.tooShort(byteCount: 0)) {
            try mapped.withBytes { (span) throws(PlaceTableError) in _ = try PlaceTable(span) }
        }
    }
}
