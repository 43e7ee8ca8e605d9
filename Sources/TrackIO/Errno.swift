import CLinux
import TrackCore

/// An errno value from a failed system call, e.g. `Errno(rawValue: 2)` is ENOENT.
public struct Errno: Error, Equatable, Sendable {
    /// The raw errno number.
    public var rawValue: Int32

    /// Wraps a raw errno number.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The errno left by the last failed call on this thread.
    public static var current: Errno { Errno(rawValue: clinux_errno()) }

    public static let interrupted = Errno(rawValue: EINTR)
    public static let wouldBlock = Errno(rawValue: EAGAIN)
    public static let noSuchFile = Errno(rawValue: ENOENT)
    public static let ioError = Errno(rawValue: EIO)
    public static let noSpace = Errno(rawValue: ENOSPC)
    public static let quotaExceeded = Errno(rawValue: EDQUOT)
    public static let readOnlyFileSystem = Errno(rawValue: EROFS)
    public static let invalidArgument = Errno(rawValue: EINVAL)

    /// The C library's text for this error, e.g. "No such file or directory"; "error 1234"
    /// for a number it does not know.
    ///
    /// glibc's untranslated table (strerrordesc_np) rather than strerror: strerror goes through
    /// the message catalogue and locale code, 64 KiB more of libc resident in the daemon for
    /// the same English text (nothing here calls setlocale).
    public var message: String {
        guard let text = clinux_error_description(rawValue) else { return String(joining: "error ", String(rawValue)) }
        return String(cString: text)
    }
}

/// The one place that decides "-1 means errno": runs `call`, retrying on EINTR when asked.
///
/// Reads and writes retry (a signal landed mid-call and nothing happened); `close` must not,
/// because Linux releases the descriptor even when close reports EINTR.
@inline(__always)
public func syscall<R: BinaryInteger>(
    retryOnInterrupt: Bool = true, _ call: () -> R
) throws(Errno) -> R {
    while true {
        let result = call()
        if result != -1 { return result }
        let error = Errno.current
        if retryOnInterrupt && error == .interrupted { continue }
        throw error
    }
}
