import Foundation
import Testing
import TrackCore

// The fences file: what a map editor exports is read, and each problem is refused with the
// feature's index and id.

/// A FeatureCollection around the given feature texts.
func fenceCollection(_ features: String...) -> [UInt8] {
    Array(("{\"type\":\"FeatureCollection\",\"features\":[" + features.joined(separator: ",") + "]}").utf8)
}

/// A Polygon feature with `properties` (JSON members) and rings (JSON).
func polygonFeature(_ properties: String, _ rings: String) -> String {
    "{\"type\":\"Feature\",\"properties\":{" + properties + "},\"geometry\":{\"type\":\"Polygon\",\"coordinates\":" + rings + "}}"
}

/// A Point feature with `properties`.
func pointFeature(_ properties: String, _ position: String = "[9.0663,48.5242]") -> String {
    "{\"type\":\"Feature\",\"properties\":{" + properties + "},\"geometry\":{\"type\":\"Point\",\"coordinates\":" + position + "}}"
}

let squareRing = "[[9.0,48.5],[9.01,48.5],[9.01,48.51],[9.0,48.51],[9.0,48.5]]"

@Suite struct FenceFileTests {
    @Test func readsCirclesPolygonsAndProperties() throws {
        let file = fenceCollection(
            pointFeature("\"id\":\"home\",\"name\":\"Home\",\"radius\":150,\"dwell\":300,\"command\":[\"/bin/true\",\"-x\"]"),
            polygonFeature("\"id\":\"yard\",\"notify\":[\"exit\"]", "[" + squareRing + "]"),
            "{\"type\":\"Feature\",\"id\":7,\"properties\":null,\"geometry\":{\"type\":\"MultiPolygon\",\"coordinates\":[["
                + squareRing + "],[[[10,48],[10.01,48],[10.01,48.01],[10,48]]]]}}",
            pointFeature("\"radius\":10")
        )
        let fences = try FenceFile.parse(file, settings: FenceSettings())
        #expect(fences.fences.map(\.id) == ["home", "yard", "7", "3"])
        #expect(fences.fences[0] == Fence(id: "home", name: "Home", notify: [.enter, .exit, .dwell], dwellSeconds: 300,
                                          command: ["/bin/true", "-x"], kind: .circle(radiusMetres: 150)))
        #expect(fences.fences[1].notify == [.exit])
        #expect(fences.fences[2].kind == .polygon(rings: 2))
    }

    @Test(arguments: [
        (fenceCollection(pointFeature("\"id\":\"a\",\"radius\":5")), 0, String?("a"),
         FenceFileError.Problem.radiusOutOfRange(5, minimumMetres: 10, maximumMetres: 50_000)),
        (fenceCollection(pointFeature("\"id\":\"a\"")), 0, "a", .missingRadius),
        (fenceCollection(pointFeature("\"id\":\"a\",\"radius\":50"), pointFeature("\"id\":\"a\",\"radius\":50")), 1, "a",
         .duplicateID(firstIndex: 0)),
        (fenceCollection(polygonFeature("\"id\":\"p\"", "[[[9,48],[9.1,48],[9,48]]]")), 0, "p", .tooFewPositions(ring: 0, count: 3)),
        (fenceCollection(polygonFeature("\"id\":\"p\"", "[[[9,48],[9.1,48],[9.1,48.1],[9,48.1]]]")), 0, "p", .ringNotClosed(ring: 0)),
        (fenceCollection(polygonFeature("\"id\":\"bow\"", "[[[9,48],[9.01,48.01],[9.01,48],[9,48.01],[9,48]]]")), 0, "bow",
         .selfIntersecting(ring: 0, edge: 0, otherEdge: 2)),
        (fenceCollection(polygonFeature("\"id\":\"h\"", "[" + squareRing + ",[[9.002,48.502],[9.004,48.502],[9.002,48.502]]]")),
         0, "h", .tooFewPositions(ring: 1, count: 3)),
        (fenceCollection(polygonFeature("\"id\":\"p\"", "[[[9,91],[9.1,48],[9.1,48.1],[9,91]]]")), 0, "p",
         .coordinateOutOfRange(longitude: 9, latitude: 91)),
        (fenceCollection(pointFeature("\"id\":\"a\",\"radius\":50", "[181,0]")), 0, "a", .coordinateOutOfRange(longitude: 181, latitude: 0)),
        (fenceCollection(pointFeature("\"id\":\"a\",\"radius\":50", "[9]")), 0, "a",
         .malformedCoordinates(expected: "[longitude, latitude] in degrees")),
        (fenceCollection("{\"type\":\"Feature\",\"properties\":{\"id\":\"l\"},\"geometry\":{\"type\":\"LineString\",\"coordinates\":[[0,0],[1,1]]}}"),
         0, "l", .unsupportedGeometry("LineString")),
        (fenceCollection("{\"type\":\"Feature\",\"properties\":{\"id\":\"g\"}}"), 0, "g", .missingGeometry),
        (fenceCollection("[]"), 0, nil, .notAFeature),
        (fenceCollection(pointFeature("\"id\":\"c\",\"radius\":50,\"command\":\"rm -rf /\"")), 0, "c",
         .badProperty(name: "command", expected: "an argv array of non-empty strings, e.g. [\"/usr/local/bin/alert\", \"--quiet\"] (no shell)")),
        (fenceCollection(pointFeature("\"id\":\"n\",\"radius\":50,\"notify\":[\"arrive\"]")), 0, "n",
         .badProperty(name: "notify", expected: "an array of \"enter\", \"exit\", \"dwell\"")),
        (fenceCollection(pointFeature("\"id\":\"d\",\"radius\":50,\"notify\":[\"dwell\"]")), 0, "d",
         .badProperty(name: "dwell", expected: "set (seconds) when notify has \"dwell\"")),
        (fenceCollection(pointFeature("\"id\":\"d\",\"radius\":50,\"dwell\":-1")), 0, "d",
         .badProperty(name: "dwell", expected: "a number of seconds, 0…31536000")),
        (fenceCollection(pointFeature("\"id\":\"\",\"radius\":50")), 0, nil,
         .badProperty(name: "id", expected: "a non-empty string or an integer")),
        (fenceCollection(polygonFeature("\"id\":\"huge\"", "[[[0,0],[10,0],[10,10],[0,10],[0,0]]]")), 0, "huge",
         .tooLarge(metres: 0, maximumMetres: 500_000)),
    ])
    func refusesNamingTheFeature(file: [UInt8], index: Int, id: String?, problem: FenceFileError.Problem) {
        do {
            _ = try FenceFile.parse(file, settings: FenceSettings())
            Issue.record("accepted")
        } catch {
            #expect(error.featureIndex == index)
            #expect(error.featureID == id)
            if case .tooLarge = problem, case .tooLarge(_, let maximum) = error.problem {
                #expect(maximum == 500_000)
            } else {
                #expect(error.problem == problem)
            }
        }
    }

    @Test(arguments: [
        ("{\"type\":\"FeatureCollection\"}", FenceFileError.Problem.notFeatureCollection),
        ("[]", .notFeatureCollection),
        ("{\"type\":\"FeatureCollection\",\"features\":[],}",
         .json(JSONError(offset: 42, line: 1, column: 43, problem: .unexpectedByte(UInt8(ascii: "}"))))),
    ])
    func refusesTheFile(text: String, problem: FenceFileError.Problem) {
        #expect(throws: FenceFileError(featureIndex: nil, problem: problem)) {
            try FenceFile.parse(Array(text.utf8), settings: FenceSettings())
        }
    }

    @Test func errorDescriptionsNameFeatureAndProblem() {
        let error = FenceFileError(featureIndex: 3, featureID: "depot", problem: .tooFewPositions(ring: 1, count: 3))
        #expect(error.description == "feature 3 (id \"depot\"): ring 1 has 3 positions, a ring needs at least 4 (the first repeated at the end)")
        let bow = FenceFileError(featureIndex: 0, featureID: "bow", problem: .selfIntersecting(ring: 0, edge: 0, otherEdge: 2))
        #expect(bow.description == "feature 0 (id \"bow\"): ring 0 intersects itself: edge 0 meets edge 2")
    }

    @Test func radiusRangeComesFromSettings() throws {
        var settings = FenceSettings()
        settings.minimumRadiusMetres = 1
        let fences = try FenceFile.parse(fenceCollection(pointFeature("\"id\":\"a\",\"radius\":5")), settings: settings)
        #expect(fences.count == 1)
    }
}

@Suite struct FenceExampleFileTests {
    /// The example the Debian package ships must stay a valid fences file.
    @Test func boardExampleIsValid() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("board/fences.example.geojson")
        let fences = try FenceFile.parse([UInt8](try Data(contentsOf: url)), settings: FenceSettings())
        #expect(fences.fences.map(\.id) == ["depot", "home"])
        #expect(fences.fences[1].dwellSeconds == 600)
    }
}
