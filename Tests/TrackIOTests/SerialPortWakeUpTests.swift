import CLinux
import Testing
import TrackCore
@testable import TrackIO

/// Wake-ups per receiver epoch, on a real pty with injected time: the test plays the UART,
/// handing the bytes of each epoch to the tty in 16-byte pieces at the line rate (as a UART's
/// FIFO interrupts do), and the loop wakes when the port's descriptor would be readable or its
/// deadline has come.
@Suite struct SerialPortWakeUpTests {
    /// Ten sentences, 561 bytes: the epoch of the termios notes and `scripts/bench wakeups`.
    static let epoch = [
        "GPRMC,123519.00,A,4807.038,N,01131.324,E,022.4,084.4,230394,003.1,W,A",
        "GPVTG,084.4,T,,M,022.4,N,041.5,K,A",
        "GPGGA,123519.00,4807.038,N,01131.324,E,1,08,0.9,545.4,M,46.9,M,,",
        "GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1",
        "GPGSV,3,1,11,03,03,111,00,04,15,270,00,06,01,010,00,13,06,292,00",
        "GPGSV,3,2,11,14,25,170,00,16,57,208,39,18,67,296,40,19,40,246,00",
        "GPGSV,3,3,11,22,42,067,42,24,14,311,43,27,05,244,00,,,,",
        "GPGLL,4807.038,N,01131.324,E,123519.00,A,A",
        "GPZDA,123519.00,23,03,1994,00,00",
        "GPGST,123519.00,1.2,,,,0.8,0.9,1.5",
    ].map(sentence).joined()

    struct Piece {
        var arrival: MonotonicTime
        var bytes: ArraySlice<UInt8>
    }

    /// The pieces of `epochs` epochs, one per second, queued behind each other on the line.
    static func pieces(baud: Int, epochs: Int) -> [Piece] {
        let bytes = Array(epoch.utf8)
        var result: [Piece] = []
        var lineFree: Int64 = 0
        for index in 0..<epochs {
            lineFree = max(lineFree, Int64(index) * 1_000_000_000)
            for start in stride(from: 0, to: bytes.count, by: 16) {
                let end = min(start + 16, bytes.count)
                lineFree += Int64(end - start) * 10 * 1_000_000_000 / Int64(baud)
                result.append(Piece(arrival: .at(0).adding(nanoseconds: lineFree), bytes: bytes[start..<end]))
            }
        }
        return result
    }

    /// Runs the loop until every byte is read; returns the wake-ups.
    static func wakeUps(baud: Int, epochs: Int, coalescingBytes: Int = 800) throws -> Int {
        let terminal = try PseudoTerminal()
        var port = SerialPort(.init(path: terminal.slavePath, baud: baud, coalescingBytes: coalescingBytes))
        try port.open(now: .at(0))
        let opened = fileOf(port)
        let file = try #require(opened)
        let pieces = pieces(baud: baud, epochs: epochs)
        let total = pieces.reduce(0) { $0 + $1.bytes.count }
        var written = 0
        var writtenBytes = 0
        var delivered = 0
        var wakes = 0
        var now = MonotonicTime.at(0)
        while delivered < total && wakes < 10_000 {
            var wake = port.nextDeadline()
            if port.descriptor != nil {
                let input = writtenBytes > delivered ? now : pieces[written].arrival
                wake = min(wake ?? input, input)
            }
            now = max(now, try #require(wake))
            while written < pieces.count && pieces[written].arrival <= now {
                try write(Array(pieces[written].bytes), to: terminal.master)
                writtenBytes += pieces[written].bytes.count
                written += 1
            }
            waitForQueued(writtenBytes - delivered, on: file)
            wakes += 1
            delivered += try readBytes(&port, now: now).count
        }
        #expect(delivered == total)
        return wakes
    }

    @Test(arguments: [4800, 9600, 19200, 38400, 57600, 115200, 230400])
    func aReceiverEpochCostsAtMostThreeWakeUps(baud: Int) throws {
        let epochs = 10
        let wakes = try Self.wakeUps(baud: baud, epochs: epochs)
        #expect(wakes <= 3 * epochs, "\(wakes) wake-ups for \(epochs) epochs at \(baud) baud")
    }

    @Test func withoutCoalescingEveryPieceIsAWakeUp() throws {
        let wakes = try Self.wakeUps(baud: 9600, epochs: 3, coalescingBytes: 0)
        #expect(wakes == 3 * 36)
    }
}

func fileOf(_ port: borrowing SerialPort) -> FileDescriptor? { port.file }
