// The harness's entry on the microcontrollers: TrackCoreRun over the capture and fence image
// linked into the image (data.S), its lines through semihosting. The startup code of each target
// (MCU/armv7em, MCU/riscv32) calls `harness_main` once memory is set up and passes its result to
// semihosting's exit: 0 when the run passed.
import MCUBoard
import TrackCore

/// Lines to qemu's standard output through semihosting.
struct Semihosting: HarnessOutput {
    mutating func emit(_ line: inout TextBuffer) {
        line.append(UInt8(ascii: "\n"))
        line.withBytes { bytes in
            bytes.withUnsafeBytes { raw in board_write(raw.baseAddress, raw.count) }
        }
        line.removeAll()
    }
}

@_cdecl("harness_main")
func harnessMain() -> Int32 {
    var captureCount = 0
    var imageCount = 0
    let capture = UnsafeRawBufferPointer(start: board_capture(&captureCount), count: captureCount)
    let image = UnsafeRawBufferPointer(start: board_fence_image(&imageCount), count: imageCount)
    var passed = false
    var line = TextBuffer()
    var output = Semihosting()
    do throws(FenceImageError) {
        var run = TrackCoreRun(fences: try TrackCoreRun<Semihosting>.openImage(image), output: output)
        passed = run.run(capture: capture, line: &line)
    } catch {
        line.append("fence image: ")
        line.append(string: error.description)
        output.emit(&line)
    }
    // The board's heap and stack figures: a line starting "board " that scripts/mcu leaves out
    // of the comparison (the host has another allocator) and puts in the size table.
    line.append("board heap peak ")
    line.append(integer: Int64(board_heap_peak()))
    line.append(" bytes, in use at the end ")
    line.append(integer: Int64(board_heap_in_use()))
    line.append(", stack peak ")
    line.append(integer: Int64(board_stack_peak()))
    line.append(" bytes")
    output.emit(&line)
    return passed ? 0 : 1
}
