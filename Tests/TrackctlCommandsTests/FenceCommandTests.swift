import Foundation
import TestData
import Testing
import TrackCore
@testable import TrackctlCommands
import TrackIO

/// `trackctl fence validate` and `compile`, run as trackctl runs them: what they print, what
/// they refuse and how they say it (file, feature, what is wrong), and their exit codes.
@Suite struct FenceCommandTests {
    static let demoFences = TestData.repository.appendingPathComponent("board/demo-fences.geojson").path

    /// Runs `trackctl fence ARGUMENTS` with an empty configuration (the default radius limits)
    /// in a fresh folder holding `files`; the exit code, output, errors and the folder.
    static func run(_ arguments: [String], files: [String: String] = [:]) throws
        -> (status: Int32, output: String, errors: String, folder: TemporaryFolder) {
        let folder = try TemporaryFolder()
        try "".write(toFile: folder.file("trackd.conf"), atomically: true, encoding: .utf8)
        for (name, text) in files { try text.write(toFile: folder.file(name), atomically: true, encoding: .utf8) }
        let resolved = arguments.map { $0.hasPrefix("@") ? folder.file(String($0.dropFirst())) : $0 }
        var context = CommandContext.captured()
        let status = FenceCommand.run([resolved[0], "--config", folder.file("trackd.conf")] + resolved.dropFirst(), &context)
        return (status, context.output, context.errors, folder)
    }

    static func feature(_ properties: String, _ geometry: String) -> String {
        "{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"properties\":{" + properties
            + "},\"geometry\":" + geometry + "}]}"
    }

    @Test func validateCountsWhatTheFileHolds() throws {
        let run = try Self.run(["validate", Self.demoFences])
        defer { run.folder.remove() }
        #expect(run.status == 0 && run.errors.isEmpty, "\(run.errors)")
        #expect(run.output == Self.demoFences + ": 2 fences (1 circles, 1 polygons with 1 rings and 5 vertices)\n")
    }

    @Test func compileWritesAnImageTheDaemonCanMap() throws {
        let run = try Self.run(["compile", Self.demoFences, "@fences.image"])
        defer { run.folder.remove() }
        #expect(run.status == 0 && run.errors.isEmpty, "\(run.errors)")
        let image = try FileDescriptor.readWholeFile(run.folder.file("fences.image"))
        #expect(run.output == run.folder.file("fences.image") + ": 2 fences, \(image.count) bytes\n")
        #expect(image.count > 0)
    }

    /// Each bad file is refused with exit 1 and one line naming the file, then where and what;
    /// compile writes no image.
    @Test(arguments: [
        ("{\"type\":\"FeatureCollection\",\"features\":[}",
         "trackctl fence: @f.geojson: not JSON: line 1, column 41: unexpected '}' (0x7D)\n"),
        ("[1, 2]", "trackctl fence: @f.geojson: the file is not a GeoJSON FeatureCollection with a \"features\" array\n"),
        (feature("\"id\":\"camp\"", "{\"type\":\"Point\",\"coordinates\":[9.05,48.52]}"),
         "trackctl fence: @f.geojson: feature 0 (id \"camp\"): a Point fence needs a numeric properties.radius in metres\n"),
        (feature("\"id\":\"camp\",\"radius\":-5", "{\"type\":\"Point\",\"coordinates\":[9.05,48.52]}"),
         "trackctl fence: @f.geojson: feature 0 (id \"camp\"): radius -5.0 m is outside the configured range 10.0…50000.0 m\n"),
        (feature("\"id\":\"far\",\"radius\":50", "{\"type\":\"Point\",\"coordinates\":[9.05,98.52]}"),
         "trackctl fence: @f.geojson: feature 0 (id \"far\"): position [9.05, 98.52] is out of range (longitude −180…180, latitude −90…90)\n"),
        (feature("\"id\":\"bow\"", "{\"type\":\"Polygon\",\"coordinates\":[[[0,0],[1,1],[1,0],[0,1],[0,0]]]}"),
         "trackctl fence: @f.geojson: feature 0 (id \"bow\"): ring 0 intersects itself: edge 0 meets edge 2\n"),
        (feature("\"id\":\"depot\"", "{\"type\":\"Polygon\",\"coordinates\":[[[0,0],[1,1],[0,0]]]}"),
         "trackctl fence: @f.geojson: feature 0 (id \"depot\"): ring 0 has 3 positions, a ring needs at least 4 (the first repeated at the end)\n"),
    ])
    func badFencesFilesAreRefusedNamingWhereAndWhat(text: String, expected: String) throws {
        for subcommand in [["validate", "@f.geojson"], ["compile", "@f.geojson", "@f.image"]] {
            let run = try Self.run(subcommand, files: ["f.geojson": text])
            defer { run.folder.remove() }
            let message = expected.replacingOccurrences(of: "@f.geojson", with: run.folder.file("f.geojson"))
            #expect(run.status == 1, "\(subcommand[0]): \(run.errors)")
            #expect(run.errors == message, "\(subcommand[0])")
            #expect(run.output.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: run.folder.file("f.image")), "nothing written")
        }
    }

    @Test func aMissingFencesFileIsNamed() throws {
        let run = try Self.run(["validate", "@missing.geojson"])
        defer { run.folder.remove() }
        #expect(run.status == 1)
        #expect(run.errors == "trackctl fence: " + run.folder.file("missing.geojson") + ": No such file or directory\n")
    }

    @Test func anImageThatCannotBeWrittenIsExitThree() throws {
        let run = try Self.run(["compile", Self.demoFences, "@no-such-folder/fences.image"])
        defer { run.folder.remove() }
        #expect(run.status == FenceImageFile.cannotSave && run.status == 3)
        #expect(run.errors.hasPrefix("trackctl fence: ") && run.errors.contains("no-such-folder"), "\(run.errors)")
        #expect(run.output.isEmpty)
    }

    /// Wrong argument counts and options are usage errors: exit 2, the problem, then the usage.
    @Test(arguments: [
        (["validate"], "trackctl fence: validate takes one fences file\n"),
        (["validate", "a", "b"], "trackctl fence: validate takes one fences file\n"),
        (["validate", "--fences", "a", "b"], "trackctl fence: validate takes one fences file\n"),
        (["validate", "--verbose", "a"], "trackctl fence: validate takes one fences file\n"),
        (["compile", "a"], "trackctl fence: compile takes a fences file and the image to write\n"),
        (["frobnicate"], "trackctl fence: unknown subcommand 'frobnicate'\n"),
    ])
    func usageErrorsSayWhatIsWrongThenTheUsage(arguments: [String], message: String) {
        var context = CommandContext.captured()
        #expect(FenceCommand.run(arguments, &context) == 2)
        #expect(context.errors.hasPrefix(message + "usage: trackctl fence validate"), "\(context.errors)")
        #expect(context.output.isEmpty)
    }

    @Test func aBrokenConfigurationIsNamedWithItsLine() throws {
        let run = try Self.run(["validate", Self.demoFences], files: ["trackd.conf": "[fences]\nmax-radius = lots\n"])
        defer { run.folder.remove() }
        #expect(run.status == 1)
        #expect(run.errors.hasPrefix("trackctl fence: " + run.folder.file("trackd.conf") + ":2: fences.max-radius: "),
                "\(run.errors)")
    }
}
