import TrackCore
import TrackIO

// trackbench: the programs scripts/bench times, runs under callgrind and under the malloc counter.
//
//   trackbench read FILE   read(2) FILE in 64 KiB chunks and touch none of the bytes: the
//                          baseline (start-up and reads) the bench compares `nmea` with
//   trackbench nmea FILE   the same reads, each chunk fed through the receiver pipeline by
//                          `receiveChunk`, the function callgrind collects inclusively
//   trackbench stream FILE the same through ReceiverStream (UBX frames lifted out, replies
//                          read), by `streamChunk` (ReceiverStreamBench.swift)
//   trackbench wakeups BAUD EPOCHS [COALESCING_BYTES]
//                          wake-ups a SerialPort costs per receiver epoch on a pty
//                          (WakeUps.swift)
//   trackbench leds FRAMES evaluate the LED table FRAMES times, following its next edges with
//                          waypoint, privacy and fence events and a storage error in play; the
//                          malloc counter's difference between two FRAMES must be zero
//   trackbench density FILE.csv [SYNC_MS [KEYFRAME_MS]]
//                          a track's fixes through the log encoder (Density.swift)
//   trackbench fences FENCES.geojson POINTS PASSES
//                          fixes through the geofence monitor (Fences.swift)
//   trackbench logencode FILE.csv ROUNDS
//                          the same fixes through one encoder ROUNDS times into one buffer; the
//                          malloc counter's difference between two ROUNDS must be zero
//   trackbench powercut [FILE.csv]
//                          the log writer's power-cut harness at every step (PowerCut.swift)
//   trackbench places PLACES.bin PASSES
//                          nearest-place lookups and the throttled namer (Places.swift)
//   trackbench tracknmea FILE.csv [--recorded-speed]
//                          a track's points as the NMEA a receiver would send (TrackNMEA.swift)
//   trackbench bitrot FLIPS SEED BURST DIR...
//                          fixes lost per damaged byte in track logs (BitRot.swift)
//
// Both read into one buffer allocated before the first read, so the loop allocates nothing and
// the allocation count of a run does not depend on the file's length.

let usage: StaticString = """
    usage: trackbench read FILE   read FILE and print its length
           trackbench nmea FILE   feed FILE through the NMEA receiver, print sentences=… fixes=…
           trackbench stream FILE feed FILE through the receiver stream, print … replies=… ubx=…
           trackbench wakeups BAUD EPOCHS [COALESCING_BYTES]
                                  count a serial port's wake-ups on a pty, print wakeups=…
           trackbench leds FRAMES evaluate FRAMES LED frames, print lit=…
           trackbench density FILE.csv [SYNC_MS [KEYFRAME_MS]]
                                  encode a track's fixes into log blocks, print fixes=… log=…
           trackbench fences FENCES.geojson POINTS PASSES
                                  feed points through the fence monitor, print fences=… ns=…
           trackbench logencode FILE.csv ROUNDS
                                  encode them ROUNDS times into one buffer, print records=…
           trackbench powercut [FILE.csv]
                                  cut power at every step of a log replay, print violations
           trackbench places PLACES.bin PASSES
                                  time place lookups and the namer, print lookup_ns=… rss_kib=…
           trackbench tracknmea FILE.csv [--recorded-speed]
                                  print a track's points as RMC, GGA, GSA and GST epochs
           trackbench bitrot FLIPS SEED BURST DIR...
                                  damage BURST bytes FLIPS times, print flips=… lost=… max=…

    """

/// Bytes asked of each read(2).
let chunkByteCount = 64 * 1024

/// Calls `body` with each chunk of the file at `path`, in order, from one reused buffer.
func forEachChunk(
    ofFileAt path: String, _ body: (UnsafeRawBufferPointer) -> Void
) throws(Errno) {
    let file = try FileDescriptor.openForReading(path)
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkByteCount, alignment: 64)
    defer {
        buffer.deallocate()
        try? file.close()
    }
    while true {
        let count = try file.read(into: buffer)
        if count == 0 { return }
        body(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
    }
}

