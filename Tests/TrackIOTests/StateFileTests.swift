import Testing
import TrackCore
import TrackIO

private let path = "/var/lib/trackd/state"

private let sample = PersistedState(
    permission: Permission(
        state: .denied, accuracy: .approximate, stateBeforePrivate: .whenInUse
    ),
    odometerMillimetres: 123_456_789, bootCount: 17, saveCount: 4_000_000_000
)

@Suite struct StateFileFormatTests {
    static let states: [PersistedState] = [
        PersistedState(),
        sample,
        PersistedState(permission: Permission(state: .restricted), odometerMillimetres: Int64.max,
                       bootCount: UInt32.max, saveCount: 0),
        PersistedState(permission: Permission(state: .always, accuracy: .approximate)),
    ]

    /// A temporary full accuracy runs on the monotonic clock of one process: it is never stored.
    @Test func temporaryPrecisionIsNotStored() throws {
        let granted = PersistedState(permission: Permission(state: .always, accuracy: .approximate,
                                                            preciseUntil: MonotonicTime.seconds(60)))
        let decoded = try PersistedState.decode(granted.encoded(), path: path)
        #expect(decoded.permission.preciseUntil == nil)
        #expect(decoded.permission.accuracy == .approximate)
    }

    @Test(arguments: states)
    func roundTrip(_ state: PersistedState) throws {
        let bytes = state.encoded()
        #expect(bytes.count == PersistedState.encodedSize)
        #expect(try PersistedState.decode(bytes, path: path) == state)
        var file = StateFile(path: path, storage: FakeDisk())
        try file.save(state)
        #expect(try file.load() == state)
    }

    static func corrupt(_ change: (inout [UInt8]) -> Void) -> [UInt8] {
        var bytes = sample.encoded()
        change(&bytes)
        return bytes
    }

    /// Rewrites the CRC so a field fault is reached.
    static func withCRC(_ change: (inout [UInt8]) -> Void) -> [UInt8] {
        var bytes = sample.encoded()
        change(&bytes)
        let crc = CRC32C.checksum(of: bytes.span, 0..<36)
        for index in 0..<4 { bytes[36 + index] = UInt8(truncatingIfNeeded: crc >> (8 * UInt32(index))) }
        return bytes
    }

    struct Corrupt: Sendable, CustomTestStringConvertible {
        var name: String
        var bytes: [UInt8]
        var check: @Sendable (StateFileError) -> Bool
        var testDescription: String { name }
    }

    static let corruptions: [Corrupt] = [
        .init(name: "empty", bytes: []) { $0 == .truncated(path: path, bytes: 0, expected: 40) },
        .init(name: "header only", bytes: Array(sample.encoded()[..<8])) { $0 == .truncated(path: path, bytes: 8, expected: 40) },
        .init(name: "torn", bytes: Array(sample.encoded()[..<39])) { $0 == .truncated(path: path, bytes: 39, expected: 40) },
        .init(name: "extra byte", bytes: sample.encoded() + [0]) { $0 == .wrongLength(path: path, bytes: 41, expected: 40) },
        .init(name: "garbage", bytes: Array("hello, this is not a state file!!!!!!!!!".utf8)) { $0 == .notAStateFile(path: path) },
        .init(name: "zeros", bytes: [UInt8](repeating: 0, count: 40)) { $0 == .notAStateFile(path: path) },
        .init(name: "version 2", bytes: corrupt { $0[4] = 2 }) { $0 == .unknownVersion(path: path, version: 2) },
        .init(name: "version 0x100", bytes: corrupt { $0[5] = 1 }) { $0 == .unknownVersion(path: path, version: 0x101) },
        .init(name: "declared length", bytes: corrupt { $0[6] = 41 }) { $0 == .wrongLength(path: path, bytes: 40, expected: 40) },
        .init(name: "flipped odometer bit", bytes: corrupt { $0[21] ^= 0x10 }) {
            if case .badChecksum(path, _, _) = $0 { return true } else { return false }
        },
        .init(name: "flipped CRC bit", bytes: corrupt { $0[39] ^= 0x80 }) {
            if case .badChecksum(path, _, _) = $0 { return true } else { return false }
        },
        .init(name: "state 9", bytes: withCRC { $0[8] = 9 }) { $0 == .badField(path: path, field: "state", value: 9) },
        .init(name: "accuracy 7", bytes: withCRC { $0[9] = 7 }) { $0 == .badField(path: path, field: "accuracy", value: 7) },
        .init(name: "before private denied", bytes: withCRC { $0[10] = 2 }) {
            $0 == .badField(path: path, field: "state before private", value: 2)
        },
        .init(name: "negative odometer", bytes: withCRC { $0[27] = 0x80 }) {
            if case .badField(path, "odometer", _) = $0 { return true } else { return false }
        },
    ]

