/// The receiver pipeline: framer → decoders → epoch assembler, with counters.
/// Feed it bytes as they arrive; it calls back once per completed epoch. No heap allocation.
public struct NMEAReceiver: Sendable {
    /// The framer (its last sentence is readable after a callback).
    public private(set) var framer = NMEAFramer()
    /// The epoch assembler.
    public private(set) var assembler = EpochAssembler()
    /// What has been accepted and dropped so far.
    public private(set) var counters = NMEACounters()
    /// The most recent rejection, for diagnostics (`trackctl doctor`, decode's summary).
    public private(set) var lastError: NMEAError?

    /// A pipeline waiting for its first `$`.
    public init() {}

    /// Feeds a chunk of bytes; `onFix` is called for every epoch completed by them.
    public mutating func consume(_ bytes: UnsafeRawBufferPointer, _ onFix: (borrowing Fix) -> Void) {
        var index = 0
        while index < bytes.count {
            if framer.state == .body {
                // Most bytes are inside a sentence: take the ordinary ones in one tight loop.
                index = framer.scanBody(bytes, from: index)
                if index == bytes.count { return }
                // Then, almost always, `*hh` and the line end.
                if let (next, event) = framer.scanTail(bytes, from: index) {
                    handle(event, onFix)
                    index = next
                    continue
                }
            }
            consume(bytes[index], onFix)
            index &+= 1
        }
    }

    /// Pulls the next fix out of `bytes`: feeds them from `offset` until an epoch completes and
    /// returns it, `offset` just past the byte that completed it; nil when the bytes ran out
    /// first (`offset == bytes.count`; the next read goes on where they stopped). A sentence
    /// completes at most one epoch, so stopping at a fix loses nothing. No heap allocation.
    ///
    ///     var offset = 0
    ///     while let fix = receiver.next(chunk, from: &offset) { handle(fix) }
    public mutating func next(_ bytes: UnsafeRawBufferPointer, from offset: inout Int) -> Fix? {
        var fix: Fix?
        while offset < bytes.count {
            if framer.state == .body {
                offset = framer.scanBody(bytes, from: offset)
                if offset == bytes.count { return nil }
            }
            consume(bytes[offset]) { fix = copy $0 }
            offset &+= 1
            if fix != nil { return fix }
        }
        return nil
    }

    /// Feeds one byte.
    @inline(__always)
    public mutating func consume(_ byte: UInt8, _ onFix: (borrowing Fix) -> Void) {
        handle(framer.consume(byte), onFix)
    }

    @inline(__always)
    mutating func handle(_ event: FrameEvent, _ onFix: (borrowing Fix) -> Void) {
        switch event {
        case .none:
            return
        case .rejected(let error):
            counters.count(error)
            lastError = error
        case .sentence:
            handleSentence(onFix)
        }
    }

    mutating func handleSentence(_ onFix: (borrowing Fix) -> Void) {
        let talker = framer.sentence.talker
        var fixes = 0
        do {
            try NMEAMessage.decode(&framer.sentence, into: &assembler) { message, assembler in
                assembler.add(message, talker: talker) { fix in
                    fixes += 1
                    onFix(fix)
                }
            }
        } catch {
            counters.count(error)
            lastError = error
            return
        }
        // The kinds of message that are not errors, by the type `NMEAMessage.decode` went by.
        switch framer.sentence.type {
        case .unknown: counters.unknown += 1
        case .proprietary: counters.proprietary += 1
        default: counters.accepted += 1
        }
        counters.fixes += fixes
    }

    /// Ends the input: emits the epoch in progress.
    public mutating func finish(_ onFix: (borrowing Fix) -> Void) {
        var fixes = 0
        assembler.finish { fix in
            fixes += 1
            onFix(fix)
        }
        counters.fixes += fixes
    }
}
