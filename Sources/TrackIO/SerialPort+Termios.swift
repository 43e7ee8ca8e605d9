import CLinux

// How the port is set up, and what VMIN/VTIME really do to wake-ups on Linux.
//
// The port runs raw 8N1: no echo, no canonical lines, no CR/LF translation, no XON/XOFF and no
// RTS/CTS flow control (receivers do not use them), CLOCAL so a missing DCD never blocks or hangs
// up the line, CREAD to receive at all.
//
// VMIN = 1, VTIME = 0, and the descriptor stays O_NONBLOCK. Measured on a pty (Linux 6.x, an
// epoch of ten sentences, 561 bytes, delivered in 16-byte pieces at the line rate, as a UART's
// FIFO interrupts hand bytes to the tty layer; `scripts/bench wakeups`, figures in
// docs/benchmarks.md):
//
// * VMIN = 1: poll wakes once per piece the driver delivers, 36 times per epoch at 9600 baud.
// * VTIME > 0 does not change poll at all: poll reports input as soon as one byte is there.
// * VTIME = 0 and VMIN = N make poll wait for N bytes, but a tail shorter than N then waits for
//   the next epoch's bytes, and since Linux 5.11 (tty reads go through a 64-byte kernel buffer)
//   a read returns at most 64 bytes whenever VMIN > 64: VMIN = 255 gave 8 wake-ups per epoch
//   and left the last epoch's tail unread.
// * Clearing O_NONBLOCK and letting VMIN = 255, VTIME = 1 batch inside read(): for the same
//   64-byte reason each read returns after 64 bytes, 9 wake-ups per epoch, and each read blocks
//   the loop (up to 140 ms at 9600 baud), stalling LEDs and the button.
//
// So VMIN/VTIME cannot bound wake-ups in a poll loop; the port coalesces instead (see
// `SerialPort+Coalescing.swift`): after the first readable event it stops polling the
// descriptor for about the time an epoch takes on the line, then reads everything at once:
// 2 wake-ups per epoch from 9600 to 230400 baud on the same pty, 1.4 at 4800 (the line is
// almost never idle there, and the window is capped at 1 s).
//
// VMIN = 1 has one more job: with VMIN = 0 and VTIME = 0 a read with nothing waiting returns 0,
// which could not be told from a hang-up; with VMIN = 1 "nothing yet" is EAGAIN and 0 means the
// device went away.
extension SerialPort {
    /// Baud rates the port can be set to.
    public static let supportedBaudRates = [1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600]

    /// termios speed constant for `baud`, nil when not supported.
    static func speedConstant(baud: Int) -> speed_t? {
        switch baud {
        case 1200: speed_t(B1200)
        case 2400: speed_t(B2400)
        case 4800: speed_t(B4800)
        case 9600: speed_t(B9600)
        case 19200: speed_t(B19200)
        case 38400: speed_t(B38400)
        case 57600: speed_t(B57600)
        case 115200: speed_t(B115200)
        case 230400: speed_t(B230400)
        case 460800: speed_t(B460800)
        case 921600: speed_t(B921600)
        default: nil
        }
    }

    /// Makes `descriptor` a raw 8N1 line at `baud`, VMIN 1, VTIME 0; fails with EINVAL when the
    /// driver does not take the rate.
    static func configureRaw(_ descriptor: FileDescriptor, baud: Int) throws(Errno) {
        guard let speed = speedConstant(baud: baud) else { throw Errno(rawValue: EINVAL) }
        var settings = termios()
        _ = try syscall { tcgetattr(descriptor.rawValue, &settings) }
        cfmakeraw(&settings)
        settings.c_iflag &= ~tcflag_t(IXON | IXOFF | IXANY | INPCK)
        settings.c_cflag &= ~tcflag_t(truncatingIfNeeded: Int(CSIZE | PARENB | CSTOPB) | Int(CRTSCTS))
        settings.c_cflag |= tcflag_t(CS8 | CLOCAL | CREAD)
        clinux_termios_set_cc(&settings, VMIN, 1)
        clinux_termios_set_cc(&settings, VTIME, 0)
        try apply(&settings, speed: speed, to: descriptor)
        // Nothing received before now belongs to this configuration.
        _ = try syscall { tcflush(descriptor.rawValue, TCIFLUSH) }
    }

    /// Changes only the rate (auto-baud's next try) and drops the bytes received at the old one.
    static func setSpeed(_ descriptor: FileDescriptor, baud: Int) throws(Errno) {
        guard let speed = speedConstant(baud: baud) else { throw Errno(rawValue: EINVAL) }
        var settings = termios()
        _ = try syscall { tcgetattr(descriptor.rawValue, &settings) }
        try apply(&settings, speed: speed, to: descriptor)
        _ = try syscall { tcflush(descriptor.rawValue, TCIFLUSH) }
    }

    static func apply(_ settings: inout termios, speed: speed_t, to descriptor: FileDescriptor) throws(Errno) {
        _ = try syscall { cfsetispeed(&settings, speed) }
        _ = try syscall { cfsetospeed(&settings, speed) }
        _ = try syscall { tcsetattr(descriptor.rawValue, TCSANOW, &settings) }
        // tcsetattr succeeds when any one change took: read back to be sure the rate did.
        var applied = termios()
        _ = try syscall { tcgetattr(descriptor.rawValue, &applied) }
        guard cfgetispeed(&applied) == speed else { throw Errno(rawValue: EINVAL) }
    }

    /// The input rate `descriptor` is set to, in baud (tests and diagnostics); nil when the
    /// constant is not one of `supportedBaudRates`.
    static func currentBaud(of descriptor: FileDescriptor) throws(Errno) -> Int? {
        var settings = termios()
        _ = try syscall { tcgetattr(descriptor.rawValue, &settings) }
        let speed = cfgetispeed(&settings)
        return supportedBaudRates.first { speedConstant(baud: $0) == speed }
    }
}
