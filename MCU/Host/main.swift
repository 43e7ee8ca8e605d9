// The host's counterpart of the microcontroller harness (MCU/Board): the same TrackCoreRun over
// the same capture and fence image, read from files, its lines on standard output, so
// scripts/mcu can compare the boards' output with the host build's byte for byte.
//
// usage: trackcore-harness CAPTURE.nmea FENCES.image   (exit 1 when the run fails, 2 on usage)
import Glibc
import TrackCore

/// Standard output, one line at a time.
struct StandardOutput: HarnessOutput {
    mutating func emit(_ line: inout TextBuffer) {
        line.append(UInt8(ascii: "\n"))
        line.withBytes { bytes in
            bytes.withUnsafeBytes { raw in writeAll(1, raw) }
        }
        line.removeAll()
    }
}

/// Writes all of `bytes` to `fd`.
func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) {
    var done = 0
    while done < bytes.count {
        let written = write(fd, bytes.baseAddress.map { $0 + done }, bytes.count - done)
        if written < 0 && errno == EINTR { continue }
        guard written > 0 else { return }
        done += written
    }
}

/// Writes `text` to standard error.
func complain(_ text: String) {
    var text = text
    text.withUTF8 { writeAll(2, UnsafeRawBufferPointer($0)) }
}

/// The whole file at `path` in memory aligned for the fence image's 8-byte fields, or nil.
func readFile(_ path: String) -> UnsafeMutableRawBufferPointer? {
    guard let file = fopen(path, "rb") else { return nil }
    defer { fclose(file) }
    guard fseek(file, 0, SEEK_END) == 0 else { return nil }
    let size = ftell(file)
    guard size >= 0, fseek(file, 0, SEEK_SET) == 0 else { return nil }
    let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: max(size, 1), alignment: 16)
    guard fread(memory.baseAddress, 1, size, file) == size else { return nil }
    return UnsafeMutableRawBufferPointer(rebasing: memory[0..<size])
}

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    complain("usage: trackcore-harness CAPTURE.nmea FENCES.image\n")
    exit(2)
}
guard let capture = readFile(arguments[1]), let image = readFile(arguments[2]) else {
    complain("trackcore-harness: cannot read \(arguments[1]) or \(arguments[2])\n")
    exit(1)
}
var passed = false
do throws(FenceImageError) {
    var run = TrackCoreRun(fences: try TrackCoreRun<StandardOutput>.openImage(UnsafeRawBufferPointer(image)),
                           output: StandardOutput())
    var line = TextBuffer()
    passed = run.run(capture: UnsafeRawBufferPointer(capture), line: &line)
} catch {
    print("fence image: \(error.description)")
}
exit(passed ? 0 : 1)