/// `trackbench read FILE`: the same reads as `nmea` with nothing done to the bytes; prints the
/// length read, e.g. `bytes=961304`.
///
/// It used to XOR every byte, which took part of the per-byte work `nmea` measures (framing
/// and the checksum are a pass over the bytes) out of the figure it was subtracted from.
func runRead(_ path: String) throws(Errno) {
    var byteCount = 0
    try forEachChunk(ofFileAt: path) { chunk in byteCount += chunk.count }
    print("bytes=\(byteCount)")
}

/// The receiver's work on one chunk: framing, checksum, decoding and epoch assembly, counting
/// the fixes it completes in `fixes`.
///
/// Never inlined, so that `valgrind --tool=callgrind --toggle-collect` on its symbol
/// (`$s10trackbench12receiveChunk…`) collects exactly the receiver's inclusive cost, the
/// functions it calls included, and none of the reads around it.
@inline(never)
func receiveChunk(_ receiver: inout NMEAReceiver, _ chunk: UnsafeRawBufferPointer, _ fixes: inout Int) {
    // Pulled fix by fix with `next`, as the daemon's receiver service does.
    var offset = 0
    while receiver.next(chunk, from: &offset) != nil { fixes += 1 }
}

/// The end of the input: the epoch in progress, counted in `fixes` (collected with
/// `receiveChunk`, for the same reason).
@inline(never)
func receiveEnd(_ receiver: inout NMEAReceiver, _ fixes: inout Int) {
    receiver.finish { _ in fixes += 1 }
}

/// `trackbench nmea FILE`: every byte through the receiver (pulled fix by fix with `next`),
/// then the epoch in progress.
///
/// Prints `sentences=… fixes=…` (sentences the receiver accepted, fixes it emitted) on standard
/// output and the receiver's counters on standard error.
func runNMEA(_ path: String) throws(Errno) {
    var receiver = NMEAReceiver()
    var fixes = 0
    try forEachChunk(ofFileAt: path) { chunk in receiveChunk(&receiver, chunk, &fixes) }
    receiveEnd(&receiver, &fixes)
    print("sentences=\(receiver.counters.accepted) fixes=\(fixes)")
    var line = TextBuffer()
    line.append("trackbench: ")
    receiver.counters.write(to: &line)
    line.append(UInt8(ascii: "\n"))
    line.withBytes { bytes in
        bytes.withUnsafeBytes { raw in try? FileDescriptor.standardError.writeAll(raw) }
    }
}

/// `trackbench leds FRAMES`: the LED frame function stepped from edge to edge, inputs changing
/// every 64 frames; prints the lit lines summed over the frames.
func runLEDs(frames: Int) {
    let table = LEDTable()
    let receivers: [ReceiverLEDState] = [.noFix, .fix2D, .fix3D, .portError, .silent]
    var now = MonotonicTime.seconds(1000)
    var lit = 0
    for index in 0..<frames {
        var inputs = LEDInputs(receiver: receivers[index / 64 % receivers.count],
                               permission: index / 128 % 2 == 0 ? .notDetermined : .whenInUse(inUse: false),
                               storageError: index / 256 % 3 == 0, insideFence: index / 32 % 2 == 0)
        if index % 64 == 0 { inputs.events.waypointSaved = now }
        inputs.events.privacyToggled = now.adding(milliseconds: -300)
        inputs.events.fenceCrossed = now.adding(milliseconds: -100)
        inputs.events.logSynced = now.adding(milliseconds: -20)
        let frame = table.frame(for: inputs, at: now)
        lit += Int(frame.levels.bits.nonzeroBitCount)
        now = frame.nextEdge ?? now.adding(milliseconds: 1000)
    }
    print("lit=\(lit)")
}

