import TrackCore
import TrackIO

/// What a `trackctl` client asked for on the control socket, parsed from its one request line;
/// the daemon applies it and renders the reply (`Daemon+Control.swift`). A request is one of:
///
/// * `status` / `status json`: the live view;
/// * `where` / `where plain`: the current position (`48.117300°N, 11.516700°E, 0.4s ago` /
///   `48.117300,11.516700`);
/// * `mark LABEL`: a waypoint at the current fix (label up to 64 bytes, may be empty);
/// * `privacy`, `privacy allow always|when-in-use`, `deny`, `approximate`, `precise`,
///   `precise --for DURATION` (a number and its unit in one word: `90s`, `30m`, `2h`);
/// * `leds`: the LED lines now; `button short|long`: press the simulated board's button;
/// * `doctor`: the first broken link, and what to do about it; `fence list`;
/// * `receiver info|rate HZ|baud N|sentences LIST|sleep|wake`: receiver control
///   (`ControlRequest+Receiver.swift`).
///
/// Every reply starts with `ok` or `error KIND: message` and ends with an empty line.
enum ControlRequest {
    case status(json: Bool)
    case whereNow(plain: Bool)
    case mark(WaypointLabel)
    /// nil: show the permission.
    case privacy(PermissionRequest?)
    case leds
    case button(GPIOStatus.SimulatedPress)
    case doctor
    case fenceList
    case receiver(ReceiverRequest)
    /// Not a request: the error line to answer with.
    case refused(StaticString)

    static let privacyUsage: StaticString =
        "error usage: privacy [allow always|allow when-in-use|deny|approximate|precise [--for DURATION]]\n"

    /// The request `line` holds; allocates nothing.
    static func parse(_ line: Span<UInt8>) -> ControlRequest {
        var words = Words(line)
        let verb = words.next()
        func word(_ range: Range<Int>?, is literal: StaticString) -> Bool { matches(range, line, literal) }
        if word(verb, is: "status") {
            let argument = words.next()
            if argument == nil { return .status(json: false) }
            return word(argument, is: "json") ? .status(json: true) : .refused("error usage: status [json]\n")
        } else if word(verb, is: "where") {
            return .whereNow(plain: word(words.next(), is: "plain"))
        } else if word(verb, is: "mark") {
            let label = words.rest()
            guard label.count <= 64 else { return .refused("error usage: a label has at most 64 bytes\n") }
            return .mark(WaypointLabel(line.extracting(label)))
        } else if word(verb, is: "privacy") {
            return parsePrivacy(&words, line)
        } else if word(verb, is: "leds") {
            return .leds
        } else if word(verb, is: "button") {
            let argument = words.next()
            if word(argument, is: "short") { return .button(.short) }
            if word(argument, is: "long") { return .button(.long) }
            return .refused("error usage: button short|long\n")
        } else if word(verb, is: "doctor") {
            return .doctor
        } else if word(verb, is: "fence") && word(words.next(), is: "list") {
            return .fenceList
        } else if word(verb, is: "receiver") {
            return parseReceiver(&words, line)
        }
        return .refused("error usage: unknown request (status, where, mark, privacy, leds, button, doctor, fence list, receiver)\n")
    }

    static func parsePrivacy(_ words: inout Words, _ line: Span<UInt8>) -> ControlRequest {
        let verb = words.next()
        let argument = words.next()
        guard let verb else { return .privacy(nil) }
        if matches(argument, line, "--for") {
            // `--for 1 m` must not be read as one second: the unit belongs to the number's word.
            guard matches(verb, line, "precise"), let amount = words.next(), words.next() == nil,
                  let milliseconds = duration(line.extracting(amount)) else {
                return .refused("error usage: precise --for DURATION: a number and its unit in one word, e.g. 90s, 30m or 2h\n")
            }
            return .privacy(.precise(forMilliseconds: milliseconds))
        }
        // Every other form is at most two words: anything more is a typo.
        guard words.next() == nil else { return .refused(privacyUsage) }
        if matches(verb, line, "allow") && matches(argument, line, "always") { return .privacy(.allowAlways) }
        if matches(verb, line, "allow") && matches(argument, line, "when-in-use") { return .privacy(.allowWhenInUse) }
        guard argument == nil else { return .refused(privacyUsage) }
        if matches(verb, line, "deny") { return .privacy(.deny) }
        if matches(verb, line, "approximate") { return .privacy(.approximate) }
        if matches(verb, line, "precise") { return .privacy(.preciseForGood) }
        return .refused(privacyUsage)
    }

