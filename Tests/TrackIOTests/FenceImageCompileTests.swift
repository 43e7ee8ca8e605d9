import CLinux
import Foundation
import Testing
import TestData
import TrackCore
@testable import TrackIO

// `trackctl fence compile` in bounded memory: the GeoJSON read from the file, the tables
// spooled to files beside the image and the image written through a temporary file give the
// bytes the in-memory compiler gives, leave nothing behind, and name every failure.

@Suite struct FenceImageCompileTests {
    /// A fences file bigger than every buffer of the spool: `count` star polygons of 40
    /// vertices and as many circles around Tübingen, one polygon of 4,400 vertices (its
    /// vertices alone more than one 64 KiB buffer), names and commands.
    static func largeFile(count: Int) -> [UInt8] {
        // A seeded linear congruential generator (Knuth's MMIX constants).
        var state: UInt64 = 2026
        func unit() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        func ring(_ latitude: Double, _ longitude: Double, metres: Double, vertices: Int, jitter: Bool) -> String {
            var positions: [String] = []
            for k in 0..<vertices {
                let angle = 2 * Double.pi * Double(k) / Double(vertices)
                let r = metres * (jitter ? 0.7 + 0.3 * unit() : 1)
                positions.append(String(format: "[%.7f,%.7f]", longitude + r * sin(angle) / 73_800, latitude + r * cos(angle) / 111_320))
            }
            positions.append(positions[0])
            return "[[" + positions.joined(separator: ",") + "]]"
        }
        var features: [String] = []
        for k in 0..<count {
            let latitude = 48 + unit()
            let longitude = 8.5 + 1.5 * unit()
            features.append("{\"type\":\"Feature\",\"properties\":{\"id\":\"c\(k)\",\"radius\":\(Int(30 + 400 * unit())),\"name\":\"Circle \(k)\"},"
                + String(format: "\"geometry\":{\"type\":\"Point\",\"coordinates\":[%.7f,%.7f]}}", longitude, latitude))
            features.append("{\"type\":\"Feature\",\"properties\":{\"id\":\"p\(k)\",\"command\":[\"/bin/true\",\"p\(k)\"]},"
                + "\"geometry\":{\"type\":\"Polygon\",\"coordinates\":" + ring(latitude, longitude, metres: 300, vertices: 40, jitter: true) + "}}")
        }
        features.append("{\"type\":\"Feature\",\"properties\":{\"id\":\"big\"},\"geometry\":{\"type\":\"Polygon\",\"coordinates\":"
            + ring(48.5, 9.05, metres: 20_000, vertices: 4_400, jitter: false) + "}}")
        return Array(("{\"type\":\"FeatureCollection\",\"features\":[\n" + features.joined(separator: ",\n") + "\n]}\n").utf8)
    }

    @Test func compiledFileIsTheInMemoryImage() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let bytes = Self.largeFile(count: 400)
        #expect(bytes.count > 500_000)
        try Data(bytes).write(to: URL(fileURLWithPath: folder.file("fences.geojson")))
        let summary = try FenceImageFile.compile(folder.file("fences.geojson"), to: folder.file("fences.image"), settings: FenceSettings())
        let expected = try FenceFile.parse(bytes, settings: FenceSettings())
        let written = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder.file("fences.image"))))
        withExtendedLifetime(expected) { #expect(written == Array(expected.image.bytes)) }
        let counts: [Int] = [summary.fences, summary.circles, summary.rings, summary.vertices]
        #expect(counts == [801, 400, 401, 20_801])
        #expect(summary.bytes == written.count)
        // The image opens as trackd maps it, with the key of the file's bytes.
        let mapped = try FenceImageFile.open(folder.file("fences.image"))
        #expect(mapped.key == FenceImage.key(source: bytes, settings: FenceSettings()))
        // The table files were unlinked when opened, the temporary image renamed.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["fences.geojson", "fences.image"])
    }

    @Test func validateChecksWithoutAnImage() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try Data(Self.largeFile(count: 20)).write(to: URL(fileURLWithPath: folder.file("fences.geojson")))
        let summary = try FenceImageFile.compile(folder.file("fences.geojson"), to: nil, settings: FenceSettings())
        let counts: [Int] = [summary.fences, summary.circles, summary.rings, summary.vertices]
        #expect(counts == [41, 20, 21, 5_221])
        #expect(summary.bytes == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["fences.geojson"])
    }

    @Test func badFeatureNamesFileAndFeatureAndLeavesTheOldImage() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("fences.geojson")
        let text = "{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"properties\":{\"id\":\"a\",\"radius\":50},"
            + "\"geometry\":{\"type\":\"Point\",\"coordinates\":[9,48]}},{\"type\":\"Feature\",\"properties\":{\"id\":\"a\",\"radius\":50},"
            + "\"geometry\":{\"type\":\"Point\",\"coordinates\":[9,48]}}]}"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        try "old".write(toFile: folder.file("fences.image"), atomically: true, encoding: .utf8)
        #expect(throws: FenceCompileError.fences(path: path, FenceFileError(featureIndex: 1, featureID: "a", problem: .duplicateID(firstIndex: 0)))) {
            try FenceImageFile.compile(path, to: folder.file("fences.image"), settings: FenceSettings())
        }
        #expect(try String(contentsOfFile: folder.file("fences.image"), encoding: .utf8) == "old")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["fences.geojson", "fences.image"])
        let error = FenceCompileError.fences(path: path, FenceFileError(featureIndex: 1, featureID: "a", problem: .duplicateID(firstIndex: 0)))
        #expect(error.message == path + ": feature 1 (id \"a\"): the id is already used by feature 0")
    }

    @Test func unreadableFilesAndUnwritableImages() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let missing = folder.file("missing.geojson")
        #expect(throws: FenceCompileError.unreadable(path: missing, .noSuchFile)) {
            try FenceImageFile.compile(missing, to: folder.file("fences.image"), settings: FenceSettings())
        }
        // A directory opens but does not read: the read error, not "unexpected end".
        #expect(throws: FenceCompileError.unreadable(path: folder.path, Errno(rawValue: EISDIR))) {
            try FenceImageFile.compile(folder.path, to: folder.file("fences.image"), settings: FenceSettings())
        }
        try Data(Self.largeFile(count: 2)).write(to: URL(fileURLWithPath: folder.file("fences.geojson")))
        let nowhere = folder.file("no-such-directory/fences.image")
        #expect(throws: FenceCompileError.cannotSave(.saveFailed(path: nowhere, step: .create, .noSuchFile))) {
            try FenceImageFile.compile(folder.file("fences.geojson"), to: nowhere, settings: FenceSettings())
        }
    }
}
