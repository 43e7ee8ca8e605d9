import CLinux
import Foundation
import TestData
import Testing
import TrackCore
import TrackIO

@Suite struct FileGroupTests {
    /// The socket takes the gid the group file gives its group, without the C library's NSS.
    @Test func controlSocketGroupFromAGroupFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // A group id this process may give its files to, under a name no system has.
        let id = getegid()
        let groups = folder.file("group")
        try write(groups, "other:x:\(id &+ 1):\ntrackd-test-group:x:\(id):\n")
        let server = try ControlServer(path: folder.file("control.sock"), mode: 0o660)
        try server.setGroup("trackd-test-group", groupFile: groups)
        var info = stat()
        #expect(stat(folder.file("control.sock"), &info) == 0)
        #expect(info.st_gid == id)
        // Neither in the file nor known to the C library: ENOENT.
        #expect(throws: Errno.noSuchFile) { try server.setGroup("trackd-no-such-group", groupFile: groups) }
    }

    /// Files whose size fstat reports (a config) and files it reports as 0 (/proc) read whole.
    @Test func readWholeFileSizes() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for size in [0, 1, 255, 256, 257, 4096, 70_000] {
            let path = folder.file("f\(size)")
            let text = String(repeating: "x", count: size)
            try write(path, text)
            #expect(try FileDescriptor.readWholeFile(path).count == size)
        }
        #expect(throws: Errno(rawValue: EFBIG)) { try FileDescriptor.readWholeFile(folder.file("f4096"), limit: 4095) }
        #expect(try FileDescriptor.readWholeFile(folder.file("f4096"), limit: 4096).count == 4096)
        // /proc reports size 0 and is longer than the first buffer.
        let maps = try FileDescriptor.readWholeFile("/proc/self/maps")
        #expect(maps.count > 256)
        #expect(maps.last == UInt8(ascii: "\n"))
        #expect(throws: Errno(rawValue: EFBIG)) { try FileDescriptor.readWholeFile("/proc/self/maps", limit: 100) }
    }

    private func write(_ path: String, _ text: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }
}
