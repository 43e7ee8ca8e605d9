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

    /// The same, read through `DribbleSource` a few bytes at a time into the smallest window.
    static func dribbled(_ bytes: [UInt8], chunk: Int, settings: FenceSettings = FenceSettings()) -> Result<[UInt8], FenceFileError> {
        var source = DribbleSource(bytes: bytes, chunk: chunk)
        do {
            var builder = FenceImageBuilder(spool: FenceImageMemorySpool())
            let key = try FenceFile.read(&source, into: &builder, settings: settings, windowBytes: 8)
            let set = FenceSet(compiling: &builder, key: key)
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
            #expect(Self.dribbled(bytes, chunk: 3) == old, "\(name)")
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
            #expect(Self.dribbled(bytes, chunk: 1 + round % 5) == old)
        }
        // Both kinds of outcome were seen, so the comparison meant something both ways.
        #expect(outcomes[0] > 20 && outcomes[1] > 20)
    }

    /// The JSON reader against the old whole-text parser on seeded mutations of JSON texts:
    /// the same document (nodes, keys, strings) or the same error with its place, whole and
    /// read a byte at a time.
    @Test(arguments: 0..<4)
    func jsonReaderAgreesWithTheOldParser(seed: Int) {
        var random = SplitMix64(seed: 7 &+ UInt64(seed))
        let seeds = [
            "{\"a\":[1,-2.5e+3,true,false,null,\"\\u00e9\\n\\ud83d\\ude00\"],\n \"b\":{\"c\":[[]],\"d\":\"Tübingen\"}}",
            "[0,-0,0.5,1E400,12345678901234567890123,\"\\\"\\/\\b\\f\\r\\t\",\r\n{}]",
        ]
        let alphabet = Array("{}[]\",:0123456789-+.eEtrufalsn \\u\n\t".utf8) + [0x00, 0x1F, 0xC3, 0xA9, 0xED, 0xA0, 0xFF]
        var errors = 0
        for round in 0..<1500 {
            var bytes = Array(seeds[round % seeds.count].utf8)
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
            let old = Self.oldDocument(bytes)
            if case .failure = old { errors += 1 }
            #expect(Self.newDocument(bytes, chunk: bytes.count) == old, "\(bytes)")
            #expect(Self.newDocument(bytes, chunk: 1) == old, "\(bytes)")
        }
        #expect(errors > 100 && errors < 1400)
    }

    /// A document as comparable values: its nodes and string bytes, or the error.
    static func oldDocument(_ bytes: [UInt8]) -> Result<[String], JSONError> {
        var parser = LegacyJSONParser(bytes: bytes)
        do { return .success(Self.flattened(try parser.parseDocument())) } catch { return .failure(error) }
    }

    static func newDocument(_ bytes: [UInt8], chunk: Int) -> Result<[String], JSONError> {
        var reader = JSONReader(DribbleSource(bytes: bytes, chunk: max(chunk, 1)), windowBytes: 8)
        do { return .success(Self.flattened(try JSONParser.document(&reader))) } catch { return .failure(error) }
    }

    static func flattened(_ document: JSONDocument) -> [String] {
        document.nodes.indices.map { index in
            let node = document.nodes[index]
            return "\(node.kind) \(node.offset) \(node.childCount) \(node.bool) \(node.number) \(document.key(index) ?? "-") "
                + "\(document.string(index) ?? "-") \(document.children(of: index))"
        }
    }
}

/// A source giving at most `chunk` bytes a read, as a slow pipe or a short read would.
struct DribbleSource: JSONByteSource {
    let bytes: [UInt8]
    let chunk: Int
    var position = 0

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let count = min(buffer.count, chunk, bytes.count - position)
        for index in 0..<count { buffer[index] = bytes[position + index] }
        position += count
        return count
    }
}
