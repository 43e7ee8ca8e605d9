/// Where `NMEAReceiver.nextStop` stopped.
public enum NMEAStop: Equatable, Sendable {
    /// The bytes are used up.
    case end
    /// An epoch completed: its fix is `assembler.completed`.
    case fix
    /// The framer's sentence (readable in `framer.sentence` until the next call) is a
    /// proprietary or TXT sentence: a possible reply to a command (`ReceiverReply(sentence:)`).
    case reply
    /// The byte before `offset` was `B5`, which may start a UBX frame.
    case binaryStart
    /// A sentence was verified and decoded without completing an epoch (`nextSentence`): it
    /// is in `framer.sentence`, its checksum `framer.checksum`, until the next call.
    case sentence
}

/// Which stops `NMEAReceiver.run` makes besides completed epochs; its answers are constants of
/// the type, so the loop is compiled once per policy with the tests folded away.
protocol NMEAStopPolicy {
    static var stopsAtReplies: Bool { get }
    static var stopsAtSentences: Bool { get }
}

/// `next`: fixes only.
enum FixesOnly: NMEAStopPolicy {
    static var stopsAtReplies: Bool { false }
    static var stopsAtSentences: Bool { false }
}

/// `nextStop`: fixes, reply sentences and UBX sync bytes.
enum FixesAndReplies: NMEAStopPolicy {
    static var stopsAtReplies: Bool { true }
    static var stopsAtSentences: Bool { false }
}

/// `nextSentence`: fixes and every other verified sentence.
enum FixesAndSentences: NMEAStopPolicy {
    static var stopsAtReplies: Bool { false }
    static var stopsAtSentences: Bool { true }
}

/// `nextStopOrSentence`: fixes, every other verified sentence (replies as `.reply`) and UBX
/// sync bytes.
enum EveryStop: NMEAStopPolicy {
    static var stopsAtReplies: Bool { true }
    static var stopsAtSentences: Bool { true }
}

extension NMEAReceiver {
    /// Like `next`, and also stops after a proprietary or TXT sentence (`.reply`) and after a
    /// `B5` byte (`.binaryStart`), which the caller hands to a `UBXFrameReader`. The bytes are
    /// judged exactly as by `next`: the stops only hand the caller a turn.
    ///
    ///     var offset = 0
    ///     loop: while true {
    ///         switch receiver.nextStop(bytes, from: &offset) {
    ///         case .end: break loop
    ///         case .fix: handle(receiver.assembler.completed)
    ///         case .reply: read(&receiver.framer.sentence)  // … and so on
    ///         }
    ///     }
    public mutating func nextStop(_ bytes: UnsafeRawBufferPointer, from offset: inout Int) -> NMEAStop {
        run(bytes, from: &offset, FixesAndReplies.self)
    }

    /// Like `next`, and also stops after each verified sentence that did not complete an
    /// epoch (`.sentence`); after `.fix` too, `framer.sentence` is the sentence that completed
    /// it. For gpsd's raw NMEA watchers, who get each sentence the core accepted: the bytes
    /// are judged exactly as by `next`, and `next` keeps its loop without the stops.
    public mutating func nextSentence(_ bytes: UnsafeRawBufferPointer, from offset: inout Int) -> NMEAStop {
        run(bytes, from: &offset, FixesAndSentences.self)
    }

    /// `nextStop` and `nextSentence` together, for a receiver stream whose raw watchers want
    /// every sentence: stops after each verified sentence (`.reply` for a proprietary or TXT
    /// one, `.sentence` for the others), after each completed epoch and after a `B5` byte.
    public mutating func nextStopOrSentence(_ bytes: UnsafeRawBufferPointer, from offset: inout Int) -> NMEAStop {
        run(bytes, from: &offset, EveryStop.self)
    }

    /// True when `event` framed a proprietary or TXT sentence.
    @inline(__always)
    func isReply(_ event: FrameEvent) -> Bool {
        guard case .sentence = event else { return false }
        let type = framer.sentence.type
        return type == .proprietary || type == .txt
    }
}

/// Takes each verified sentence the receiver core frames (`NMEAReceiver.nextSentence`), e.g.
/// the gpsd service passing `$GPGGA,…*47` on to its raw NMEA watchers. Must not allocate.
public protocol NMEASentenceSink: ~Copyable {
    /// Whether it wants the sentences now (a watcher is connected and may have them); when it
    /// does not, the core runs its loop without stopping at each sentence.
    var wantsSentences: Bool { get }
    /// `sentence` is the body between `$` and `*`; `checksum` its XOR, as sent.
    mutating func take(_ sentence: borrowing NMEASentence, checksum: UInt8)
}
