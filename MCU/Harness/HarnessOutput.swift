import TrackCore

/// Where the harness's lines go: semihosting on a microcontroller, standard output on the host.
/// One call per line, e.g. `fix 3 {"class":"TPV",…}`.
public protocol HarnessOutput {
    /// Writes the line in `line` and a newline, then empties `line` for the next one.
    mutating func emit(_ line: inout TextBuffer)
}

extension HarnessOutput {
    /// Writes a literal line through `line` (which must be empty), e.g. `log: the log buffer is full`.
    mutating func emit(_ text: StaticString, using line: inout TextBuffer) {
        line.append(text)
        emit(&line)
    }
}
