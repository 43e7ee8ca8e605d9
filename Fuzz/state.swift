// Fuzz target `state`: /var/lib/trackd/state as trackd reads it at start-up after a power cut or
// bit rot (`PersistedState.decode`), then what start-up makes of it: the permission
// (`Permission.atStartUp`), the odometer, and the privacy line of `trackctl status`.
//
// The first input byte is a mode: bit 0 set writes the right CRC-32C into bytes 36…39 of a
// 40-byte file (so mutated fields reach the field checks), bit 1 sets `[privacy] restricted`,
// bit 2 XORs the rest over a good state file instead of taking it as the file (no seeds needed).
// Checks beyond "no crash":
// * an error names the file;
// * a decoded state encodes to bytes that decode to the same state;
// * the status line fits its buffer, and the odometer never goes below the stored value.
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
    let path = "/var/lib/trackd/state"
    let state: PersistedState
    do {
        state = try PersistedState.decode(bytes, path: path)
    } catch {
        check(error.message.utf8.count > 0 && error.message.contains(path), "error without the file: \(error.message)")
        return
    }
    let again = try? PersistedState.decode(state.encoded(), path: path)
    check(again == state, "a decoded state encodes to bytes that decode differently")

    var status = DaemonStatus()
    status.permission = Permission.atStartUp(stored: state.permission, configRestricts: mode & 2 != 0)
    status.odometer = Odometer(totalMillimetres: state.odometerMillimetres)
    let start = status.odometer.totalMillimetres
    _ = status.odometer.add(Coordinate(latitudeNanodegrees: 48_000_000_000, longitudeNanodegrees: 9_000_000_000),
                            accuracyMillimetres: nil)
    _ = status.odometer.add(Coordinate(latitudeNanodegrees: 48_010_000_000, longitudeNanodegrees: 9_000_000_000),
                            accuracyMillimetres: nil)
    check(status.odometer.totalMillimetres >= start, "the odometer went back")
    // Before, at and long after the stored end of temporary precise mode.
    let ends = [1_700_000_000_000, state.permission.preciseUntil?.millisecondsSinceEpoch ?? 0, Int64.max]
    for milliseconds in ends {
        let now = UTCTime(millisecondsSinceEpoch: milliseconds)
        var line = TextBuffer()
        status.writePrivacy(to: &line, now: now)
        check(!line.overflowed, "the privacy line overflows")
        _ = status.permission.snap(Coordinate(latitudeNanodegrees: 48_000_000_000, longitudeNanodegrees: 9_000_000_000), now: now)
        var permission = status.permission
        _ = permission.expire(now: now)
    }
}
