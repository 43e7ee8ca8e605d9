import CLinux
import TrackCore

extension SerialPort {
    /// A UART is where receiver control writes its commands.
    public var takesCommands: Bool { true }

    /// Queues `bytes` and writes what the line takes now (a non-blocking write); the rest goes
    /// out at the next `read` or `write`. False, taking nothing, while closed or when the
    /// queue (256 bytes: more than two commands) has no room for all of it.
    public mutating func write(_ bytes: UnsafeRawBufferPointer, now: MonotonicTime) -> Bool {
        guard let file, output.append(bytes) else { return false }
        output.flush(file, now: now)
        return true
    }

    /// Moves the line to `baud` at once (the receiver was told to change to it). With
    /// auto-baud the rate is tried first and the search goes back to the old one when nothing
    /// checksummed comes at it; with a configured rate it is used from now on, reopens
    /// included, until a reload.
    public mutating func follow(baud rate: Int, now: MonotonicTime) {
        guard file != nil, rate != baud, Self.speedConstant(baud: rate) != nil else { return }
        if autoBaud != nil {
            autoBaud?.follow(rate, now: now)
        } else {
            followedBaud = rate
        }
        switchRate(now: now)
    }

    /// Bytes for the receiver that the line has not taken yet, in a fixed buffer.
    struct OutputQueue: Sendable {
        /// Bytes held at most.
        static var capacity: Int { 256 }
        var storage: InlineArray<256, UInt8> = InlineArray(repeating: 0)
        private(set) var count = 0
        /// When to try again after the line took only part (10 ms later); nil when empty.
        private(set) var retryAt: MonotonicTime?
        /// Bytes dropped because the line failed (the next read reports the failure).
        private(set) var dropped = 0

        var isEmpty: Bool { count == 0 }

        /// Appends all of `bytes`, or nothing when they do not fit.
        mutating func append(_ bytes: UnsafeRawBufferPointer) -> Bool {
            guard count + bytes.count <= Self.capacity else { return false }
            for index in 0..<bytes.count { storage[count + index] = bytes[index] }
            count += bytes.count
            return true
        }

        /// Writes what `file` takes now; keeps the rest in order.
        mutating func flush(_ file: FileDescriptor, now: MonotonicTime) {
            guard count > 0 else { return }
            let total = count
            let written: Int
            do {
                written = try storage.span.withUnsafeBytes { (raw) throws(Errno) -> Int in
                    try file.writeAvailable(UnsafeRawBufferPointer(rebasing: raw[0..<total]))
                }
            } catch {
                dropped += count
                clear()
                return
            }
            for index in written..<count { storage[index - written] = storage[index] }
            count -= written
            retryAt = count > 0 ? now.adding(milliseconds: 10) : nil
        }

        /// Forgets what is held (the port closed).
        mutating func clear() {
            count = 0
            retryAt = nil
        }
    }
}
