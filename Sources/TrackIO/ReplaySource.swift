import CLinux
import TrackCore

/// A recorded NMEA capture played back as if a receiver sent it, e.g. one of gpsd's `.log`
/// files, as fast as possible or paced in receiver time.
///
/// Lines starting with `#` (capture headers) and empty lines are skipped; everything else is
/// passed on unchanged, garbage included, so the receiver core sees what the receiver sent.
/// Paced replay releases one epoch (the lines up to a UTC time that differs by more than 10 ms,
/// as the epoch assembler counts them) and then waits, through `nextDeadline`, until the next
/// epoch's time difference divided by the speed factor has passed. A step back in time or a
/// jump over `maximumGapMilliseconds` (a capture spliced from sessions) is replayed as 1 s.
/// The file is read in chunks into one buffer allocated at the first open; nothing is allocated
/// per line. After the last line `read` throws `.endOfInput`.
public struct ReplaySource: ReceiverSource, ~Copyable {
    /// How fast lines are released.
    public enum Pacing: Equatable, Sendable {
        /// Every line as soon as the loop asks.
        case asFastAsPossible
        /// Epochs at the pace of their UTC times divided by `speedFactor`: 1 is real time,
        /// 10 ten times faster.
        case receiverTime(speedFactor: Double)
    }

    /// The capture's path.
    public let path: String
    /// How fast lines are released.
    public let pacing: Pacing
    /// Longest time step replayed as is, in milliseconds (default 10 s).
    public var maximumGapMilliseconds: Int64 = 10_000
    let capacity: Int
    var storage: UnsafeMutableRawBufferPointer?
    var file: FileDescriptor?
    /// The unread bytes in `storage`.
    var start = 0
    var end = 0
    var atEndOfFile = false
    /// Every line was handed out.
    var ended = false
    /// Bytes of the current line still to hand out.
    var lineRemaining = 0
    /// The current epoch's UTC time of day, in milliseconds.
    var epochTime: Int64?
    /// When the next epoch may be released.
    var due = MonotonicTime(nanoseconds: 0)
    var opens = 0
    var lastError: SourceError?

    /// A replay of `path`, reading `chunkBytes` at a time (default 64 KiB; also the longest line
    /// handled as one line).
    public init(path: String, pacing: Pacing = .asFastAsPossible, chunkBytes: Int = 65_536) {
        self.path = path
        self.pacing = pacing
        capacity = max(chunkBytes, 256)
    }

    deinit {
        if let file { try? file.close() }
        storage?.deallocate()
    }

