/// One `[section]` of trackd.conf: its name, what it is for and its keys, e.g. `[receiver]`.
///
/// `TrackdConfig.sections` lists them all; the parser, docs/config.md and
/// board/trackd.conf.example are all made from that one table, so adding a key is one entry.
/// The firmware (Embedded Swift) keeps only what the parser reads: the summaries and examples
/// are for the docs, which the host build generates, and weighed 11 KB in trackd.
public struct ConfigSection: Sendable {
    /// Name between the brackets, lower-case-with-dashes, e.g. `receiver`.
    public let name: String
    #if !hasFeature(Embedded)
    /// One sentence on what the section configures.
    public let summary: String
    #endif
    /// The keys, in the order the docs list them.
    public let keys: [ConfigKey]

    /// A section; `keys` must have distinct names.
    init(_ name: String, _ summary: String, _ keys: [ConfigKey]) {
        self.name = name
        #if !hasFeature(Embedded)
        self.summary = summary
        #endif
        self.keys = keys
    }

    /// The key called `name`, e.g. `baud`; nil when the section has none.
    public func key(_ name: String) -> ConfigKey? {
        for key in keys where key.name.bytesEqual(name) { return key }
        return nil
    }
}

/// One `key = value` setting: its name, what its value may be, its default, an example and
/// what it does, and where the parsed value goes in `TrackdConfig`.
public struct ConfigKey: Sendable {
    /// Name before the `=`, lower-case-with-dashes, e.g. `max-accuracy`.
    public let name: String
    /// What the value may be: type, unit and range.
    public let kind: ConfigValueKind
    /// The default as written in the file, e.g. `65`; `""` when the default is empty; nil when
    /// the key has no default of its own (a sampling override keeps the profile's value).
    public let defaultText: String?
    #if !hasFeature(Embedded)
    /// A value to show in the docs, e.g. `50`; it must parse.
    public let example: String
    /// What the key does, one or two sentences for docs/config.md.
    public let summary: String
    #endif
    /// Writes a parsed value into the config; `value` has passed `kind`'s checks.
    let store: @Sendable (inout TrackdConfig, ConfigValue) -> Void

    /// A key that stores values of `kind` with `store`.
    init(_ name: String, _ kind: ConfigValueKind, default defaultText: String?, example: String,
         _ summary: String, store: @escaping @Sendable (inout TrackdConfig, ConfigValue) -> Void) {
        self.name = name
        self.kind = kind
        self.defaultText = defaultText
        #if !hasFeature(Embedded)
        self.example = example
        self.summary = summary
        #endif
        self.store = store
    }
}

/// A value that passed its key's checks: the text as written (trimmed) and its number in the
/// key's integer unit (milliseconds, millimetres, bytes…; the index for a choice; 0 for text).
struct ConfigValue: Sendable {
    var text: String
    var number: Int64
}

/// What a key's value may be. Numbers are kept in integer units (the case says which) and
/// written in human ones: `.distance(1_000...10_000_000)` accepts `1` to `10000` (metres).
public enum ConfigValueKind: Equatable, Sendable {
    /// Milliseconds, written `500ms`, `5s`, `10m`, `2h` or plain seconds (`1.5` = 1500 ms).
    case duration(ClosedRange<Int64>)
    /// Millimetres, written in metres with an optional `m`, e.g. `65`, `2.5 m`.
    case distance(ClosedRange<Int64>)
    /// Millimetres per second, written in m/s with an optional `m/s`, e.g. `100`, `0.5`.
    case speed(ClosedRange<Int64>)
    /// Millidegrees, written in degrees, e.g. `30`, `12.5`.
    case angle(ClosedRange<Int64>)
    /// Bytes, written with an optional binary suffix `K`, `M` or `G`, e.g. `256M`, `1.5K`.
    case size(ClosedRange<Int64>)
    /// A whole number, e.g. `4`.
    case count(ClosedRange<Int64>)
    /// `auto` (number 0) or one of `TrackdConfig.Receiver.Baud.rates` in bits per second.
    case baud
    /// One of the words (number = its index), e.g. `checkin`, `track`, `arrival`.
    case choice([String])
    /// An absolute path of at most `maxBytes` bytes; empty allowed (= none) when `optional`.
    case path(maxBytes: Int, optional: Bool)
    /// A Unix group name: a-z, 0-9, `_` and `-`, not starting with `-`, at most 32 bytes.
    case groupName
    /// A GPIO chip: its label (`pinctrl-bcm2711`) or device path (`/dev/gpiochip0`).
    case gpioChip
    /// A GPIO line: its name (`GPIO17`) or offset on the chip (`17`).
    case gpioLine
    /// An LED pattern: `solid`, `off`, or `on MS off MS …` steps (`LEDPattern.parse`).
    case ledPattern
    /// Comma-separated TCP addresses (`ListenAddress`), e.g. `127.0.0.1:2947, [::1]:2947`; at
    /// most `maxCount`; empty allowed (= none).
    case listenAddresses(maxCount: Int)
    /// `keep`, or the sentences a receiver is told to send (`SentenceRates(parsing:)`), e.g.
    /// `rmc gga gsa gst gsv/5`.
    case sentenceList

