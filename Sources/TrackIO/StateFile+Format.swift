import TrackCore

/// What survives power cuts in `/var/lib/trackd/state`: the permission, the odometer and
/// counters, e.g. `PersistedState()` is the first-boot default (`notDetermined`, 0 mm).
public struct PersistedState: Equatable, Sendable {
    /// State, accuracy, temporary full accuracy and the state before private mode.
    public var permission: Permission
    /// The odometer in millimetres; saved at most every 30 s, never decreasing.
    public var odometerMillimetres: Int64
    /// Start-ups counted by the daemon.
    public var bootCount: UInt32
    /// Saves so far (wraps), so two files can be told apart.
    public var saveCount: UInt32

    /// A state from its parts; all defaults is the first-boot state.
    public init(
        permission: Permission = Permission(), odometerMillimetres: Int64 = 0, bootCount: UInt32 = 0,
        saveCount: UInt32 = 0
    ) {
        self.permission = permission
        self.odometerMillimetres = odometerMillimetres
        self.bootCount = bootCount
        self.saveCount = saveCount
    }
}

// Layout, version 1, 40 bytes little-endian:
//   0 magic "TKST" · 4 version u16 = 1 · 6 total length u16 = 40
//   8 state u8 · 9 accuracy u8 · 10 state before private u8 (0xFF none) · 11 zero
//   12 precise-until UTC ms i64 (Int64.min none) · 20 odometer mm i64
//   28 boot count u32 · 32 save count u32 · 36 CRC-32C of bytes 0..<36
extension PersistedState {
    /// The format version this build writes and reads: 1.
    public static let formatVersion: UInt16 = 1
    /// The encoded size in bytes: 40.
    public static let encodedSize = 40
    static let magic: [UInt8] = [0x54, 0x4B, 0x53, 0x54]  // "TKST"

    /// The 40-byte version 1 encoding, CRC included.
    public func encoded() -> [UInt8] {
        var bytes = Self.magic
        bytes.reserveCapacity(Self.encodedSize)
        Self.append(UInt64(Self.formatVersion), 2, to: &bytes)
        Self.append(UInt64(Self.encodedSize), 2, to: &bytes)
        bytes.append(permission.state.rawValue)
        bytes.append(permission.accuracy.rawValue)
        bytes.append(permission.stateBeforePrivate?.rawValue ?? 0xFF)
        bytes.append(0)
        // A temporary full accuracy runs on the monotonic clock and ends with the process: the
        // field is always written as "none" (a build that stored a UTC end wrote it here).
        Self.append(UInt64(bitPattern: Int64.min), 8, to: &bytes)
        Self.append(UInt64(bitPattern: odometerMillimetres), 8, to: &bytes)
        Self.append(UInt64(bootCount), 4, to: &bytes)
        Self.append(UInt64(saveCount), 4, to: &bytes)
        Self.append(UInt64(CRC32C.checksum(of: bytes.span, 0..<bytes.count)), 4, to: &bytes)
        return bytes
    }

    /// Decodes `bytes` read from `path`, naming the file and the fault in the error.
    public static func decode(_ bytes: [UInt8], path: String) throws(StateFileError) -> PersistedState {
        guard bytes.count >= 8 else { throw .truncated(path: path, bytes: bytes.count, expected: encodedSize) }
        guard Array(bytes[0..<4]) == magic else { throw .notAStateFile(path: path) }
        let version = UInt16(read(bytes, 4, 2))
        guard version == formatVersion else { throw .unknownVersion(path: path, version: version) }
        let length = Int(read(bytes, 6, 2))
        guard bytes.count >= encodedSize else { throw .truncated(path: path, bytes: bytes.count, expected: encodedSize) }
        guard length == encodedSize, bytes.count == encodedSize else {
            throw .wrongLength(path: path, bytes: bytes.count, expected: encodedSize)
        }
        let stored = UInt32(read(bytes, 36, 4))
        let computed = CRC32C.checksum(of: bytes.span, 0..<36)
        guard stored == computed else { throw .badChecksum(path: path, stored: stored, computed: computed) }
        guard let state = PermissionState(rawValue: bytes[8]) else {
            throw .badField(path: path, field: "state", value: Int64(bytes[8]))
        }
        guard let accuracy = PermissionAccuracy(rawValue: bytes[9]) else {
            throw .badField(path: path, field: "accuracy", value: Int64(bytes[9]))
        }
        var before: PermissionState?
        if bytes[10] != 0xFF {
            guard let value = PermissionState(rawValue: bytes[10]), value.isAllowed else {
                throw .badField(path: path, field: "state before private", value: Int64(bytes[10]))
            }
            before = value
        }
        let odometer = Int64(bitPattern: read(bytes, 20, 8))
        guard odometer >= 0 else { throw .badField(path: path, field: "odometer", value: odometer) }
        let permission = Permission(
            state: state, accuracy: accuracy, preciseUntil: nil, stateBeforePrivate: before
        )
        return PersistedState(
            permission: permission, odometerMillimetres: odometer,
            bootCount: UInt32(read(bytes, 28, 4)), saveCount: UInt32(read(bytes, 32, 4))
        )
    }

    private static func append(_ value: UInt64, _ count: Int, to bytes: inout [UInt8]) {
        for index in 0..<count { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(index)))) }
    }

    private static func read(_ bytes: [UInt8], _ offset: Int, _ count: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in 0..<count { value |= UInt64(bytes[offset + index]) << (8 * UInt64(index)) }
        return value
    }
}
