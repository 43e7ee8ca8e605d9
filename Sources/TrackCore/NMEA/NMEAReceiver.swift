/// The receiver pipeline: framer → decoders → epoch assembler, with counters. No heap
/// allocation.
///
/// Pull one fix at a time from the bytes as they arrive, so that the caller handles each fix
/// in its own scope:
///
///     var offset = 0
///     while let fix = receiver.next(bytes, from: &offset) { handle(fix) }
///     // … at the end of the input:
///     if let fix = receiver.finish() { handle(fix) }
public struct NMEAReceiver: Sendable {
    /// The framer (its last sentence is readable after `next` returns).
    public private(set) var framer = NMEAFramer()
    /// The epoch assembler.
    public private(set) var assembler = EpochAssembler()
    /// What has been accepted and dropped so far.
    public private(set) var counters = NMEACounters()
    /// The most recent rejection, for diagnostics (`trackctl doctor`, decode's summary).
    public private(set) var lastError: NMEAError?
    /// Whether the sentence being handled completed an epoch.
    var completedEpoch = false

    /// A pipeline waiting for its first `$`.
    public init() {}

    /// Processes `bytes` from `offset` until an epoch completes: returns its fix with `offset`
    /// just past the byte that completed it (the end of the sentence that started the next
    /// epoch), or nil with `offset` at `bytes.count` when the bytes are used up without one.
    /// A sentence cut by the end of `bytes` goes on in the next call's bytes.
    ///
    /// E.g. a 64 KiB read holding 30 epochs gives 30 fixes from 31 calls, the last nil.
    public mutating func next(_ bytes: UnsafeRawBufferPointer, from offset: inout Int) -> Fix? {
        run(bytes, from: &offset, FixesOnly.self) == .fix ? assembler.completed : nil
    }

    /// The loop of `next` and `nextStop`: processes `bytes` from `offset` until an epoch
    /// completes or, when `Policy` says so, a reply sentence or a UBX sync byte passes.
    /// `Policy` is a type whose answers are constants, so `next` compiles to the loop alone.
    @inline(__always)
    mutating func run<Policy: NMEAStopPolicy>(
        _ bytes: UnsafeRawBufferPointer, from offset: inout Int, _ policy: Policy.Type
    ) -> NMEAStop {
        var index = offset
        while index < bytes.count {
            if framer.state == .body {
                // Most bytes are inside a sentence: take the ordinary ones in one tight loop.
                index = framer.scanBody(bytes, from: index)
                if index == bytes.count { break }
                // Then, almost always, `*hh` and the line end.
                if let (next, event) = framer.scanTail(bytes, from: index) {
                    index = next
                    if handle(event) {
                        offset = index
                        counters.fixes += 1
                        return .fix
                    }
                    if Policy.stopsAtSentences, case .sentence = event {
                        offset = index
                        return Policy.stopsAtReplies && isReply(event) ? .reply : .sentence
                    }
                    if Policy.stopsAtReplies && isReply(event) {
                        offset = index
                        return .reply
                    }
                    continue
                }
            }
            let byte = bytes[index]
            index &+= 1
            let event = framer.consume(byte)
            if handle(event) {
                offset = index
                counters.fixes += 1
                return .fix
            }
            if Policy.stopsAtSentences, case .sentence = event {
                offset = index
                return Policy.stopsAtReplies && isReply(event) ? .reply : .sentence
            }
            if Policy.stopsAtReplies {
                if isReply(event) {
                    offset = index
                    return .reply
                }
                // A UBX frame may start here. The framer has taken the byte as it always does
                // (it ends any sentence open, else it is noise between sentences).
                if byte == UBXFrame.sync1 {
                    offset = index
                    return .binaryStart
                }
            }
        }
        offset = index
        return .end
    }

    /// The framer's sentence after a `.reply` stop (`nextStop`), for
    /// `ReceiverReply(sentence:)`: read in place, changed by nothing.
    public mutating func withReplySentence<R>(_ body: (inout NMEASentence) -> R) -> R {
        body(&framer.sentence)
    }

    /// Ends the input: the fix of the epoch in progress, if it has any data.
    public mutating func finish() -> Fix? {
        guard assembler.finish() else { return nil }
        counters.fixes += 1
        return assembler.completed
    }

    /// Feeds a chunk of bytes; `onFix` is called for every epoch completed by them. A thin
    /// wrapper over `next` for tools and tests.
    public mutating func consume(_ bytes: UnsafeRawBufferPointer, _ onFix: (borrowing Fix) -> Void) {
        var offset = 0
        while let fix = next(bytes, from: &offset) { onFix(fix) }
    }

    /// Ends the input: `onFix` gets the epoch in progress, if any (see `finish()`).
    public mutating func finish(_ onFix: (borrowing Fix) -> Void) {
        if let fix = finish() { onFix(fix) }
    }

    /// Counts a rejected sentence or decodes a framed one; true when that completed an epoch.
    @inline(__always)
    mutating func handle(_ event: FrameEvent) -> Bool {
        switch event {
        case .none:
            return false
        case .rejected(let error):
            counters.count(error)
            lastError = error
            return false
        case .sentence:
            return handleSentence()
        }
    }

    /// Decodes the framer's sentence into the epoch through its row of the sentence table;
    /// true when that completed an epoch.
    @inline(__always)
    mutating func handleSentence() -> Bool {
        let type = framer.sentence.type
        completedEpoch = false
        defer { assembler.sky.endRuns(after: type) }
        do {
            try type.visitRow(&self)
        } catch {
            counters.count(error)
            lastError = error
            return false
        }
        // The kinds of message that are not errors, by the row the sentence went through.
        switch type {
        case .unknown: counters.unknown += 1
        case .proprietary: counters.proprietary += 1
        default: counters.accepted += 1
        }
        return completedEpoch
    }
}

extension NMEAReceiver: SentenceTableVisitor {
    /// A row of the table: the minimum field count, the decoder reading the framer's sentence
    /// in place, and its contribution to the epoch.
    @inline(__always)
    mutating func visit<Decoder: NMEASentenceDecoder>(_ decoder: Decoder.Type, minimumFields: Int) throws(NMEAError) {
        let count = framer.sentence.fieldCount
        guard count >= minimumFields else { throw .tooFewFields(Decoder.type, count: count) }
        let talker = framer.sentence.talker
        let sentence = try Decoder(decoding: &framer.sentence)
        completedEpoch = sentence.contribute(to: &assembler, talker: talker)
    }

    /// Unknown and proprietary sentences add nothing.
    mutating func skip() {}

}
