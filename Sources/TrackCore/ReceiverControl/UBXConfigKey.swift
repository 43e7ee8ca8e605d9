/// A u-blox 9/10 configuration item's key, e.g. CFG-RATE-MEAS = 0x30210001; bits 28…30 give
/// the value's size (UBX-21035062, section 4.2 "Configuration items": 1 one bit stored in a
/// byte, 2 one byte, 3 two bytes, 4 four bytes, 5 eight bytes).
public struct UBXConfigKey: Equatable, Hashable, Sendable {
    /// The 32-bit key as u-blox writes it.
    public var rawValue: UInt32

    /// A key from its number.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// CFG-UART1-BAUDRATE, U4, the baud of UART1.
    public static var uart1Baudrate: UBXConfigKey { UBXConfigKey(rawValue: 0x4052_0001) }
    /// CFG-RATE-MEAS, U2, ms between measurements (100 ms: 10 Hz).
    public static var rateMeasurement: UBXConfigKey { UBXConfigKey(rawValue: 0x3021_0001) }
    /// CFG-RATE-NAV, U2, measurements per navigation solution.
    public static var rateNavigation: UBXConfigKey { UBXConfigKey(rawValue: 0x3021_0002) }
    /// CFG-PM-OPERATEMODE, E1: 0 full power, 1 PSMOO (on/off), 2 PSMCT (cyclic tracking).
    public static var powerOperateMode: UBXConfigKey { UBXConfigKey(rawValue: 0x20D0_0001) }

    /// Bytes of the value, from the key's size bits, e.g. 4 for CFG-UART1-BAUDRATE; nil for a
    /// size u-blox does not define (0, 6, 7).
    public var valueByteCount: Int? {
        switch (rawValue >> 28) & 0x7 {
        case 1, 2: 1
        case 3: 2
        case 4: 4
        case 5: 8
        default: nil
        }
    }
}
