import Foundation
import Glibc
import Testing
@testable import TrackIO

/// `ProcessMemory.releaseCodePages`: only code mappings lose their pages, and the process runs on.
@Suite struct ProcessMemoryTests {
    /// A writable anonymous page holding one written byte, named in a made-up maps line with
    /// `permissions`: the byte survives unless the line says `r-xp` and names a file.
    @Test(arguments: [
        ("rw-p", "/usr/lib/libfake.so", true),
        ("r--p", "/usr/lib/libfake.so", true),
        ("r-xs", "/usr/lib/libfake.so", true),
        ("r-xp", "[vdso]", true),
        ("r-xp", "", true),
        ("r-xp", "/usr/lib/libfake.so", false),
    ])
    func onlyFileBackedCodeIsReleased(permissions: String, path: String, kept: Bool) throws {
        let size = Int(getpagesize())
        let page = try #require(mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0))
        defer { munmap(page, size) }
        page.storeBytes(of: 0x5A, as: UInt8.self)
        let start = UInt(bitPattern: page)
        let line = String(start, radix: 16) + "-" + String(start + UInt(size), radix: 16)
            + " \(permissions) 00000000 00:00 0 \(path)"
        let bytes = Array(line.utf8)
        ProcessMemory.releaseIfCode(bytes, 0..<bytes.count)
        // MADV_DONTNEED on a private anonymous page: it reads back as zero.
        #expect(page.load(as: UInt8.self) == (kept ? 0x5A : 0))
    }

    /// A maps line that is not one (no range, a reversed range, cut short) changes nothing.
    @Test(arguments: ["", "r-xp /usr/lib/x", "zz-10 r-xp 0 0:0 0 /x", "2000-1000 r-xp 0 0:0 0 /x", "1000-2000 r-"])
    func malformedLinesAreIgnored(line: String) {
        let bytes = Array(line.utf8)
        ProcessMemory.releaseIfCode(bytes, 0..<bytes.count)
    }

    /// The test process's own code pages leave its resident file pages, and it goes on running
    /// (this test's remaining code and the framework's come back from the page cache).
    @Test func releasesTheProcessCodePages() throws {
        func residentFileKiB() throws -> Int {
            let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
            let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("RssFile:") })
            return try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
        }
        let before = try residentFileKiB()
        ProcessMemory.releaseCodePages()
        let after = try residentFileKiB()
        #expect(after < before, "RssFile \(before) KiB before, \(after) KiB after")
    }
}
