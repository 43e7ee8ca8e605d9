import CLinux
import Foundation
import TestData
import Testing
import TrackCore
@testable import TrackIO

@Suite struct SerialPortTests {
    static let epoch = [
        sentence("GPRMC,123519.00,A,4807.03800,N,01131.32400,E,0.000,,010524,,,A"),
        sentence("GPGGA,123519.00,4807.03800,N,01131.32400,E,1,08,0.90,545.4,M,47.0,M,,"),
        sentence("GPGSA,A,3,04,05,,09,12,,,24,,,,,2.50,1.30,2.10"),
    ].joined()

    @Test func readsWhatTheReceiverSendsAsOneBurst() throws {
        let terminal = try PseudoTerminal()
        var port = SerialPort(.init(path: terminal.slavePath, baud: 9600))
        try port.open(now: .at(0))
        let status = port.status
        #expect(status == SourceStatus(path: terminal.slavePath, baud: 9600, isOpen: true, opens: 1))
        let opened = descriptorOf(port)
        let descriptor = try #require(opened)

        let bytes = Array(Self.epoch.utf8)
        try write(bytes, to: terminal.master)
        waitForQueued(bytes.count, on: descriptor)
        // The first readable event reads what is there and holds off for the burst: 800 bytes
        // at 9600 baud take 833 ms.
        var received = try readBytes(&port, now: .at(0))
        #expect(value(port).descriptor == nil)
        let window = MonotonicTime.at(0).adding(nanoseconds: 833_333_333)
        #expect(value(port).nextDeadline() == window)
        #expect(try readBytes(&port, now: .at(500)).isEmpty)
        received += try readBytes(&port, now: window)
        #expect(received == bytes)
        // The line carried far less than it could: the burst is over, poll again.
        #expect(value(port).descriptor == descriptor)
        #expect(value(port).nextDeadline() == nil)
    }

    @Test(arguments: [4800, 9600, 115200, 230400])
    func setsTheLineRawAtTheRate(baud: Int) throws {
        let terminal = try PseudoTerminal()
        var port = SerialPort(.init(path: terminal.slavePath, baud: baud))
        try port.open(now: .at(0))
        // termios belongs to the tty, so the pair's own slave descriptor shows the port's settings.
        #expect(try SerialPort.currentBaud(of: terminal.slave) == baud)
        var settings = termios()
        #expect(tcgetattr(terminal.slave.rawValue, &settings) == 0)
        #expect(settings.c_lflag & tcflag_t(ECHO | ICANON | ISIG) == 0)
        #expect(settings.c_iflag & tcflag_t(IXON | IXOFF | ICRNL) == 0)
        #expect(settings.c_cflag & tcflag_t(CSIZE) == tcflag_t(CS8))
        #expect(settings.c_cflag & tcflag_t(CLOCAL | CREAD) == tcflag_t(CLOCAL | CREAD))
        #expect(settings.c_cflag & tcflag_t(PARENB | CSTOPB) == 0)
        #expect(clinux_termios_cc(&settings, VMIN) == 1)
        #expect(clinux_termios_cc(&settings, VTIME) == 0)
    }

