import TrackCore
import TrackIO

// `trackbench bitrot FLIPS SEED BURST DIR...`: what one damaged byte costs in real track logs.
// Each of FLIPS rounds takes the log directories DIR... as they are, changes one byte (chosen
// uniformly over every byte of every segment file, XORed with a random value 1…255), or BURST
// bytes from there on when BURST > 1, and reads that log again with the real `LogReader`; the
// fixes it no longer returns are that flip's loss. Prints one line:
//
//   flips=F fixes=N bytes=B lost=L max=M zero=Z repaired=R corrupt=C p50=… p90=… p99=…
//
// L is the mean of the fixes lost per flip, M the most, Z the flips that lost nothing, R the
// flips after which the reader reported a repaired chunk, C the flips after which the reader
// returned a fix that is not in the undamaged log at its place (must be 0: a CRC guards every
// chunk).

/// The segment files of a few log directories, in memory and read-only: what `bitrot` damages.
struct MemoryLogFiles: LogFileLayer {
    typealias Handle = Int
    var files: [String: [UInt8]] = [:]

    func names(in directory: String) throws(Errno) -> [String] {
        var found: [String] = []
        for path in files.keys where path.hasPrefix(directory + "/") {
            found.append(String(path.dropFirst(directory.count + 1)))
        }
        return found
    }

    func readAll(_ path: String) throws(Errno) -> [UInt8] {
        guard let bytes = files[path] else { throw Errno.noSuchFile }
        return bytes
    }

    func byteCount(of path: String) throws(Errno) -> Int { try readAll(path).count }
    func makeDirectory(_ directory: String) throws(Errno) { throw Errno.ioError }
    func openForAppend(_ path: String) throws(Errno) -> Int { throw Errno.ioError }
    func truncate(_ path: String, to byteCount: Int) throws(Errno) { throw Errno.ioError }
    func write(_ bytes: Span<UInt8>, to handle: Int) throws(Errno) { throw Errno.ioError }
    func sync(_ handle: Int) throws(Errno) { throw Errno.ioError }
    func close(_ handle: Int) throws(Errno) {}
    func remove(_ path: String) throws(Errno) { throw Errno.ioError }
    func syncDirectory(_ directory: String) throws(Errno) { throw Errno.ioError }
    func availableBytes(in directory: String) throws(Errno) -> Int { 0 }
}

/// The fixes `LogReader` returns for `directory` in `files`, and whether it repaired anything.
func readFixes(_ directory: String, _ files: MemoryLogFiles) -> (fixes: [LogFix], repaired: Bool) {
    guard var reader = try? LogReader(directory: directory, files: files) else { return ([], false) }
    var fixes: [LogFix] = []
    while let record = reader.next() {
        if case .fix(let fix) = record { fixes.append(fix) }
    }
    return (fixes, reader.problems.contains { if case .repaired = $0.kind { true } else { false } })
}

/// True when `part` is `whole` with some fixes left out, the rest in order.
func isSubsequence(_ part: [LogFix], of whole: [LogFix]) -> Bool {
    var index = 0
    for fix in part {
        while index < whole.count && whole[index] != fix { index += 1 }
        guard index < whole.count else { return false }
        index += 1
    }
    return true
}

func runBitRot(flips: Int, seed: UInt64, burst: Int, directories: [String]) throws(Errno) -> Int32 {
    var files = MemoryLogFiles()
    // Every segment file with its directory, in a fixed order, and the fixes of each directory.
    var segments: [(directory: String, path: String)] = []
    var originals: [String: [LogFix]] = [:]
    for directory in directories {
        var posix = PosixLogFiles()
        guard let numbers = try? LogReader<PosixLogFiles>.segmentNumbers(in: directory, files: &posix) else {
            throw Errno.noSuchFile
        }
        for number in numbers {
            let path = LogSegmentName.path(directory, LogSegmentName.name(number))
            files.files[path] = try posix.readAll(path)
            segments.append((directory, path))
        }
        originals[directory] = readFixes(directory, files).fixes
    }
    let sizes = segments.map { files.files[$0.path]?.count ?? 0 }
    let total = sizes.reduce(0, +)
    guard total > 0 else { throw Errno.invalidArgument }
    var random = BenchRandom(state: seed | 1)
    var losses: [Int] = []
    losses.reserveCapacity(flips)
    var repaired = 0
    var corrupt = 0
    for _ in 0..<flips {
        var position = Int(random.below(UInt64(total)))
        var index = 0
        while position >= sizes[index] {
            position -= sizes[index]
            index += 1
        }
        let (directory, path) = segments[index]
        let original = files.files[path] ?? []
        var damaged = original
        for index in position..<min(position + max(burst, 1), damaged.count) { damaged[index] ^= UInt8(1 + random.below(255)) }
        files.files[path] = damaged
        let (fixes, didRepair) = readFixes(directory, files)
        files.files[path] = original
        let whole = originals[directory] ?? []
        if !isSubsequence(fixes, of: whole) { corrupt += 1 }
        if didRepair { repaired += 1 }
        losses.append(max(whole.count - fixes.count, 0))
    }
    let sorted = losses.sorted()
    func percentile(_ p: Int) -> Int { sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, sorted.count * p / 100)] }
    let sum = losses.reduce(0, +)
    let mean = flips == 0 ? 0 : Double(sum) / Double(flips)
    let fixCount = originals.values.reduce(0) { $0 + $1.count }
    let hundredths = Int((mean * 100).rounded())
    let meanText = "\(hundredths / 100)." + (hundredths % 100 < 10 ? "0" : "") + "\(hundredths % 100)"
    print("flips=\(flips) fixes=\(fixCount) bytes=\(total) lost=\(meanText) max=\(sorted.last ?? 0) "
          + "zero=\(losses.filter { $0 == 0 }.count) repaired=\(repaired) corrupt=\(corrupt) "
          + "p50=\(percentile(50)) p90=\(percentile(90)) p99=\(percentile(99))")
    return corrupt == 0 ? 0 : 1
}
