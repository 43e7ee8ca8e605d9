import Foundation
import Testing
@testable import TrackCore

// The streaming fences compiler against the old one (LegacyFenceCompiler): the same image,
// byte for byte, or the same error, on every fences file of the repository, on seeded
// generated files and on seeded mutations of them.

@Suite struct FenceStreamOracleTests {
    /// Every fences file in the repository (fixtures, the board's examples, the board test's).
    static let repositoryFiles: [(String, [UInt8])] = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        var files: [(String, [UInt8])] = []
        for folder in ["Tests/TrackCoreTests/Fixtures/fences", "board", "scripts/board-test.d"] {
            let url = root.appendingPathComponent(folder)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
            for name in names.sorted() where name.hasSuffix(".geojson") {
                if let data = try? Data(contentsOf: url.appendingPathComponent(name)) { files.append((folder + "/" + name, [UInt8](data))) }
            }
        }
        for name in ["polygon-past-the-horizon", "polygon-round-the-pole"] {
            if let bytes = try? FuzzFixtures.load("fences", name) { files.append(("fuzz/fences/" + name, bytes)) }
        }
        return files
    }()

    /// The new compiler's image bytes or error.
    static func compiled(_ bytes: [UInt8], settings: FenceSettings = FenceSettings()) -> Result<[UInt8], FenceFileError> {
        do {
            let set = try FenceFile.parse(bytes, settings: settings)
            return .success(withExtendedLifetime(set) { Array(set.image.bytes) })
        } catch {
            return .failure(error)
        }
    }

    static func legacy(_ bytes: [UInt8], settings: FenceSettings = FenceSettings()) -> Result<[UInt8], FenceFileError> {
        do {
            return .success(try LegacyFenceCompiler.compile(bytes, settings: settings))
        } catch {
            return .failure(error)
        }
    }

    @Test func repositoryFilesCompileAsBefore() {
        #expect(Self.repositoryFiles.count >= 7)
        for (name, bytes) in Self.repositoryFiles {
            let old = Self.legacy(bytes)
            #expect(Self.compiled(bytes) == old, "\(name)")
        }
    }

    @Test(arguments: 0..<6)
    func generatedFilesCompileAsBefore(seed: Int) throws {
        var generator = FenceTextGenerator(seed: UInt64(seed))
        let bytes = generator.collection(150 + 50 * seed)
        let old = Self.legacy(bytes)
        guard case .success(let image) = old else {
            Issue.record("the generator wrote a bad file: \(old)")
            return
        }
        #expect(image.count > 10_000)
        #expect(Self.compiled(bytes) == old)
    }

    /// Seeded mutations of small generated files: flipped, inserted, deleted and doubled bytes
    /// from JSON's alphabet. Old and new give the same image or the same error every time.
    @Test(arguments: 0..<4)
    func mutatedFilesGiveTheSameResult(seed: Int) {
        var generator = FenceTextGenerator(seed: 1_000 + UInt64(seed))
        var random = SplitMix64(seed: 99 &+ UInt64(seed))
        let alphabet = Array("{}[]\",:0123456789-+.eEtrufalsn \\u\nFPoygMtR".utf8) + [0x00, 0xC3, 0xA9, 0xFF]
        var outcomes = [0, 0]
        for round in 0..<400 {
            var bytes = generator.collection(1 + round % 4)
            for _ in 0..<(1 + Int(random.next() % 3)) {
                let at = Int(random.next() % UInt64(bytes.count + 1))
                let byte = alphabet[Int(random.next() % UInt64(alphabet.count))]
                switch random.next() % 4 {
                case 0: if at < bytes.count { bytes[at] = byte }
                case 1: bytes.insert(byte, at: at)
                case 2: if at < bytes.count { bytes.remove(at: at) }
                default: if at < bytes.count { bytes.insert(bytes[at], at: at) }
                }
            }
            let old = Self.legacy(bytes)
            if case .success = old { outcomes[0] += 1 } else { outcomes[1] += 1 }
            let new = Self.compiled(bytes)
            #expect(new == old, "\(String(decoding: bytes, as: UTF8.self))")
        }
        // Both kinds of outcome were seen, so the comparison meant something both ways.
        #expect(outcomes[0] > 20 && outcomes[1] > 20)
    }
}
