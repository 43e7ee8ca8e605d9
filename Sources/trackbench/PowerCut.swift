import Dispatch
import LogPowerCut
import TrackCore
import TrackIO

// `trackbench powercut [FILE.csv]`: the power-cut harness over every step of a replay of the
// track in FILE.csv (the shared layout), or of 10,000 synthesized 1 Hz fixes without one.
// Modes: every step with all unsynced writes lost; every step with unsynced writes dropped,
// torn, cut to a subset of their sectors or reordered at random within and across files and
// the directory, and every fourth recovery cut again at a random step (seeds 1 and 2); EIO and then
// ENOSPC injected every 97 steps with random loss, cuts at the failing steps too. The modes run
// side by side. Prints one line per mode, then `powercut: K cut points, V violations`.

/// 10,000 fixes at 1 Hz on a slow curve from 48.1173°N 11.5167°E.
func synthesizedFixes(_ count: Int) -> [LogRecord] {
    (0..<count).map { index in
        let time = UTCTime(millisecondsSinceEpoch: 1_750_507_289_000 + Int64(index) * 1000)
        let position = LogPosition(latitudeE7: 481_173_000 + Int32(index) * 83 + Int32(index % 7),
                                   longitudeE7: 115_167_000 + Int32(index) * 41 - Int32(index % 11))
        return .fix(LogFix(time: time, position: position, altitudeDecimetres: 5_000 + Int32(index % 40),
                           speedCentimetresPerSecond: 900 + Int32(index % 13), mode: .threeD))
    }
}

func runPowerCut(_ path: String?) -> Int32 {
    var records = synthesizedFixes(10_000)
    var source = "10000 synthesized fixes"
    if let path {
        do {
            let bytes = try FileDescriptor.readWholeFile(path)
            records = try TrackCSV.parse(bytes).map { LogRecord.fix($0) }
            source = path + " (" + String(records.count) + " fixes)"
        } catch {
            try? FileDescriptor.standardError.writeAll("trackbench: " + path + ": cannot read the track\n")
            return 1
        }
    }
    print("replay: " + source)
    let harness = PowerCutHarness(records: records)
    var modes: [(name: String, run: @Sendable () -> PowerCutHarness.Report)] = [
        ("every step, unsynced writes lost", { harness.run() }),
    ]
    for seed: UInt64 in [1, 2] {
        modes.append(("every step, unsynced writes dropped/torn/sector subsets/reordered, a recovery in four cut again, seed " + String(seed),
                      { harness.run(seed: seed) }))
    }
    for (name, errno) in [("EIO", Errno.ioError), ("ENOSPC", Errno.noSpace)] {
        var failures: [Int: Errno] = [:]
        for step in stride(from: 50, to: 1_000_000, by: 97) { failures[step] = errno }
        modes.append((name + " every 97 steps, random loss, seed 3", { [failures] in harness.run(seed: 3, failures: failures) }))
    }
    // The modes share nothing: they run side by side, one a processor, and print in order.
    let reports = UnsafeMutableBufferPointer<PowerCutHarness.Report>.allocate(capacity: modes.count)
    reports.initialize(repeating: PowerCutHarness.Report())
    defer { reports.deallocate() }
    nonisolated(unsafe) let slots = reports
    let runs = modes.map(\.run)
    DispatchQueue.concurrentPerform(iterations: runs.count) { index in slots[index] = runs[index]() }
    var total = PowerCutHarness.Report()
    for (index, report) in reports.enumerated() {
        print(modes[index].name + ": " + String(report.cutPoints) + " cut points, " + String(report.violations)
              + " violations (" + String(report.steps) + " steps"
              + (report.recoveryCuts > 0 ? ", " + String(report.recoveryCuts) + " of the cuts during a recovery" : "") + ")")
        for message in report.messages { print("  " + message) }
        total.cutPoints += report.cutPoints
        total.violations += report.violations
    }
    print("powercut: " + String(total.cutPoints) + " cut points, " + String(total.violations) + " violations")
    return total.violations == 0 ? 0 : 1
}
