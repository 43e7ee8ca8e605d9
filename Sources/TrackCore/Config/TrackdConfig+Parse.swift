extension TrackdConfig {
    /// Reads trackd.conf: `key = value` lines under `[section]` lines, `#` comments (a whole
    /// line, or after a space or tab), blank lines; LF or CRLF line ends, an optional UTF-8 BOM.
    /// Keys not in the file keep their defaults, so `parse("", file: …)` is `TrackdConfig()`.
    ///
    /// `file` is only used in errors, e.g. `/etc/trackd/trackd.conf`. Throws at the first
    /// problem, e.g. `[filter]` / `max-accuracy = 65 km` →
    /// `trackd.conf:2: filter.max-accuracy: "65 km" is not a number of metres`.
    /// Allocates; meant for start-up and reload.
    public static func parse(_ text: String, file: String) throws(ConfigError) -> TrackdConfig {
        var config = TrackdConfig()
        var seen: [[UInt8]: SeenKey] = [:]
        var section: ConfigSection?
        for entry in try iniLines(text, file: file) {
            switch entry {
            case .section(let name, let lineNumber):
                guard let found = sections.first(where: { $0.name.bytesEqual(name) }) else {
                    throw ConfigError(file: file, line: lineNumber, key: nil,
                                      problem: .unknownSection(name, known: sections.map { $0.name }))
                }
                section = found
            case .entry(let name, let valueText, let lineNumber):
                func fail(_ key: String?, _ problem: ConfigError.Problem) -> ConfigError {
                    ConfigError(file: file, line: lineNumber, key: key, problem: problem)
                }
                guard let section else { throw fail(name, .keyOutsideSection) }
                let qualified = section.name + "." + name
                guard isLowerDashName(name) else { throw fail(qualified, .badKeyName) }
                guard let key = section.key(name) else {
                    throw fail(qualified, .unknownKey(known: section.keys.map { $0.name }))
                }
                if let earlier = seen[Array(qualified.utf8)] { throw fail(qualified, .duplicateKey(firstLine: earlier.line)) }
                let value: ConfigValue
                do throws(ConfigError.Problem) {
                    value = try key.kind.parse(valueText)
                } catch {
                    throw fail(qualified, error)
                }
                key.store(&config, value)
                seen[Array(qualified.utf8)] = SeenKey(line: lineNumber, value: value)
            }
        }
        try checkOrder(seen, file: file)
        return config
    }

    /// Checks `orderRules`; reports at whichever key of a broken pair the file sets last.
    private static func checkOrder(_ seen: [[UInt8]: SeenKey], file: String) throws(ConfigError) {
        for rule in orderRules {
            let lower = seen[Array(rule.lower.utf8)], upper = seen[Array(rule.upper.utf8)]
            guard lower != nil || upper != nil,
                  let lowerValue = lower?.value ?? defaultValue(rule.lower),
                  let upperValue = upper?.value ?? defaultValue(rule.upper),
                  lowerValue.number * rule.factor > upperValue.number
            else { continue }
            let lowerText = shown(lowerValue, key: rule.lower, isDefault: lower == nil)
            let upperText = shown(upperValue, key: rule.upper, isDefault: upper == nil)
            if let upper, upper.line > lower?.line ?? 0 {
                let twice = rule.factor == 2 ? "twice " : rule.factor == 1 ? "" : String(joining: String(rule.factor), " × ")
                throw ConfigError(file: file, line: upper.line, key: rule.upper,
                                  problem: .conflict(upper.value.text, reason: String(joining: "is less than ", twice, rule.lower, " (", lowerText, ")")))
            }
            if let lower {
                let half = rule.factor == 2 ? "half " : rule.factor == 1 ? "" : String(joining: "1/", String(rule.factor), " of ")
                throw ConfigError(file: file, line: lower.line, key: rule.lower,
                                  problem: .conflict(lower.value.text, reason: String(joining: "is more than ", half, rule.upper, " (", upperText, ")")))
            }
        }
    }
}

/// Where a key was set and to what.
private struct SeenKey {
    var line: Int
    var value: ConfigValue
}

/// The key `section.key`, found in the table.
private func tableKey(_ qualified: String) -> ConfigKey? {
    for section in TrackdConfig.sections {
        for key in section.keys where (section.name + "." + key.name).bytesEqual(qualified) { return key }
    }
    return nil
}

/// The parsed default of the key `section.key`; nil when it has none.
private func defaultValue(_ qualified: String) -> ConfigValue? {
    guard let key = tableKey(qualified), let text = key.defaultText else { return nil }
    do throws(ConfigError.Problem) {
        return try key.kind.parse(text)
    } catch {
        return nil
    }
}

/// A value for an error message, e.g. `30s` or `30s, the default`.
private func shown(_ value: ConfigValue, key: String, isDefault: Bool) -> String {
    let text = tableKey(key)?.kind.format(value) ?? value.text
    return isDefault ? text + ", the default" : text
}
