// Reading values. Decimals are read exactly (`DecimalText.exact`: Double("…") does not link in
// Embedded Swift, and a config should not round): "2.5" metres is 2_500 mm or an error, never
// 2_499.

/// Duration suffixes and their milliseconds, smallest first; a plain number is seconds.
let durationUnits: [(String, Int64)] = [("ms", 1), ("s", 1_000), ("m", 60_000), ("h", 3_600_000)]
/// Size suffixes and their bytes (binary, as `ls -h` and `df -h` print them), smallest first.
let sizeUnits: [(String, Int64)] = [("K", 1 << 10), ("M", 1 << 20), ("G", 1 << 30)]

extension ConfigValueKind {
    /// Checks `text` (trimmed, comment removed) and converts it to this kind's unit, e.g.
    /// `.duration(…)` and `"10m"` → 600_000.
    func parse(_ text: String) throws(ConfigError.Problem) -> ConfigValue {
        if text.isEmpty {
            if case .listenAddresses = self { return ConfigValue(text: text, number: 0) }
            guard case .path(_, optional: true) = self else { throw .missingValue }
            return ConfigValue(text: text, number: 0)
        }
        switch self {
        case .duration(let range):
            return try measure(text, units: durationUnits, plain: 1_000, range: range, resolution: "1 ms",
                               expected: "a duration (500ms, 5s, 10m, 2h or seconds)")
        case .distance(let range):
            return try measure(text, units: [("m", 1_000)], plain: 1_000, range: range, resolution: "1 mm",
                               expected: "a number of metres")
        case .speed(let range):
            return try measure(text, units: [("m/s", 1_000)], plain: 1_000, range: range,
                               resolution: "1 mm/s", expected: "a speed in m/s")
        case .angle(let range):
            return try measure(text, units: [], plain: 1_000, range: range, resolution: "0.001°",
                               expected: "a number of degrees")
        case .size(let range):
            return try measure(text, units: sizeUnits, plain: 1, range: range, resolution: "1 byte",
                               expected: "a size in bytes (512K, 256M, 1G or bytes)")
        case .count(let range):
            return try measure(text, units: [], plain: 1, range: range, resolution: "1",
                               expected: "a whole number")
        case .baud:
            if text.bytesEqual("auto") { return ConfigValue(text: text, number: 0) }
            for rate in TrackdConfig.Receiver.Baud.rates where "\(rate)".bytesEqual(text) {
                return ConfigValue(text: text, number: Int64(rate))
            }
            throw .badValue(text, expected: "auto or one of " + joined(TrackdConfig.Receiver.Baud.rates.map { "\($0)" }))
        case .choice(let words):
            for (index, word) in words.enumerated() where word.bytesEqual(text) {
                return ConfigValue(text: text, number: Int64(index))
            }
            throw .badValue(text, expected: "one of " + joined(words))
        case .path(let maxBytes, _):
            let bytes = text.utf8
            guard bytes.first == UInt8(ascii: "/"), bytes.count <= maxBytes,
                  !bytes.contains(where: { $0 < 0x20 || $0 == 0x7F }) else {
                throw .badValue(text, expected: String(joining: "an absolute path of at most ", String(maxBytes), " bytes"))
            }
            return ConfigValue(text: text, number: 0)
        case .gpioChip:
            try checkChip(text)
            return ConfigValue(text: text, number: 0)
        case .gpioLine:
            _ = try BoardLine(parsing: text)
            return ConfigValue(text: text, number: 0)
        case .ledPattern:
            do throws(LEDPatternError) {
                _ = try LEDPattern.parse(text)
            } catch {
                throw .rejected(text, reason: error.description)
            }
            return ConfigValue(text: text, number: 0)
        case .listenAddresses(let maxCount):
            guard let addresses = parseListenAddresses(text) else {
                throw .badValue(text, expected: "addresses such as 127.0.0.1:2947, [::1]:2947 (IPv4:port or [IPv6]:port, comma-separated)")
            }
            guard addresses.count <= maxCount else { throw .outOfRange(text, range: rangeText) }
            return ConfigValue(text: text, number: Int64(addresses.count))
        case .sentenceList:
            guard !text.bytesEqual("keep") else { return ConfigValue(text: text, number: 0) }
            do throws(SentenceRatesError) {
                _ = try SentenceRates(parsing: text.utf8)
            } catch {
                throw .rejected(text, reason: error.description)
            }
            return ConfigValue(text: text, number: 1)
        case .groupName:
            guard isGroupName(text) else {
                throw .badValue(text, expected: "a group name (1 to 32 of a-z 0-9 _ -, no leading - or digit)")
            }
            return ConfigValue(text: text, number: 0)
        }
    }
}

