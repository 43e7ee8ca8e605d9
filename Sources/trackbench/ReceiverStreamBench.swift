import TrackCore
import TrackIO

/// Every event in `chunk` through the receiver stream (NMEA with UBX frames lifted out), as the
/// daemon's receiver service pulls it; fixes and replies counted.
///
/// Never inlined, for the same reason as `receiveChunk`: callgrind toggles on its symbol
/// (`$s10trackbench11streamChunk…`) to count the stream's inclusive cost and nothing else.
@inline(never)
func streamChunk(_ stream: inout ReceiverStream, _ chunk: UnsafeRawBufferPointer, _ fixes: inout Int, _ replies: inout Int) {
    var offset = 0
    while let event = stream.next(chunk, from: &offset) {
        switch event {
        case .fix: fixes += 1
        case .reply: replies += 1
        }
    }
}

/// The end of the input through the stream (`flush`, the events it gives, `finish`). It does
/// not call `streamChunk`: a toggled function inside another would switch callgrind off.
@inline(never)
func streamEnd(_ stream: inout ReceiverStream, _ fixes: inout Int, _ replies: inout Int) {
    stream.flush()
    var offset = 0
    while let event = stream.next(UnsafeRawBufferPointer(start: nil, count: 0), from: &offset) {
        if case .fix = event { fixes += 1 } else { replies += 1 }
    }
    if stream.finish() != nil { fixes += 1 }
}

/// `trackbench stream FILE`: `trackbench nmea` through `ReceiverStream` instead of
/// `NMEAReceiver`; prints `sentences=… fixes=… replies=… ubx=…`.
func runStream(_ path: String) throws(Errno) {
    var stream = ReceiverStream()
    var fixes = 0
    var replies = 0
    try forEachChunk(ofFileAt: path) { chunk in streamChunk(&stream, chunk, &fixes, &replies) }
    streamEnd(&stream, &fixes, &replies)
    print("sentences=\(stream.nmea.counters.accepted) fixes=\(fixes) replies=\(replies) ubx=\(stream.ubxFrames)")
}
