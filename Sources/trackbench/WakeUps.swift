import TrackCore
import TrackIO

// `trackbench wakeups BAUD EPOCHS [COALESCING_BYTES]`: how often a SerialPort needs the loop,
// measured in real time on a pseudo-terminal.
//
// The same single-threaded loop plays the receiver and the daemon. As the receiver it writes
// one epoch of ten sentences (561 bytes) per second to the pty master, in 16-byte pieces at
// the line rate of BAUD, as a UART's FIFO interrupts hand bytes to the tty layer. As the daemon
// it polls the port's descriptor and honours its deadline. A wake-up counts when the port had
// work (its descriptor was readable or its deadline had come); waking only to write the next
// piece does not, since the daemon has no writer. Prints `wakeups=… epochs=… bytes=…`.

/// The epoch the termios notes in SerialPort+Termios.swift were measured with.
let wakeUpEpoch: [UInt8] = Array([
    "$GPRMC,123519.00,A,4807.038,N,01131.324,E,022.4,084.4,230394,003.1,W,A*2F",
    "$GPVTG,084.4,T,,M,022.4,N,041.5,K,A*0D",
    "$GPGGA,123519.00,4807.038,N,01131.324,E,1,08,0.9,545.4,M,46.9,M,,*47",
    "$GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1*39",
    "$GPGSV,3,1,11,03,03,111,00,04,15,270,00,06,01,010,00,13,06,292,00*74",
    "$GPGSV,3,2,11,14,25,170,00,16,57,208,39,18,67,296,40,19,40,246,00*74",
    "$GPGSV,3,3,11,22,42,067,42,24,14,311,43,27,05,244,00,,,,*4D",
    "$GPGLL,4807.038,N,01131.324,E,123519.00,A,A*6F",
    "$GPZDA,123519.00,23,03,1994,00,00*6A",
    "$GPGST,123519.00,1.2,,,,0.8,0.9,1.5*5A",
].map { $0 + "\r\n" }.joined().utf8)

func runWakeUps(baud: Int, epochs: Int, coalescingBytes: Int) -> Int32 {
    do {
        let terminal = try PseudoTerminal()
        do {
            return try measureWakeUps(terminal, baud: baud, epochs: epochs, coalescingBytes: coalescingBytes)
        } catch {
            try? FileDescriptor.standardError.writeAll("trackbench: \(error.description)\n")
            return 1
        }
    } catch {
        try? FileDescriptor.standardError.writeAll("trackbench: \(error.description)\n")
        return 1
    }
}

func measureWakeUps(
    _ terminal: borrowing PseudoTerminal, baud: Int, epochs: Int, coalescingBytes: Int
) throws(SourceError) -> Int32 {
    var port = SerialPort(.init(path: terminal.slavePath, baud: baud, coalescingBytes: coalescingBytes))
    try port.open(now: SystemClock.monotonic())
    // Arrival of each 16-byte piece, in nanoseconds after the start, queued on the line.
    var pieces: [(offset: Int64, range: Range<Int>)] = []
    var lineFree: Int64 = 0
    for epoch in 0..<epochs {
        lineFree = max(lineFree, Int64(epoch) * 1_000_000_000)
        for start in stride(from: 0, to: wakeUpEpoch.count, by: 16) {
            let end = min(start + 16, wakeUpEpoch.count)
            lineFree += Int64(end - start) * 10 * 1_000_000_000 / Int64(baud)
            pieces.append((lineFree, start..<end))
        }
    }
    let total = wakeUpEpoch.count * epochs
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 16)
    defer { buffer.deallocate() }
    let start = SystemClock.monotonic().adding(milliseconds: 200)
    let giveUp = start.adding(nanoseconds: lineFree + 5_000_000_000)
    var next = 0
    var wakeUps = 0
    var delivered = 0
    while delivered < total {
        let now = SystemClock.monotonic()
        guard now < giveUp else { break }
        while next < pieces.count && start.adding(nanoseconds: pieces[next].offset) <= now {
            wakeUpEpoch[pieces[next].range].withUnsafeBytes { bytes in
                _ = try? terminal.master.writeAvailable(bytes)
            }
            next += 1
        }
        var due = port.nextDeadline().map { now >= $0 } ?? false
        if !due, let descriptor = port.descriptor {
            var poll = Poller()
            poll.watch(0, descriptor)
            try? poll.wait(until: now, now: now)
            due = poll.isReady(0)
        }
        if due {
            wakeUps += 1
            delivered += try port.read(into: buffer, now: now)
            continue
        }
        var wake = next < pieces.count ? start.adding(nanoseconds: pieces[next].offset) : giveUp
        if let deadline = port.nextDeadline() { wake = min(wake, deadline) }
        var poll = Poller()
        poll.watch(0, port.descriptor)
        try? poll.wait(until: wake, now: now)
    }
    print("wakeups=\(wakeUps) epochs=\(epochs) bytes=\(delivered)/\(total)")
    return delivered == total ? 0 : 1
}
