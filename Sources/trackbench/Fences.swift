import Glibc
import TrackCore
import TrackIO

/// `trackbench fences FENCES.geojson POINTS PASSES`: loads the fences, then feeds every point
/// (lines `latitude_nanodegrees longitude_nanodegrees accuracy_mm`, one fix a second) PASSES
/// times through a `FenceMonitor`, timing only the updates.
///
/// Prints `fences=… fixes=… ns=… cpu_ns=… events=… near=…` (`near`: fixes with a fence inside or
/// unknown). The malloc counter's difference between two PASSES counts is the allocations per
/// fix of the monitor alone: everything else happens before the first update.
func runFences(_ fencesPath: String, _ pointsPath: String, passes: Int) throws(Errno) -> Int32 {
    // Read streaming, as trackctl compiles: 100,000 fences are a 100 MB file.
    let file = try FileDescriptor.openForReading(fencesPath)
    defer { try? file.close() }
    var source = FileByteSource(file)
    let fences: FenceSet
    do {
        fences = try FenceFile.parse(from: &source, settings: benchSettings)
    } catch {
        let problem = source.failure?.message ?? error.description
        try? FileDescriptor.standardError.writeAll("trackbench: \(fencesPath): \(problem)\n")
        return 1
    }
    if let failure = source.failure { throw failure }
    let text = try FileDescriptor.readWholeFile(pointsPath)
    var points: [Coordinate] = []
    var accuracies: [Int64] = []
    for line in text.split(separator: UInt8(ascii: "\n")) {
        let fields = line.split(separator: UInt8(ascii: " ")).map { Int64(String(decoding: $0, as: UTF8.self)) }
        guard fields.count == 3, let latitude = fields[0], let longitude = fields[1], let accuracy = fields[2] else { continue }
        points.append(Coordinate(latitudeNanodegrees: latitude, longitudeNanodegrees: longitude))
        accuracies.append(accuracy)
    }
    var monitor = FenceMonitor(fences: fences, settings: benchSettings)
    var events = 0
    var near = 0
    var time: Int64 = 1_700_000_000_000
    let start = SystemClock.monotonic()
    let cpuStart = threadCPUNanoseconds()
    for _ in 0..<passes {
        for index in points.indices {
            time += 1000
            monitor.update(position: points[index], accuracyMillimetres: accuracies[index], timeMilliseconds: time) { _, _ in
                events += 1
            }
            if monitor.insideCount > 0 { near += 1 }
        }
    }
    let elapsed = SystemClock.monotonic().nanoseconds - start.nanoseconds
    let cpu = threadCPUNanoseconds() - cpuStart
    print("fences=\(fences.count) fixes=\(points.count * passes) ns=\(elapsed) cpu_ns=\(cpu) events=\(events) near=\(near)")
    return 0
}

/// This thread's CPU time (CLOCK_THREAD_CPUTIME_ID): on a shared machine the time the updates
/// took, without the time other programs had the processor.
func threadCPUNanoseconds() -> Int64 {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
}

/// The defaults, with the radius range opened for the generated fences.
let benchSettings: FenceSettings = {
    var settings = FenceSettings()
    settings.minimumRadiusMetres = 1
    return settings
}()
