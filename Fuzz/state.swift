// Fuzz target `state`: /var/lib/trackd/state as trackd reads it at start-up after a power cut or
// bit rot, through the daemon's own start-up (`StateService.init` over a state file whose
// storage holds the input: `PersistedState.decode`, `Permission.atStartUp`, the odometer), then
// the privacy line of `trackctl status` and the first saves.
//
// The first input byte is a mode: bit 0 set writes the right CRC-32C into bytes 36…39 of a
// 40-byte file (so mutated fields reach the field checks), bit 1 sets `[privacy] restricted`,
// bit 2 XORs the rest over a good state file instead of taking it as the file (no seeds needed),
// bits 3–7 choose a `precise --for` of 1 s … 24 h granted after start-up.
// Checks beyond "no crash":
// * a file that does not decode gives the safe default (not-determined), with the file named in
//   the problem; one that decodes, its own permission as start-up allows it;
// * a decoded state encodes to bytes that decode to the same state;
// * no temporary full accuracy survives start-up; `[privacy] restricted` always wins;
// * the privacy section (text and JSON) fits the control reply before, at and long after the end of a `precise --for`;
// * the odometer never goes below the stored value, in memory or in the file it saves.
import TrackCore
@testable import TrackDaemon
import TrackIO

func fuzzTarget(_ input: [UInt8]) {
    guard let mode = input.first else { return }
    var bytes = Array(input.dropFirst())
    if mode & 4 != 0 {
        // The rest XORed over a good file, so fields change one at a time.
        var base = PersistedState(odometerMillimetres: 12_345_678, bootCount: 3, saveCount: 9).encoded()
        for (index, byte) in bytes.enumerated() {
            if index < base.count { base[index] ^= byte } else { base.append(byte) }
        }
        bytes = base
    }
    if mode & 1 == 1, bytes.count == PersistedState.encodedSize {
        let crc = CRC32C.checksum(of: bytes.span, 0..<36)
        for index in 0..<4 { bytes[36 + index] = UInt8(truncatingIfNeeded: crc >> (8 * index)) }
    }
    let restricted = mode & 2 != 0
    let path = "/var/lib/trackd/state"
    let decoded: PersistedState?
    do {
        decoded = try PersistedState.decode(bytes, path: path)
    } catch {
        check(error.message.utf8.count > 0 && error.message.contains(path), "error without the file: \(error.message)")
        decoded = nil
    }
    if let decoded {
        let again = try? PersistedState.decode(decoded.encoded(), path: path)
        check(again == decoded, "a decoded state encodes to bytes that decode differently")
    }

    // Start-up as `DaemonBuilder.build` does it.
    let storage = StateFuzz.Storage(files: [path: bytes])
    var state = StateService(file: StateFile(path: path, storage: storage), restricted: restricted,
                             maxSpeedMillimetresPerSecond: 69_444)
    let stored = decoded ?? PersistedState()
    check(state.persisted == stored, "start-up holds another state than the file's")
    check((state.problem == nil) == (decoded != nil), "a problem \(state.problem ?? "none") for a file that decodes: \(decoded != nil)")
    if let problem = state.problem { check(problem.contains(path), "a problem without the file: \(problem)") }
    check(state.permission.preciseUntil == nil, "a temporary full accuracy survived start-up")
    check(state.permission == Permission.atStartUp(stored: stored.permission, configRestricts: restricted),
          "start-up's permission is not the stored one as start-up allows it")
    if restricted { check(state.permission.state == .restricted, "[privacy] restricted did not win") }
    let start = state.odometer.totalMillimetres
    check(start == stored.odometerMillimetres, "the odometer starts at \(start), stored \(stored.odometerMillimetres)")

    // The privacy line before, during and after a `precise --for` (refused unless allowed and
    // approximate), up to the end of the monotonic clock.
    let milliseconds = Permission.minimumPreciseMilliseconds
        + Int64(mode >> 3) * (Permission.maximumPreciseMilliseconds - Permission.minimumPreciseMilliseconds) / 31
    let granted = MonotonicTime.seconds(5)
    try? state.apply(.precise(forMilliseconds: milliseconds), now: granted)
    let ends = [granted, granted.adding(milliseconds: milliseconds - 1), granted.adding(milliseconds: milliseconds),
                MonotonicTime(nanoseconds: Int64.max)]
    for now in ends {
        for mayLog in [false, true] {
            let facts = StatusModel.PrivacyFacts(permission: state.permission, disclosure: .withheld,
                                                 mayLog: mayLog, tripCounts: true, stateProblem: state.problem,
                                                 odometerMillimetres: state.odometer.totalMillimetres)
            for format in [StatusReport.Format.text, .json] {
                var report = StatusReport(format, ReplyBuffer(capacity: ControlServer.replyCapacity))
                facts.report(to: &report, notAllowed: 3, now: now)
                let reply = report.finish()
                check(!reply.overflowed, "the privacy section overflows its reply")
                reply.deallocate()
            }
        }
        _ = state.permission.snap(Coordinate(latitudeNanodegrees: 48_000_000_000, longitudeNanodegrees: 9_000_000_000), now: now)
        var permission = state.permission
        _ = permission.expire(now: now)
    }

    // A recorded kilometre, then the saves at exit: the file never holds less than it did.
    _ = state.odometer.add(Coordinate(latitudeNanodegrees: 48_000_000_000, longitudeNanodegrees: 9_000_000_000),
                           accuracyMillimetres: nil, timeMilliseconds: 1_000)
    _ = state.odometer.add(Coordinate(latitudeNanodegrees: 48_010_000_000, longitudeNanodegrees: 9_000_000_000),
                           accuracyMillimetres: nil, timeMilliseconds: 61_000)
    check(state.odometer.totalMillimetres >= start, "the odometer went back")
    _ = state.commit()
    state.saveOdometer(now: .seconds(120))
    if let saved = state.file.storage.files[path], saved != bytes {
        let reread = try? PersistedState.decode(saved, path: path)
        check(reread != nil, "a saved state file does not decode")
        check((reread?.odometerMillimetres ?? 0) >= start, "the saved odometer went below the stored one")
        // A temporary full accuracy is never written: it ends with the process.
        var inForce = state.permission
        inForce.preciseUntil = nil
        check(reread?.permission == inForce, "the saved permission is not the one in force")
    }
}

enum StateFuzz {
    /// A disk in memory: files by path, written whole at close, renamed at once.
    struct Storage: StateFileStorage {
        var files: [String: [UInt8]]
        var open: [String: [UInt8]] = [:]

        mutating func readAll(_ path: String) throws(Errno) -> [UInt8] {
            guard let bytes = files[path] else { throw .noSuchFile }
            return bytes
        }

        mutating func create(_ path: String) throws(Errno) -> String {
            open[path] = []
            return path
        }

        mutating func write(_ bytes: [UInt8], to handle: String) throws(Errno) { open[handle, default: []] += bytes }

        mutating func sync(_ handle: String) throws(Errno) {}

        mutating func close(_ handle: String) throws(Errno) { files[handle] = open.removeValue(forKey: handle) }

        mutating func rename(_ source: String, to destination: String) throws(Errno) {
            files[destination] = files.removeValue(forKey: source)
        }

        mutating func syncDirectory(_ path: String) throws(Errno) {}
    }
}