let arguments = processArguments()
if arguments.first == "powercut", arguments.count <= 2 {
    exitProcess(runPowerCut(arguments.count == 2 ? arguments[1] : nil))
}
if arguments.first == "leds", arguments.count == 2, let frames = Int(arguments[1]) {
    runLEDs(frames: frames)
    exitProcess(0)
}
if arguments.first == "wakeups", (3...4).contains(arguments.count),
   let baud = Int(arguments[1]), let epochs = Int(arguments[2]) {
    exitProcess(runWakeUps(baud: baud, epochs: epochs, coalescingBytes: arguments.count == 4 ? Int(arguments[3]) ?? 800 : 800))
}
if arguments.first == "fences", arguments.count == 4, let passes = Int(arguments[3]) {
    do throws(Errno) {
        exitProcess(try runFences(arguments[1], arguments[2], passes: passes))
    } catch {
        try? FileDescriptor.standardError.writeAll("trackbench: fences: \(error.message)\n")
        exitProcess(1)
    }
}
if arguments.first == "places", arguments.count == 3, let passes = Int(arguments[2]) {
    do throws(Errno) {
        exitProcess(try runPlaces(arguments[1], passes: passes))
    } catch {
        try? FileDescriptor.standardError.writeAll("trackbench: places: \(error.message)\n")
        exitProcess(1)
    }
}
if arguments.first == "logencode", arguments.count == 3, let rounds = Int(arguments[2]) {
    do throws(Errno) {
        try runLogEncode(arguments[1], rounds: rounds)
    } catch {
        try? FileDescriptor.standardError.writeAll("trackbench: \(arguments[1]): \(error.message)\n")
        exitProcess(1)
    }
    exitProcess(0)
}
if arguments.first == "bitrot", arguments.count >= 5, let flips = Int(arguments[1]), let seed = UInt64(arguments[2]),
   let burst = Int(arguments[3]) {
    do throws(Errno) {
        exitProcess(try runBitRot(flips: flips, seed: seed, burst: burst, directories: Array(arguments[4...])))
    } catch {
        try? FileDescriptor.standardError.writeAll("trackbench: bitrot: \(error.message)\n")
        exitProcess(1)
    }
}
if arguments.first == "tracknmea", arguments.count == 3, arguments[2] == "--recorded-speed" {
    do throws(Errno) {
        try runTrackNMEA(arguments[1], recordedSpeed: true)
    } catch {
        try? FileDescriptor.standardError.writeAll("trackbench: \(arguments[1]): \(error.message)\n")
        exitProcess(1)
    }
    exitProcess(0)
}
if arguments.first == "density", (2...4).contains(arguments.count) {
    let sync = arguments.count >= 3 ? Int64(arguments[2]) ?? 5_000 : 5_000
    let keyframe = arguments.count == 4 ? Int64(arguments[3]) ?? 300_000 : 300_000
    do throws(Errno) {
        try runDensity(arguments[1], syncMilliseconds: sync, keyframeMilliseconds: keyframe)
    } catch {
        try? FileDescriptor.standardError.writeAll("trackbench: \(arguments[1]): \(error.message)\n")
        exitProcess(1)
    }
    exitProcess(0)
}
guard arguments.count == 2 else {
    try? FileDescriptor.standardError.writeAll(usage)
    exitProcess(2)
}
do throws(Errno) {
    switch arguments[0] {
    case "read": try runRead(arguments[1])
    case "nmea": try runNMEA(arguments[1])
    case "stream": try runStream(arguments[1])
    case "tracknmea": try runTrackNMEA(arguments[1])
    case "logdump": try runLogDump(arguments[1])
    default:
        try? FileDescriptor.standardError.writeAll(usage)
        exitProcess(2)
    }
} catch {
    try? FileDescriptor.standardError.writeAll("trackbench: \(arguments[1]): \(error.message)\n")
    exitProcess(1)
}
exitProcess(0)