    @Test(arguments: corruptions)
    func corruptFileIsATypedErrorAndTheDefault(_ c: Corrupt) {
        var file = StateFile(path: path, storage: FakeDisk.holding(c.bytes, at: path))
        do {
            _ = try file.load()
            Issue.record("loaded a corrupt file")
        } catch {
            #expect(c.check(error), "\(error.message)")
            #expect(error.message.hasPrefix(path + ": "))
        }
        let (state, problem) = file.loadOrDefault()
        #expect(state == PersistedState())
        #expect(state.permission.state == .notDetermined)
        #expect(problem != nil)
    }

    @Test func missingFileIsAFirstBoot() {
        var file = StateFile(path: path, storage: FakeDisk())
        #expect(throws: StateFileError.unreadable(path: path, .noSuchFile)) { try file.load() }
        let (state, problem) = file.loadOrDefault()
        #expect(state == PersistedState())
        #expect(problem == nil)
    }

    @Test func saveStepsInOrder() throws {
        var file = StateFile(path: path, storage: FakeDisk())
        try file.save(sample)
        #expect(file.storage.steps == [
            "create /var/lib/trackd/state.tmp", "write first half", "write second half", "fsync", "close", "rename",
            "fsync /var/lib/trackd",
        ])
    }

    @Test(arguments: [(nil, 0, true), (0, 29_999, false), (0, 30_000, true), (10_000, 40_000, true), (10_000, 39_999, false)] as [(Int64?, Int64, Bool)])
    func odometerSaveDue(_ row: (Int64?, Int64, Bool)) {
        let due = StateFile<FakeDisk>.isOdometerSaveDue(lastSave: row.0.map { .milliseconds($0) }, now: .milliseconds(row.1))
        #expect(due == row.2)
    }
}

@Suite struct StateFilePowerCutTests {
    static let old = PersistedState(permission: Permission(state: .always), odometerMillimetres: 1_000, bootCount: 3, saveCount: 8)
    static let new = sample

    /// Cut power after k steps of a save, for every k from 0 to one past the last step.
    @Test(arguments: 0...8)
    func powerCutLeavesOldOrNew(_ k: Int) {
        var file = StateFile(path: path, storage: FakeDisk.holding(Self.old.encoded(), at: path))
        file.storage.stepsBeforePowerCut = k
        let saved: Bool
        do {
            try file.save(Self.new)
            saved = true
        } catch {
            if case .saveFailed(path, _, .ioError) = error {} else { Issue.record("\(error.message)") }
            saved = false
        }
        file.storage.powerCut()
        var reopened = StateFile(path: path, storage: file.storage)
        let loaded = try? reopened.load()
        #expect(loaded == Self.old || loaded == Self.new, "k=\(k)")
        if saved { #expect(loaded == Self.new, "k=\(k): a save that returned must be durable") }
        #expect(k < 7 || saved)
    }

    @Test func odometerNeverGoesBackwards() throws {
        var file = StateFile(path: path, storage: FakeDisk.holding(Self.old.encoded(), at: path))
        var state = try file.load()
        state.odometerMillimetres = 10
        try file.save(state)
        #expect(try file.load().odometerMillimetres == 1_000)
        state.odometerMillimetres = 5_000
        try file.save(state)
        file.storage.stepsBeforePowerCut = 3
        state.odometerMillimetres = 4_000
        #expect(throws: StateFileError.self) { try file.save(state) }
        file.storage.powerCut()
        var reopened = StateFile(path: path, storage: file.storage)
        #expect(try reopened.load().odometerMillimetres == 5_000)
    }
}
