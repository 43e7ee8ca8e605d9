import Testing
import TrackCore

/// Durations, distances, speeds, angles and sizes as written in the file.
@Suite("Config values")
struct ConfigValueTests {
    /// `sampling.min-period` takes 0 … 24h, room for every unit.
    @Test("durations", arguments: [
        ("500ms", 500), ("5s", 5_000), ("10m", 600_000), ("2h", 7_200_000), ("5", 5_000),
        ("0", 0), ("1.5", 1_500), ("1.5s", 1_500), ("0.25s", 250), ("90 s", 90_000), ("1.5h", 5_400_000),
        ("0.5m", 30_000), ("007s", 7_000), ("24h", 86_400_000), ("1.000s", 1_000), ("1ms", 1),
        ("0000000000000000000005s", 5_000), ("1.0000000000000000000000000s", 1_000), ("-0", 0),
    ] as [(String, Int64)])
    func duration(text: String, milliseconds: Int64) throws {
        let config = try parseConfig("[sampling]\nmin-period = \(text)")
        #expect(config.sampling.minPeriodMilliseconds == milliseconds)
    }

    @Test("sizes are binary", arguments: [
        ("256M", 268_435_456), ("1G", 1_073_741_824), ("64K", 65_536), ("65536", 65_536),
        ("1.5M", 1_572_864), ("1024G", 1 << 40), ("256 M", 268_435_456), ("0.5G", 536_870_912),
    ] as [(String, Int64)])
    func size(text: String, bytes: Int64) throws {
        // A segment small enough for the smallest quota (quota ≥ twice segment-size).
        let config = try parseConfig("[log]\nsegment-size = 4K\nquota = \(text)")
        #expect(config.log.quotaBytes == bytes)
    }

    @Test("distances in metres, kept in millimetres", arguments: [
        ("5", 5_000), ("5.0", 5_000), ("0.1", 100), ("4.25", 4_250), ("4.250000", 4_250),
        ("5 m", 5_000), ("5m", 5_000), ("100", 100_000), ("99.999", 99_999),
    ] as [(String, Int32)])
    func distance(text: String, millimetres: Int32) throws {
        let config = try parseConfig("[filter]\nuere = \(text)")
        #expect(config.filter.uereMillimetres == millimetres)
    }

    @Test("speeds in m/s, kept in mm/s", arguments: [
        ("100", 100_000), ("1.5", 1_500), ("2.75 m/s", 2_750), ("1m/s", 1_000), ("1000", 1_000_000),
    ] as [(String, Int32)])
    func speed(text: String, millimetresPerSecond: Int32) throws {
        let config = try parseConfig("[filter]\nmax-speed = \(text)")
        #expect(config.filter.maxSpeedMillimetresPerSecond == millimetresPerSecond)
    }

    @Test("angles in degrees, kept in millidegrees", arguments: [
        ("30", 30_000), ("0", 0), ("12.5", 12_500), ("180", 180_000), ("0.001", 1),
    ] as [(String, Int32)])
    func angle(text: String, millidegrees: Int32) throws {
        let config = try parseConfig("[sampling]\nmin-heading-change = \(text)")
        #expect(config.sampling.minHeadingChangeMillidegrees == millidegrees)
    }

    static let rejected: [(key: String, value: String, message: String)] = [
        ("sampling.min-period", "5 min", #""5 min" is not a duration (500ms, 5s, 10m, 2h or seconds)"#),
        ("sampling.min-period", "5S", #""5S" is not a duration (500ms, 5s, 10m, 2h or seconds)"#),
        ("sampling.min-period", "5sec", #""5sec" is not a duration (500ms, 5s, 10m, 2h or seconds)"#),
        ("sampling.min-period", "1e3", #""1e3" is not a duration (500ms, 5s, 10m, 2h or seconds)"#),
        ("sampling.min-period", ".5", #"".5" is not a duration (500ms, 5s, 10m, 2h or seconds)"#),
        ("sampling.min-period", "5.", #""5." is not a duration (500ms, 5s, 10m, 2h or seconds)"#),
        ("sampling.min-period", "1.2.3", #""1.2.3" is not a duration (500ms, 5s, 10m, 2h or seconds)"#),
        ("sampling.min-period", "+5", #""+5" is not a duration (500ms, 5s, 10m, 2h or seconds)"#),
        ("sampling.min-period", "-.5", #""-.5" is not a duration (500ms, 5s, 10m, 2h or seconds)"#),
        ("sampling.min-period", "-", #""-" is not a duration (500ms, 5s, 10m, 2h or seconds)"#),
        ("sampling.min-period", "s", #""s" is not a duration (500ms, 5s, 10m, 2h or seconds)"#),
        ("sampling.min-period", "0.0000000000000000001s", #""0.0000000000000000001s" is finer than 1 ms"#),
        ("sampling.min-period", "1.0005s", #""1.0005s" is finer than 1 ms"#),
        ("sampling.min-period", "-5s", #""-5s" is outside 0s … 24h"#),
        ("sampling.min-period", "25h", #""25h" is outside 0s … 24h"#),
        ("sampling.min-period", "99999999999999999999", #""99999999999999999999" is outside 0s … 24h"#),
        ("sampling.min-period", "9999999999999999h", #""9999999999999999h" is outside 0s … 24h"#),
        ("log.quota", "1T", #""1T" is not a size in bytes (512K, 256M, 1G or bytes)"#),
        ("log.quota", "256MB", #""256MB" is not a size in bytes (512K, 256M, 1G or bytes)"#),
        ("log.quota", "256m", #""256m" is not a size in bytes (512K, 256M, 1G or bytes)"#),
        ("log.quota", "100", #""100" is outside 64K … 1024G"#),
        ("log.segment-size", "4.1K", #""4.1K" is finer than 1 byte"#),
        ("filter.uere", "5.0001", #""5.0001" is finer than 1 mm"#),
        ("filter.uere", "5 km", #""5 km" is not a number of metres"#),
        ("filter.uere", "five", #""five" is not a number of metres"#),
        ("filter.uere", "0.05", #""0.05" is outside 0.1 … 100 m"#),
        ("filter.max-speed", "5 km/h", #""5 km/h" is not a speed in m/s"#),
        ("sampling.min-heading-change", "181", #""181" is outside 0 … 180°"#),
        ("sampling.min-heading-change", "30°", #""30°" is not a number of degrees"#),
        ("filter.min-satellites", "4.5", #""4.5" is not a whole number"#),
        ("filter.min-satellites", "33", #""33" is outside 0 … 32"#),
        ("filter.min-satellites", "four", #""four" is not a whole number"#),
    ]

    @Test("values of the wrong form, too fine or out of range", arguments: rejected)
    func rejectedValue(key: String, value: String, message: String) {
        let parts = key.split(separator: ".")
        let text = "[\(parts[0])]\n\(parts[1]) = \(value)"
        #expect(configError(text)?.description == "trackd.conf:2: \(key): \(message)")
    }
}
