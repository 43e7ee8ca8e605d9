import TrackCore
import TrackIO

/// The sources `trackd` itself runs on, as one type so the daemon is compiled once: a UART
/// (`SerialPort`) or a capture replayed in receiver time (`--replay`). Each call goes to the
/// one it holds. Tests give the daemon a source of their own instead.
enum TrackdSource: ReceiverSource, ~Copyable {
    case serial(SerialPort)
    case replay(ReplaySource)

    mutating func open(now: MonotonicTime) throws(SourceError) {
        switch consume self {
        case .serial(var port):
            do { try port.open(now: now) } catch { self = .serial(port); throw error }
            self = .serial(port)
        case .replay(var replay):
            do { try replay.open(now: now) } catch { self = .replay(replay); throw error }
            self = .replay(replay)
        }
    }

    var descriptor: FileDescriptor? {
        switch self {
        case .serial(let port): port.descriptor
        case .replay(let replay): replay.descriptor
        }
    }

    func nextDeadline() -> MonotonicTime? {
        switch self {
        case .serial(let port): port.nextDeadline()
        case .replay(let replay): replay.nextDeadline()
        }
    }

    mutating func read(into buffer: UnsafeMutableRawBufferPointer, now: MonotonicTime) throws(SourceError) -> Int {
        switch consume self {
        case .serial(var port):
            let count: Int
            do { count = try port.read(into: buffer, now: now) } catch { self = .serial(port); throw error }
            self = .serial(port)
            return count
        case .replay(var replay):
            let count: Int
            do { count = try replay.read(into: buffer, now: now) } catch { self = .replay(replay); throw error }
            self = .replay(replay)
            return count
        }
    }

    mutating func observe(acceptedSentences: Int, rejectedSentences: Int, now: MonotonicTime) {
        switch consume self {
        case .serial(var port):
            port.observe(acceptedSentences: acceptedSentences, rejectedSentences: rejectedSentences, now: now)
            self = .serial(port)
        case .replay(var replay):
            replay.observe(acceptedSentences: acceptedSentences, rejectedSentences: rejectedSentences, now: now)
            self = .replay(replay)
        }
    }

    var status: SourceStatus {
        switch self {
        case .serial(let port): port.status
        case .replay(let replay): replay.status
        }
    }

    mutating func close() {
        switch consume self {
        case .serial(var port):
            port.close()
            self = .serial(port)
        case .replay(var replay):
            replay.close()
            self = .replay(replay)
        }
    }

    mutating func reconfigure(_ configuration: SerialPort.Configuration) -> Bool {
        switch consume self {
        case .serial(var port):
            let changed = port.reconfigure(configuration)
            self = .serial(port)
            return changed
        case .replay(let replay):
            self = .replay(replay)
            return false
        }
    }

    var takesCommands: Bool {
        switch self {
        case .serial: true
        case .replay: false
        }
    }

    mutating func write(_ bytes: UnsafeRawBufferPointer, now: MonotonicTime) -> Bool {
        switch consume self {
        case .serial(var port):
            let taken = port.write(bytes, now: now)
            self = .serial(port)
            return taken
        case .replay(let replay):
            self = .replay(replay)
            return true
        }
    }

    mutating func follow(baud: Int, now: MonotonicTime) {
        switch consume self {
        case .serial(var port):
            port.follow(baud: baud, now: now)
            self = .serial(port)
        case .replay(let replay):
            self = .replay(replay)
        }
    }
}