extension ConfigValueKind {
    /// A decimal number with an optional unit suffix, as an exact multiple of the key's unit:
    /// `mantissa × scale ÷ 10^decimals` must be whole (else `tooPrecise`) and within `range`.
    /// `plain` is the scale of a number without a suffix; a space may separate number and suffix.
    private func measure(_ text: String, units: [(String, Int64)], plain: Int64, range: ClosedRange<Int64>,
                         resolution: String, expected: String) throws(ConfigError.Problem) -> ConfigValue {
        let bytes = Array(text.utf8)
        // The number (DecimalText's grammar), then spaces, then the unit.
        let length = DecimalText.length(bytes.span, 0..<bytes.count)
        let number = bytes[..<length]
        // "5." and ".5" are typos more often than numbers; "0.5" costs one key stroke more. A
        // plus sign is refused too: DecimalText takes it, but no config value needs one.
        let point = UInt8(ascii: ".")
        guard number.last != point, number.first != point, number.first != UInt8(ascii: "+"),
              number.count < 2 || number[1] != point || isDigit(number[0]) else {
            throw .badValue(text, expected: expected)
        }
        let mantissa: Int64, decimals: Int
        do throws(DecimalText.Problem) {
            (mantissa, decimals) = try DecimalText.exact(bytes.span, 0..<length)
        } catch .malformed {
            throw .badValue(text, expected: expected)
        } catch .tooLarge {
            throw .outOfRange(text, range: rangeText)
        } catch {
            throw .tooPrecise(text, resolution: resolution)
        }
        var index = length
        while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") {
            index += 1
        }
        let suffix = String(decoding: bytes[index...], as: UTF8.self)
        var scale = plain
        if !suffix.isEmpty {
            guard let unit = units.first(where: { $0.0.bytesEqual(suffix) }) else { throw .badValue(text, expected: expected) }
            scale = unit.1
        }
        if case .count = self, decimals > 0 { throw .badValue(text, expected: expected) }

        // mantissa × scale must divide by 10^decimals.
        let divisor = powerOfTen(decimals)
        let (scaled, overflow) = mantissa.multipliedReportingOverflow(by: scale)
        guard !overflow else { throw .outOfRange(text, range: rangeText) }
        guard scaled % divisor == 0 else { throw .tooPrecise(text, resolution: resolution) }
        let value = scaled / divisor
        guard range.contains(value) else { throw .outOfRange(text, range: rangeText) }
        return ConfigValue(text: text, number: value)
    }
}

private func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
}

/// The names shadow's `groupadd` accepts by default, `[a-z_][a-z0-9_-]*`, at most 32 bytes
/// (without the trailing `$` of Samba machine accounts).
private func isGroupName(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    guard (1...32).contains(bytes.count), !isDigit(bytes[0]), bytes[0] != UInt8(ascii: "-") else { return false }
    return bytes.allSatisfy { ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z")) || isDigit($0)
        || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }
}

/// True for `lower-case-with-dashes` names: a-z and 0-9 in words joined by single dashes,
/// starting with a letter, e.g. `reopen-min`; not `Reopen`, `reopen_min`, `-x`, `a--b`, `a-`.
func isLowerDashName(_ text: String) -> Bool {
    var previous: UInt8 = UInt8(ascii: "-")
    for (offset, byte) in text.utf8.enumerated() {
        let letter = byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")
        if offset == 0 && !letter { return false }
        if byte == UInt8(ascii: "-") {
            if previous == UInt8(ascii: "-") { return false }
        } else if !letter && !isDigit(byte) {
            return false
        }
        previous = byte
    }
    return !text.isEmpty && previous != UInt8(ascii: "-")
}
