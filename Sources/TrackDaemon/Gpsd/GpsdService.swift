import TrackCore
import TrackIO

/// gpsd's JSON protocol for the other programs on the board (gpspipe, cgps, gpxlogger, python's
/// gps module, anything built on libgps): the server's sockets, the receiver as DEVICES shows
/// it, the last epoch for `?POLL`, and the sentence being cut out of the receiver's bytes for
/// `"nmea":true` watchers. Everything is allocated at start; serving a fix allocates nothing.
struct GpsdService: ~Copyable {
    /// Longest sentence passed on raw; gpsd drops sentences over 130 characters too, so no
    /// client expects longer ones.
    static var sentenceCapacity: Int { 130 }

    var server: GpsdServer
    var device: GpsdDeviceInfo
    /// The receiver's opens when `device.activated` was set.
    var deviceOpens = 0
    /// The last epoch as the receiver gave it; disclosed when a POLL asks for it.
    var lastFix: Fix?
    let sentence: UnsafeMutableRawBufferPointer
    var sentenceCount = 0
    var inSentence = false
    /// TPV and SKY objects and sentences sent (each counted once, however many clients got it).
    var published = 0

    init(_ server: consuming GpsdServer, devicePath: String) {
        self.server = server
        device = GpsdDeviceInfo(path: GpsdDevicePath(devicePath), baud: nil, activated: nil, seenSentences: false)
        sentence = .allocate(byteCount: Self.sentenceCapacity, alignment: 16)
    }

    deinit { sentence.deallocate() }

    /// The listeners, then the clients (writable while output waits), from `slots.lowerBound`.
    func arm(_ loop: inout EventLoop, slots: Range<Int>) {
        for index in 0..<TrackdConfig.Gpsd.maxListeners {
            loop.watch(slots.lowerBound + index, server.listener(index))
        }
        for index in 0..<server.capacity {
            loop.watch(slots.lowerBound + TrackdConfig.Gpsd.maxListeners + index, server.descriptor(of: index),
                       writable: server.hasPendingOutput(index))
        }
    }

    /// DEVICES: the receiver while it is `open`, else an empty list.
    func writeDevices(open: Bool, to buffer: inout TextBuffer) {
        GpsdJSON.writeDevices(open ? device : nil, to: &buffer)
    }

    /// True when a client watches the raw sentences.
    var anyWatchingSentences: Bool {
        for index in 0..<server.capacity where server.descriptor(of: index) != nil && server.watch(index).wantsSentences {
            return true
        }
        return false
    }

    /// Sends `object` to every client `wants` picks.
    mutating func broadcast(_ object: inout TextBuffer, sentences: Bool) {
        // A truncated object would be a broken line to every client: none is sent.
        guard object.count > 0, !object.overflowed else { return }
        published += 1
        for index in 0..<server.capacity where server.descriptor(of: index) != nil {
            let watch = server.watch(index)
            if sentences ? watch.wantsSentences : watch.wantsJSON { server.send(index, &object) }
        }
    }

    /// Cuts the receiver's bytes into sentences and passes each checksummed one to the
    /// sentence watchers when `allowed` (precise tracking allowed), CRLF-terminated as gpsd
    /// sends them; bytes outside sentences are not passed on.
    mutating func forwardSentences(_ bytes: UnsafeRawBufferPointer, allowed: Bool) {
        guard anyWatchingSentences else {
            inSentence = false
            return
        }
        for byte in bytes {
            if byte == UInt8(ascii: "$") || byte == UInt8(ascii: "!") {
                inSentence = true
                sentenceCount = 0
            }
            guard inSentence else { continue }
            if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                inSentence = false
                if allowed && checksumMatches() {
                    var line = TextBuffer()
                    for index in 0..<sentenceCount { line.append(sentence[index]) }
                    line.append("\r\n")
                    broadcast(&line, sentences: true)
                }
                continue
            }
            guard sentenceCount < Self.sentenceCapacity else {
                inSentence = false
                continue
            }
            sentence[sentenceCount] = byte
            sentenceCount += 1
        }
    }

    /// True for `$…*hh` whose XOR of the bytes between `$` and `*` is `hh` (either case).
    func checksumMatches() -> Bool {
        guard sentenceCount >= 4, sentence[sentenceCount - 3] == UInt8(ascii: "*") else { return false }
        var sum: UInt8 = 0
        for index in 1..<(sentenceCount - 3) { sum ^= sentence[index] }
        guard let high = hexDigit(sentence[sentenceCount - 2]), let low = hexDigit(sentence[sentenceCount - 1]) else { return false }
        return sum == high << 4 | low
    }
}

private func hexDigit(_ byte: UInt8) -> UInt8? {
    switch byte {
    case 48...57: byte - 48
    case 65...70: byte - 55
    case 97...102: byte - 87
    default: nil
    }
}
