import TrackCore

/// Where the harness's lines go: semihosting on a microcontroller, standard output on the host.
/// One call per line, the line's bytes without the newline, e.g. `fix 3 {"class":"TPV",…}`.
public protocol HarnessOutput {
    /// Writes `line` and a newline.
    mutating func emit(_ line: inout TextBuffer)
}

extension HarnessOutput {
    /// Writes a literal line, e.g. `emit("log read back")`.
    mutating func emit(_ text: StaticString) {
        var line = TextBuffer()
        line.append(text)
        emit(&line)
    }
}
