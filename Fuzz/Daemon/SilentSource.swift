// Compiled into every fuzz target that imports TrackDaemon (scripts/fuzz): the receiver such a
// target's daemon reads.
import TrackCore
@testable import TrackDaemon
@testable import TrackIO

/// A receiver that never has bytes: the fix the target needs is handed to the daemon directly.
struct SilentSource: ReceiverSource, ~Copyable {
    mutating func open(now: MonotonicTime) throws(SourceError) {}
    var descriptor: FileDescriptor? { nil }
    func nextDeadline() -> MonotonicTime? { nil }
    mutating func read(into buffer: UnsafeMutableRawBufferPointer, now: MonotonicTime) throws(SourceError) -> Int { 0 }
    mutating func observe(acceptedSentences: Int, rejectedSentences: Int, now: MonotonicTime) {}
    var status: SourceStatus { SourceStatus(path: "fuzz", isOpen: true) }
    mutating func close() {}
    mutating func reconfigure(_ configuration: SerialPort.Configuration) -> Bool { false }
}