    /// Opens the capture at its first line.
    public mutating func open(now: MonotonicTime) throws(SourceError) {
        guard file == nil else { return }
        do {
            file = try FileDescriptor.openForReading(path)
        } catch {
            lastError = .open(path: path, error)
            throw .open(path: path, error)
        }
        if storage == nil {
            storage = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 16)
        }
        opens += 1
        start = 0
        end = 0
        atEndOfFile = false
        ended = false
        lineRemaining = 0
        epochTime = nil
        due = now
    }

    /// Always nil: a file is always readable, so the replay runs on `nextDeadline`.
    public var descriptor: FileDescriptor? { nil }

    /// When the next epoch is released (as fast as possible: already passed); nil once closed.
    public func nextDeadline() -> MonotonicTime? {
        file == nil ? nil : due
    }

    /// Copies the lines due at `now` into `buffer`; 0 when the next epoch is not due yet.
    /// Throws `.endOfInput` once every line was handed out.
    public mutating func read(into buffer: UnsafeMutableRawBufferPointer, now: MonotonicTime) throws(SourceError) -> Int {
        if ended { throw .endOfInput(path: path) }
        guard let storage, file != nil else { return 0 }
        guard now >= due else { return 0 }
        var copied = 0
        while copied < buffer.count {
            if lineRemaining > 0 {
                let count = min(lineRemaining, buffer.count - copied)
                UnsafeMutableRawBufferPointer(rebasing: buffer[copied..<(copied + count)])
                    .copyMemory(from: UnsafeRawBufferPointer(rebasing: storage[start..<(start + count)]))
                copied += count
                start += count
                lineRemaining -= count
                continue
            }
            guard let lineEnd = try nextLineEnd() else {
                close()
                ended = true
                lastError = .endOfInput(path: path)
                if copied > 0 { return copied }
                throw .endOfInput(path: path)
            }
            let first = storage[start]
            if first == UInt8(ascii: "#") || first == 0x0A || first == 0x0D {
                start = lineEnd
                continue
            }
            if case .receiverTime(let speed) = pacing, let time = Self.epochTime(of: storage[start..<lineEnd]) {
                if let current = epochTime, abs(time - current) > 10 {
                    epochTime = time
                    due = due.adding(nanoseconds: gapNanoseconds(from: current, to: time, speed: speed))
                    if now < due { return copied }
                } else if epochTime == nil {
                    epochTime = time
                }
            }
            lineRemaining = lineEnd - start
        }
        return copied
    }

    /// The index one past the next line's newline in `storage`, reading more of the file as
    /// needed; nil at the end of the capture. A line longer than the buffer is cut into
    /// buffer-sized pieces; a last line without a newline gets one.
    mutating func nextLineEnd() throws(SourceError) -> Int? {
        guard let storage else { return nil }
        var scanned = start
        while true {
            while scanned < end {
                if storage[scanned] == 0x0A { return scanned + 1 }
                scanned += 1
            }
            if atEndOfFile {
                guard start < end else { return nil }
                if end < capacity {
                    storage[end] = 0x0A
                    end += 1
                }
                return end
            }
            if start == 0 && end == capacity { return end }
            // Move the partial line to the front and fill the rest.
            if start > 0 {
                let partial = end - start
                UnsafeMutableRawBufferPointer(rebasing: storage[0..<partial])
                    .copyMemory(from: UnsafeRawBufferPointer(rebasing: storage[start..<end]))
                scanned -= start
                start = 0
                end = partial
            }
            guard let file else { return nil }
            let count: Int
            do {
                count = try file.read(into: UnsafeMutableRawBufferPointer(rebasing: storage[end..<capacity]))
            } catch {
                let failure = SourceError.read(path: path, error)
                close()
                lastError = failure
                throw failure
            }
            if count == 0 { atEndOfFile = true }
            end += count
        }
    }

    /// How long to wait between epochs at `current` and `next` (milliseconds of the day).
    func gapNanoseconds(from current: Int64, to next: Int64, speed: Double) -> Int64 {
        var gap = next - current
        // Past midnight: 23:59:59 → 00:00:00.
        if gap < -43_200_000 { gap += 86_400_000 }
        if gap <= 0 || gap > maximumGapMilliseconds { gap = 1000 }
        guard speed > 0 else { return 0 }
        return Int64(Double(gap) * 1_000_000 / speed)
    }

    /// The UTC time of day (ms) a line stamps its epoch with: RMC, GGA, GNS, ZDA (field 1) and
    /// GLL (field 5) with a valid checksum; nil for anything else.
    static func epochTime(of line: Slice<UnsafeMutableRawBufferPointer>) -> Int64? {
        var framer = NMEAFramer()
        for byte in line where framer.consume(byte) == .sentence {
            var sentence = framer.sentence
            let field: Int
            switch sentence.type {
            case .rmc, .gga, .gns, .zda: field = 1
            case .gll: field = 5
            default: return nil
            }
            guard let time = try? sentence.time(field) else { return nil }
            return Int64(time.millisecondsSinceMidnight)
        }
        return nil
    }

    /// Nothing to learn: the capture is what it is.
    public mutating func observe(acceptedSentences: Int, rejectedSentences: Int, now: MonotonicTime) {}

    /// The capture's path, open state, opens and the last failure (`.endOfInput` at the end).
    public var status: SourceStatus {
        SourceStatus(path: path, baud: nil, isOpen: file != nil, opens: opens, lastError: lastError)
    }

    /// Closes the capture.
    /// A replay reads its file: the serial settings of a reload do not apply.
    public mutating func reconfigure(_ configuration: SerialPort.Configuration) -> Bool { false }

    public mutating func close() {
        if let file { try? file.close() }
        file = nil
    }
}