    /// `90s`, `30m`, `2h` in milliseconds; nil without a unit, with another unit or when
    /// malformed.
    static func duration(_ text: Span<UInt8>) -> Int64? {
        guard text.count >= 2 else { return nil }
        let unit: Int64
        switch text[text.count - 1] {
        case UInt8(ascii: "s"): unit = 1000
        case UInt8(ascii: "m"): unit = 60_000
        case UInt8(ascii: "h"): unit = 3_600_000
        default: return nil
        }
        var value: Int64 = 0
        for index in 0..<(text.count - 1) {
            let byte = text[index]
            guard byte >= 48 && byte <= 57 && index < 9 else { return nil }
            value = value * 10 + Int64(byte - 48)
        }
        return value * unit
    }

    static func matches(_ word: Range<Int>?, _ request: Span<UInt8>, _ literal: StaticString) -> Bool {
        guard let word, word.count == literal.utf8CodeUnitCount else { return false }
        let start = literal.utf8Start
        for offset in 0..<word.count where request[word.lowerBound + offset] != start[offset] { return false }
        return true
    }
}

/// Splits a request line at spaces without allocating. Words are looked for in the first
/// 64 bytes (verbs and options); a `mark` label may run to the end of the line.
struct Words {
    let count: Int
    let spaces: UInt64
    var position = 0

    init(_ request: Span<UInt8>) {
        count = request.count
        var spaces: UInt64 = 0
        for index in 0..<min(request.count, 64) where request[index] == UInt8(ascii: " ") {
            spaces |= 1 << UInt64(index)
        }
        self.spaces = spaces
    }

    func isSpace(_ index: Int) -> Bool { index < 64 && spaces & (1 << UInt64(index)) != 0 }

    mutating func next() -> Range<Int>? {
        while position < count && isSpace(position) { position += 1 }
        guard position < count else { return nil }
        let start = position
        while position < count && !isSpace(position) { position += 1 }
        return start..<position
    }

    /// Everything after the current word, less one separating space.
    mutating func rest() -> Range<Int> {
        if position < count && isSpace(position) { position += 1 }
        return position..<count
    }
}

/// A waypoint label of at most 64 bytes, held without the heap.
struct WaypointLabel {
    var bytes: InlineArray<64, UInt8> = InlineArray(repeating: 0)
    var count = 0

    init() {}

    /// The first 64 bytes of `span`.
    init(_ span: Span<UInt8>) {
        for index in 0..<min(span.count, 64) { bytes[index] = span[index] }
        count = min(span.count, 64)
    }

    /// A label from a literal, e.g. `button` for waypoints marked with the button.
    init(static text: StaticString) {
        self.init()
        text.withUTF8Buffer { bytes in
            for index in 0..<min(bytes.count, 64) { self.bytes[index] = bytes[index] }
            count = min(bytes.count, 64)
        }
    }

    func write(to line: inout TextBuffer) {
        for index in 0..<count { line.append(bytes[index]) }
    }
}

extension LogLabel {
    /// The log's label of a waypoint: the first `LogLabel.capacity` bytes of `label`.
    init(_ label: WaypointLabel) {
        self.init()
        for index in 0..<min(label.count, LogLabel.capacity) { _ = append(label.bytes[index]) }
    }
}
