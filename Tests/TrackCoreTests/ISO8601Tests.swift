import Testing
import TrackCore

private let day = Int64(86_400_000)
// 2026-11-30T00:00:00Z
private let midnight = Int64(20_787) * day

private let accepted: [(String, Int64)] = [
    ("2026-11-30", midnight),
    ("2026-11-30T12:00:00Z", midnight + 43_200_000),
    ("2026-11-30T12:00Z", midnight + 43_200_000),
    ("2026-11-30 12:00:00Z", midnight + 43_200_000),
    ("2026-11-30T12:00:00.5Z", midnight + 43_200_500),
    ("2026-11-30T12:00:00.250Z", midnight + 43_200_250),
    ("2026-11-30T12:00:00.250000Z", midnight + 43_200_250),
    ("2026-11-30T13:30:00+01:30", midnight + 43_200_000),
    ("2026-11-30T07:00:00-0500", midnight + 43_200_000),
    ("2026-11-30T23:59:59.999Z", midnight + day - 1),
    ("2024-02-29T00:00:00Z", Int64(19_782) * day),
]

@Test(arguments: accepted.indices)
func iso8601TimesAreParsed(index: Int) {
    let (text, milliseconds) = accepted[index]
    #expect(UTCTime(iso8601: text)?.millisecondsSinceEpoch == milliseconds, "\(text)")
}

@Test(arguments: ["", "2026", "2026-11", "2026-11-30T12:00:00", "2026-13-01", "2026-02-30", "2023-02-29",
                  "2026-11-30T24:00:00Z", "2026-11-30T12:60:00Z", "2026-11-30T12:00:60Z", "2026-11-30T12:00:00.Z",
                  "2026-11-30T12:00:00.0001Z", "2026-11-30T12:00:00ZZ", "2026-11-30T12:00:00+1", "2026-11-30X",
                  "yesterday", "2026-11-30T12:00:00+15:00", " 2026-11-30", "2026-11-30T12Z"])
func malformedTimesAreRefused(text: String) {
    #expect(UTCTime(iso8601: text) == nil)
}

/// Times recorded in GPX and track CSV files: 2024-05-01T10:00:00Z is 1_714_557_600_000.
private let recorded: [(String, Int64)] = [
    ("2024-05-01T10:00:00Z", 1_714_557_600_000), ("2024-05-01T10:00:00.5Z", 1_714_557_600_500),
    ("2024-05-01T10:00:00.123456Z", 1_714_557_600_123), ("2024-05-01T12:30:00+02:30", 1_714_557_600_000),
    ("2024-05-01T05:00:00-05:00", 1_714_557_600_000), ("2024-05-01T10:00:00.9996Z", 1_714_557_600_999),
    ("2024-05-01T23:59:60Z", 1_714_608_000_000), ("2024-05-02T00:00:00+14:00", 1_714_557_600_000),
]

@Test(arguments: recorded.indices)
func recordedTimesAreParsed(index: Int) {
    let (text, milliseconds) = recorded[index]
    #expect(UTCTime(iso8601: Array(text.utf8), form: .recorded)?.millisecondsSinceEpoch == milliseconds, "\(text)")
}

@Test(arguments: [
    "2024-05-01 10:00:00Z", "2024-05-01T10:00:00", "2024-02-30T10:00:00Z", "2024-05-01T24:00:00Z",
    "2024-05-01T10:60:00Z", "2024-05-01T10:00:00.Z", "2024-05-01T10:00:00+0200", "24-05-01T10:00:00Z",
    "2024-05-01", "2024-05-01T10:00Z", "2024-05-01T10:00:00,5Z", "2024-05-01T10:00:61Z",
    "2024-05-01T10:00:00+15:00", "2024-05-01T10:00:00Z ", "",
])
func malformedRecordedTimesAreRefused(text: String) {
    #expect(UTCTime(iso8601: Array(text.utf8), form: .recorded) == nil)
}

@Test func compactTimesDropZeroMilliseconds() {
    for (milliseconds, text) in [(midnight + 43_200_000, "2026-11-30T12:00:00Z"), (midnight + 43_200_007, "2026-11-30T12:00:00.007Z")] {
        var buffer = TextBuffer()
        UTCTime(millisecondsSinceEpoch: milliseconds).writeCompact(to: &buffer)
        #expect(buffer.string == text)
        #expect(UTCTime(iso8601: text)?.millisecondsSinceEpoch == milliseconds)
    }
}

@Test func trimmedDecimalsAreExact() {
    for (value, decimals, text) in [(Int64(481_173_000), 7, "48.1173"), (27_400, 1, "2740"), (-5, 2, "-0.05"), (0, 7, "0"),
                                    (-3_234_795, 7, "-0.3234795"), (Int64(Int32.min), 7, "-214.7483648"), (120, 2, "1.2")] {
        var buffer = TextBuffer()
        buffer.appendTrimmed(value, decimals: decimals)
        #expect(buffer.string == text)
    }
}