    @Test func anUnsupportedRateIsAConfigurationError() throws {
        let terminal = try PseudoTerminal()
        var port = SerialPort(.init(path: terminal.slavePath, baud: 1234))
        #expect(throws: SourceError.configure(path: terminal.slavePath, Errno(rawValue: EINVAL))) {
            try port.open(now: .at(0))
        }
        #expect(!value(port).status.isOpen)
        #expect(value(port).nextDeadline() == .at(1000))
    }

    @Test func autoBaudMovesOnAfterSilenceOrGarbageAndKeepsARateThatWorks() throws {
        let terminal = try PseudoTerminal()
        var port = SerialPort(.init(path: terminal.slavePath, baud: nil))
        try port.open(now: .at(0))
        #expect(value(port).baud == 9600)
        #expect(value(port).isSearchingBaud)
        #expect(value(port).nextDeadline() == .at(2500))

        // Silence: at the deadline a read finds nothing and the next rate is set on the tty.
        #expect(try readBytes(&port, now: .at(2500)).isEmpty)
        #expect(value(port).baud == 38400)
        #expect(try SerialPort.currentBaud(of: terminal.slave) == 38400)
        #expect(value(port).nextDeadline() == .at(5000))

        // Garbage: rejected sentences only.
        port.observe(acceptedSentences: 0, rejectedSentences: 3, now: .at(4000))
        #expect(value(port).baud == 38400)
        port.observe(acceptedSentences: 0, rejectedSentences: 7, now: .at(5000))
        #expect(value(port).baud == 115200)

        // One sentence is not yet proof: the rate gets another window; two lock it.
        port.observe(acceptedSentences: 1, rejectedSentences: 7, now: .at(7500))
        #expect(value(port).baud == 115200)
        #expect(value(port).nextDeadline() == .at(10_000))
        port.observe(acceptedSentences: 2, rejectedSentences: 7, now: .at(8000))
        #expect(!value(port).isSearchingBaud)
        #expect(value(port).nextDeadline() == nil)

        // A silent receiver keeps the rate; one switched to another rate (only rejects) does not.
        port.observe(acceptedSentences: 40, rejectedSentences: 7, now: .at(48_000))
        port.observe(acceptedSentences: 40, rejectedSentences: 7, now: .at(90_000))
        #expect(value(port).baud == 115200)
        port.observe(acceptedSentences: 40, rejectedSentences: 12, now: .at(92_000))
        #expect(value(port).baud == 4800)
        #expect(value(port).isSearchingBaud)
        #expect(try SerialPort.currentBaud(of: terminal.slave) == 4800)
    }

    @Test func autoBaudTriesTheRatesInOrderAndStartsOver() {
        var search = SerialPort.AutoBaud(windowNanoseconds: 2_500_000_000)
        search.restart(now: .at(0))
        var rates = [search.baud]
        for step in 1...7 where search.tick(now: .at(Int64(step) * 2500)) {
            rates.append(search.baud)
        }
        #expect(rates == [9600, 38400, 115200, 4800, 19200, 57600, 230400, 9600])
    }

    @Test func reopensWithBackoffAfterTheDeviceGoesAway() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let link = folder.file("gps0")
        var terminal: PseudoTerminal? = try PseudoTerminal(linkPath: link)
        var port = SerialPort(.init(
            path: link, baud: 9600, reopenMinimumMilliseconds: 1000, reopenMaximumMilliseconds: 4000))
        try port.open(now: .at(0))
        let opened = descriptorOf(port)
        let descriptor = try #require(opened)

        // Unplugged: the master goes away, the port reads EOF.
        terminal = nil
        #expect(waitReadable(descriptor))
        #expect(throws: SourceError.disconnected(path: link)) { _ = try readBytes(&port, now: .at(100)) }
        #expect(value(port).status.isOpen == false)
        #expect(value(port).status.lastError == .disconnected(path: link))
        #expect(value(port).descriptor == nil)

        // Still gone: 1 s, 2 s, 4 s, then at most 4 s between tries.
        var now = Int64(100)
        for delay: Int64 in [1000, 2000, 4000, 4000] {
            #expect(value(port).nextDeadline() == .at(now + delay))
            now += delay
            #expect(throws: SourceError.open(path: link, .noSuchFile)) { try port.open(now: .at(now)) }
        }

        // Plugged in again (a new pty behind the same link): it opens, and once bytes flow the
        // next failure waits the minimum again.
        terminal = try PseudoTerminal(linkPath: link)
        #expect(value(port).nextDeadline() == .at(now + 4000))
        now += 4000
        try port.open(now: .at(now))
        #expect(value(port).status.opens == 2)
        let bytes = Array(Self.epoch.utf8)
        if let master = masterOf(terminal) { try write(bytes, to: master) }
        let reopenedDescriptor = descriptorOf(port)
        let reopened = try #require(reopenedDescriptor)
        waitForQueued(bytes.count, on: reopened)
        #expect(try readBytes(&port, now: .at(now)) == bytes)
        terminal = nil
        #expect(waitReadable(reopened))
        now += 2000
        #expect(throws: SourceError.disconnected(path: link)) { _ = try readBytes(&port, now: .at(now)) }
        #expect(value(port).nextDeadline() == .at(now + 1000))
    }

    @Test func theOwnerHasThePortToItselfUntilItCloses() throws {
        let terminal = try PseudoTerminal()
        var port = SerialPort(.init(path: terminal.slavePath, baud: 9600))
        try port.open(now: .at(0))
        #expect(clinux_tty_is_exclusive(terminal.slave.rawValue) == 1)
        // The pair still holds the tty: without TIOCNXCL the next open would be refused.
        port.close()
        #expect(clinux_tty_is_exclusive(terminal.slave.rawValue) == 0)
    }

    @Test func anExplicitCloseDoesNotAskToBeReopened() throws {
        let terminal = try PseudoTerminal()
        var port = SerialPort(.init(path: terminal.slavePath, baud: 9600))
        try port.open(now: .at(0))
        port.close()
        #expect(value(port).descriptor == nil)
        #expect(value(port).nextDeadline() == nil)
        #expect(!value(port).status.isOpen)
    }

    @Test func aMissingDeviceIsAnOpenErrorWithBackoff() throws {
        var port = SerialPort(.init(path: "/dev/ttyNOTHERE9", baud: 9600))
        #expect(throws: SourceError.open(path: "/dev/ttyNOTHERE9", .noSuchFile)) { try port.open(now: .at(0)) }
        #expect(value(port).status.lastError == .open(path: "/dev/ttyNOTHERE9", .noSuchFile))
        #expect(value(port).nextDeadline() == .at(1000))
    }
}

/// What a test checks about a port, copied out: the testing macros cannot look into a
/// noncopyable value.
struct PortSnapshot {
    let descriptor: FileDescriptor?
    let deadline: MonotonicTime?
    let baud: Int
    let isSearchingBaud: Bool
    let status: SourceStatus

    func nextDeadline() -> MonotonicTime? { deadline }
}

func value(_ port: borrowing SerialPort) -> PortSnapshot {
    PortSnapshot(
        descriptor: port.descriptor, deadline: port.nextDeadline(), baud: port.baud,
        isSearchingBaud: port.isSearchingBaud, status: port.status)
}

func descriptorOf(_ port: borrowing SerialPort) -> FileDescriptor? { port.descriptor }

func masterOf(_ terminal: borrowing PseudoTerminal?) -> FileDescriptor? {
    switch terminal {
    case .some(let pair): pair.master
    case .none: nil
    }
}
