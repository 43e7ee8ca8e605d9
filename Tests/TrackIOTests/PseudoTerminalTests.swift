import CLinux
import Foundation
import TestData
import Testing
@testable import TrackIO

@Suite struct PseudoTerminalTests {
    @Test func bytesWrittenToTheMasterArriveAtTheSlaveUnchanged() throws {
        let terminal = try PseudoTerminal()
        #expect(terminal.slavePath.hasPrefix("/dev/pts/"))
        let slave = FileDescriptor(rawValue: terminal.slavePath.withCString {
            clinux_open($0, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC, 0)
        })
        #expect(slave.rawValue >= 0)
        defer { try? slave.close() }
        // Raw: CR LF stays CR LF, nothing is echoed back to the master.
        let line = Array(sentence("GPZDA,201530.00,04,07,2002,00,00").utf8)
        try write(line, to: terminal.master)
        waitForQueued(line.count, on: slave)
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = buffer.withUnsafeMutableBytes { try? slave.readAvailable(into: $0) } ?? 0
        #expect(Array(buffer[0..<count]) == line)
        let echoed = buffer.withUnsafeMutableBytes { try? terminal.master.readAvailable(into: $0) } ?? -1
        #expect(echoed == 0)
    }

    @Test func theLinkPointsAtTheSlaveAndGoesWithThePair() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let link = folder.file("gps0")
        var slavePath = ""
        do {
            let terminal = try PseudoTerminal(linkPath: link)
            slavePath = terminal.slavePath
            #expect(terminal.linkPath == link)
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == slavePath)
        }
        #expect(!FileManager.default.fileExists(atPath: link))
        // Whether the slave's /dev/pts name is gone cannot be checked here: other tests running
        // in parallel open pseudo-terminals, and the kernel hands the freed number straight out.
        #expect(!slavePath.isEmpty)
    }

    @Test func aStaleLinkIsReplacedButAFileIsNot() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let link = folder.file("gps0")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/pts/nonexistent")
        let terminal = try PseudoTerminal(linkPath: link)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == terminal.slavePath)

        let file = folder.file("not-a-link")
        #expect(FileManager.default.createFile(atPath: file, contents: Data("keep me".utf8)))
        #expect(throws: PseudoTerminalError.linkOccupied(path: file)) { _ = try PseudoTerminal(linkPath: file) }
        #expect(FileManager.default.contents(atPath: file) == Data("keep me".utf8))
    }

    @Test func closingThePairIsAnUnplugForTheReader() throws {
        let terminal = try PseudoTerminal()
        let slave = FileDescriptor(rawValue: terminal.slavePath.withCString {
            clinux_open($0, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC, 0)
        })
        defer { try? slave.close() }
        terminal.close()
        #expect(waitReadable(slave))
        var buffer = [UInt8](repeating: 0, count: 16)
        // EOF, as a tty reads after a hang-up.
        let result = buffer.withUnsafeMutableBytes { bytes in Result { () throws(Errno) in try slave.read(into: bytes) } }
        switch result {
        case .success(let count): #expect(count == 0)
        case .failure(let error): #expect(error == .ioError)
        }
    }
}