    /// The type as the docs name it, e.g. `distance (m)`.
    public var typeName: String {
        switch self {
        case .duration: "duration"
        case .distance: "distance (m)"
        case .speed: "speed (m/s)"
        case .angle: "angle (°)"
        case .size: "size (bytes)"
        case .count: "whole number"
        case .baud: "baud rate (bit/s)"
        case .choice: "word"
        case .path: "path"
        case .groupName: "group name"
        case .gpioChip: "GPIO chip"
        case .gpioLine: "GPIO line"
        case .ledPattern: "LED pattern"
        case .listenAddresses: "addresses"
        case .sentenceList: "sentence list"
        }
    }

    /// The values allowed, in the file's own notation, e.g. `1 … 10000 m` or `100ms … 1m`.
    public var rangeText: String {
        switch self {
        case .duration(let range): String(joining: formatDuration(range.lowerBound), " … ", formatDuration(range.upperBound))
        case .distance(let range): String(joining: formatThousandths(range.lowerBound), " … ", formatThousandths(range.upperBound), " m")
        case .speed(let range): String(joining: formatThousandths(range.lowerBound), " … ", formatThousandths(range.upperBound), " m/s")
        case .angle(let range): String(joining: formatThousandths(range.lowerBound), " … ", formatThousandths(range.upperBound), "°")
        case .size(let range): String(joining: formatSize(range.lowerBound), " … ", formatSize(range.upperBound))
        case .count(let range): String(joining: String(range.lowerBound), " … ", String(range.upperBound))
        case .baud: "auto, " + joined(TrackdConfig.Receiver.Baud.rates.map { "\($0)" })
        case .choice(let words): joined(words)
        case .path(let maxBytes, let optional):
            (optional ? "empty or an absolute path" : "absolute path") + String(joining: ", at most ", String(maxBytes), " bytes")
        case .groupName: "1 … 32 bytes of a-z 0-9 _ -"
        case .gpioChip: "a chip label or /dev/gpiochipN"
        case .gpioLine: String(joining: "a line name or an offset 0 … ", String(BoardLine.maximumOffset))
        case .ledPattern: "solid, off, or 1 … 8 steps of on/off 1 … 60000 ms"
        case .listenAddresses(let maxCount): String(joining: "empty, or 1 … ", String(maxCount), " of IPv4:port, [IPv6]:port")
        case .sentenceList: "keep, or gga gll gsa gsv rmc vtg gst zda gbs, each optionally /N (every N-th epoch, 1 … 20)"
        }
    }

    /// The number of a value in this kind's unit in the file's notation, e.g. 60_000 ms → `1m`;
    /// the text itself for kinds that are not numbers.
    func format(_ value: ConfigValue) -> String {
        switch self {
        case .duration: formatDuration(value.number)
        case .distance, .speed, .angle: formatThousandths(value.number)
        case .size: formatSize(value.number)
        case .count: "\(value.number)"
        case .baud, .choice, .path, .groupName, .gpioChip, .gpioLine, .ledPattern, .listenAddresses, .sentenceList:
            value.text
        }
    }
}

func joined(_ words: [String]) -> String {
    var text = ""
    for word in words {
        if !text.isEmpty { text += ", " }
        text += word
    }
    return text
}

/// Milliseconds in the largest unit that divides them, e.g. 90_000 → `90s`, 60_000 → `1m`.
func formatDuration(_ milliseconds: Int64) -> String {
    if milliseconds == 0 { return "0s" }
    for (suffix, scale) in durationUnits.reversed() where milliseconds % scale == 0 {
        return String(joining: String(milliseconds / scale), suffix)
    }
    return String(joining: String(milliseconds), "ms")
}

/// Thousandths as a decimal without trailing zeros, e.g. 2_500 → `2.5`, 65_000 → `65`.
func formatThousandths(_ value: Int64) -> String {
    let whole = "\(value / 1000)"
    var fraction = value % 1000
    if fraction == 0 { return whole }
    var digits = 3
    while fraction % 10 == 0 { fraction /= 10; digits -= 1 }
    var text = "\(fraction)"
    while text.utf8.count < digits { text = "0" + text }
    return whole + "." + text
}

/// Bytes in the largest binary unit that divides them, e.g. 268_435_456 → `256M`.
func formatSize(_ bytes: Int64) -> String {
    if bytes == 0 { return "0" }
    for (suffix, scale) in sizeUnits.reversed() where bytes % scale == 0 {
        return String(joining: String(bytes / scale), suffix)
    }
    return "\(bytes)"
}
