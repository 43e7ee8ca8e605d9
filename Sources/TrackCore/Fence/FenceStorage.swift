/// The bytes a compiled fence image lives in: a copy on the heap (fences read by `trackctl` and
/// the tests) or a read-only file mapping the daemon hands over with what unmaps it, so 10,000
/// fences cost the daemon only the pages a fix near them touches. Immutable once made; the
/// `FenceSet` views that point into it keep it alive.
///
/// Example: `FenceStorage(copying: image)` for the 528 bytes `FenceImage.make` gives two
/// circles.
public final class FenceStorage: @unchecked Sendable {
    /// The first byte, 16-byte aligned (a mapping is page-aligned); nil when empty.
    public let base: UnsafeRawPointer?
    /// Bytes from `base`.
    public let count: Int
    private let release: (() -> Void)?
    private let forget: (() -> Void)?

    /// A heap copy of `bytes`, aligned for the image's 8-byte fields.
    public init(copying bytes: [UInt8]) {
        guard !bytes.isEmpty else {
            base = nil
            count = 0
            release = nil
            forget = nil
            return
        }
        let memory = UnsafeMutableRawPointer.allocate(byteCount: bytes.count, alignment: 16)
        bytes.withUnsafeBytes { memory.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        base = UnsafeRawPointer(memory)
        count = bytes.count
        release = { memory.deallocate() }
        forget = nil
    }

    /// Bytes someone else owns, e.g. a file mapping; `release` runs once when the last view
    /// goes away (unmapping it), `forget` takes the pages out of resident memory (see
    /// `releasePages`). `base` must be 8-byte aligned.
    public init(base: UnsafeRawPointer, count: Int, release: @escaping () -> Void, forget: (() -> Void)? = nil) {
        self.base = base
        self.count = count
        self.release = release
        self.forget = forget
    }

    deinit { release?() }

    /// Takes a mapping's pages out of this process's resident memory: they stay in the page
    /// cache and come back at the next touch without reading storage. Nothing for heap bytes.
    public func releasePages() { forget?() }
}
