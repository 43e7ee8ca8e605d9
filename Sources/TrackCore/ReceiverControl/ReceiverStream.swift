/// What the receiver stream yielded. Neither case carries its value: the fix is
/// `ReceiverStream.fix` and the reply `ReceiverStream.reply`, read where they are (a fix is a
/// few hundred bytes, copied for nothing on every epoch otherwise: `scripts/bench receiver`).
public enum ReceiverEvent: Equatable, Sendable {
    /// An epoch completed: its fix, as `NMEAReceiver.next` gives it, is `fix`.
    case fix
    /// An answer (ACK, NAK, version, TXT …) for the command session and the detector is `reply`.
    case reply
}

/// The receiver's byte stream split in two: UBX frames (`B5 62 …`, the answers of a u-blox)
/// lifted out before the NMEA framer, and NMEA through the unchanged `NMEAReceiver`.
///
/// How: the NMEA loop stops after every `B5` (a byte no NMEA sentence holds) and after every
/// proprietary or TXT sentence; nothing else changes on its path, so the cost per NMEA line is
/// that of `NMEAReceiver.next` (`scripts/bench check`). After a `B5` the bytes go to a
/// `UBXFrameReader`; a good frame becomes a reply and never reaches the NMEA framer. Bytes
/// that turn out not to be a frame (no `62`, a length over 512, a bad checksum) are given back:
/// they go through the NMEA framer, in order, before the rest of the input. So the NMEA side
/// sees exactly the input less the good frames' bytes after their `B5` — on a stream without
/// UBX frames, exactly what `NMEAReceiver` alone sees. Fixed buffers (two of 519 bytes);
/// nothing allocates.
///
///     var offset = 0
///     while let event = stream.next(bytes, from: &offset) {
///         switch event { case .fix: handle(stream.fix); case .reply: session.observe(stream.reply, now: now) }
///     }
public struct ReceiverStream: Sendable {
    /// The NMEA pipeline (counters, the last error, the epoch assembler).
    public private(set) var nmea = NMEAReceiver()
    var frames = UBXFrameReader()
    var collecting = false
    /// Bytes given back by the frame reader, for the NMEA framer before the input.
    var replay = ReplayBuffer()
    /// Set by `flush`: the input has ended, so a frame still open at its end is no frame.
    var flushing = false
    /// UBX frames read with a good checksum.
    public private(set) var ubxFrames = 0
    /// `B5`s that did not start a good frame.
    public private(set) var ubxRejected = 0
    /// Why the last of them was not a frame.
    public private(set) var lastUBXError: UBXFrameError?
    /// The reply of the last `.reply` event.
    public private(set) var reply = ReceiverReply.ubxMessage(UBXMessageID(0, 0))

    /// The fix of the last `.fix` event (the epoch assembler's, until the next call).
    public var fix: Fix { nmea.assembler.completed }

    /// A stream waiting for its first byte.
    public init() {}

    /// The next fix or reply in `bytes` from `offset` (advanced past what it took), or nil once
    /// the bytes are used up; a frame or sentence cut by the end of `bytes` goes on in the next
    /// call's bytes.
    public mutating func next(_ bytes: UnsafeRawBufferPointer, from offset: inout Int) -> ReceiverEvent? {
        var none = NoSentences()
        return next(bytes, from: &offset, sentences: &none)
    }

    /// `next`, and while `sentences` wants them every verified NMEA sentence is handed to it on
    /// the way (replies and the sentence that completes an epoch too, before their event), as
    /// gpsd's raw watchers get them. Without watchers it is the loop of `next`.
    public mutating func next<Sink: NMEASentenceSink & ~Copyable>(
        _ bytes: UnsafeRawBufferPointer, from offset: inout Int, sentences: inout Sink
    ) -> ReceiverEvent? {
        while true {
            // Given-back bytes first, then the input.
            if replay.start < replay.end {
                if collecting {
                    let byte = replay.storage[replay.start]
                    replay.start += 1
                    if let event = frameByte(byte) { return event }
                    continue
                }
                let (stop, taken) = Self.run(&nmea, over: replay, all: sentences.wantsSentences)
                replay.start += taken
                if let event = take(stop, &sentences) { return event }
                continue
            }
            guard offset < bytes.count else {
                // After `flush`, a frame begun in given-back bytes and cut by the end of the
                // input goes back too (and so on, until none is open).
                guard flushing && collecting else { return nil }
                collecting = false
                giveBack()
                continue
            }
            if collecting {
                let byte = bytes[offset]
                offset += 1
                if let event = frameByte(byte) { return event }
                continue
            }
            let stop = sentences.wantsSentences ? nmea.nextStopOrSentence(bytes, from: &offset)
                : nmea.nextStop(bytes, from: &offset)
            if let event = take(stop, &sentences) { return event }
        }
    }

