import TrackIO

/// Where a live view (`trackctl status --watch`, `leds --watch`) shows its frames. On a
/// terminal: redrawn in place by `TerminalFrame`, fitted to the terminal's size (read again
/// for every frame and at once on SIGWINCH), the cursor hidden while it runs and shown again
/// when the view ends, whether by `q`, Ctrl-C, SIGTERM or a hang-up. Anywhere else (a pipe, a
/// file): nothing but the frames' plain lines, a frame only when it differs from the one before,
/// an empty line between text frames; a reader that goes away (`| head`) ends the view quietly.
///
/// Example:
///
///     var view = try LiveView(separated: true)       // throws(Errno): the signalfd
///     while view.show(fetchStatus()) {                // false once the output is gone
///         if case .stop = view.wait(milliseconds: 1000) { break }
///     }                                               // the terminal restored here
struct LiveView: ~Copyable {
    private let signals: ViewSignals
    private var keyboard: KeyboardInput
    private let terminal: Bool
    private let separated: Bool
    private var frame = TerminalFrame()
    private var last: String?
    private var open = true

    /// Used when the terminal does not know its size (a serial console says 0 × 0).
    static let fallbackSize = TerminalSize(columns: 80, rows: 24)

    /// Takes over standard output (and the keyboard on standard input, when it is a terminal).
    /// `separated`: plain frames are parted by an empty line (text; not JSON lines).
    init(separated: Bool) throws(Errno) {
        signals = try ViewSignals()
        keyboard = KeyboardInput()
        terminal = TerminalSize.isTerminal(.standardOutput)
        self.separated = separated
        if terminal { open = write(TerminalFrame.hideCursor) }
    }

    deinit {
        if terminal, open { _ = write(frame.leave()) }
    }

    /// Shows `text` as the current frame; false once the output is closed (the view should end).
    mutating func show(_ text: String) -> Bool {
        guard open else { return false }
        defer { last = text }
        if terminal {
            let size = TerminalSize.of(.standardOutput) ?? Self.fallbackSize
            open = write(frame.draw(text, size: size))
            return open
        }
        guard text != last else { return true }
        let separator = last != nil && separated ? "\n" : ""
        open = write(separator + text + (text.hasSuffix("\n") || text.isEmpty ? "" : "\n"))
        return open
    }

    /// Waits up to `milliseconds` for a key, a signal or the time; a resize redraws the last
    /// frame at the new size before it returns.
    mutating func wait(milliseconds: Int32) -> KeyboardInput.Event {
        let event = keyboard.wait(milliseconds: milliseconds, signals: signals)
        if case .resize = event, let last, !show(last) { return .stop }
        return event
    }

    /// Writes `text` to standard output; false when it failed (EPIPE: the reader went away;
    /// EIO: the terminal did).
    private func write(_ text: String) -> Bool {
        do throws(Errno) {
            try FileDescriptor.standardOutput.writeAll(text)
            return true
        } catch {
            return false
        }
    }
}