    /// Gives the bytes of a frame cut off by the end of the input back to the NMEA path; call
    /// `next` with no bytes to pull what they complete, then `finish` (tools and tests; the
    /// daemon's stream never ends).
    public mutating func flush() {
        flushing = true
        guard collecting else { return }
        collecting = false
        giveBack()
    }

    /// Ends the input: the fix of the epoch in progress, if any (`NMEAReceiver.finish`).
    public mutating func finish() -> Fix? {
        flushing = false
        return nmea.finish()
    }

    /// Acts on where the NMEA loop stopped, a sentence to `sentences` when it wants them; the
    /// event to hand out, if any.
    mutating func take<Sink: NMEASentenceSink & ~Copyable>(_ stop: NMEAStop, _ sentences: inout Sink) -> ReceiverEvent? {
        if sentences.wantsSentences, stop == .sentence || stop == .fix || stop == .reply {
            sentences.take(nmea.framer.sentence, checksum: nmea.framer.checksum)
        }
        switch stop {
        case .end, .sentence:
            return nil
        case .fix:
            return .fix
        case .reply:
            guard let reply = nmea.withReplySentence({ ReceiverReply(sentence: &$0) }) else { return nil }
            self.reply = reply
            return .reply
        case .binaryStart:
            collecting = true
            frames.begin()
            return nil
        }
    }

    /// One byte for the frame reader; the reply when it completed a frame.
    mutating func frameByte(_ byte: UInt8) -> ReceiverEvent? {
        switch frames.consume(byte) {
        case .more:
            return nil
        case .frame:
            collecting = false
            ubxFrames += 1
            reply = ReceiverReply(frame: frames)
            return .reply
        case .rejected(let error):
            collecting = false
            ubxRejected += 1
            lastUBXError = error
            giveBack()
            return nil
        }
    }

    /// Puts the reader's bytes before the unread rest of the stream.
    mutating func giveBack() {
        if replay.start < replay.end {
            // The frame began and ended inside given-back bytes, which are still there: read
            // them again from the byte after the `B5`.
            replay.start -= frames.count
        } else {
            frames.withCollected { collected in replay.fill(collected) }
        }
    }

    /// The NMEA loop over the given-back bytes (stopping at every sentence when `all`); where
    /// it stopped and how many it took.
    static func run(_ nmea: inout NMEAReceiver, over replay: borrowing ReplayBuffer, all: Bool) -> (NMEAStop, Int) {
        let start = replay.start
        let end = replay.end
        var offset = 0
        let stop = replay.storage.span.withUnsafeBytes { raw in
            let bytes = UnsafeRawBufferPointer(rebasing: raw[start..<end])
            return all ? nmea.nextStopOrSentence(bytes, from: &offset) : nmea.nextStop(bytes, from: &offset)
        }
        return (stop, offset)
    }
}

/// The sink of `ReceiverStream.next(_:from:)`: wants no sentence, so the loop never stops for one.
struct NoSentences: NMEASentenceSink {
    var wantsSentences: Bool { false }
    func take(_ sentence: borrowing NMEASentence, checksum: UInt8) {}
}

/// Bytes given back to the NMEA path, `storage[start..<end]`.
struct ReplayBuffer: Sendable {
    var storage: InlineArray<519, UInt8> = InlineArray(repeating: 0)
    var start = 0
    var end = 0

    mutating func fill(_ bytes: Span<UInt8>) {
        for index in bytes.indices { storage[index] = bytes[index] }
        start = 0
        end = bytes.count
    }
}
