// Compiled into every fuzz target (scripts/fuzz): libFuzzer's entry point, which hands each
// input to the target's `fuzzTarget(_:)`, and the checks a target makes beyond "no crash".

/// libFuzzer calls this once per input; `data` holds `size` bytes (it may be nil when empty).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    fuzzTarget(input)
    return 0
}

/// Stops the run when `condition` is false, so libFuzzer keeps the input as a crash: a broken
/// property is a bug like a trap. `fatalError` keeps its message in optimized builds, unlike
/// `precondition`. Example: `check(records == decoded, "records re-read differently")`.
func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
           file: StaticString = #fileID, line: UInt = #line) {
    if !condition() { fatalError("fuzz check failed: " + message(), file: file, line: line) }
}

/// True when `text` starts with the bytes of `prefix`. Unlike `hasPrefix`, which compares
/// characters, a combining mark at the start of the rest (fuzzed input) does not hide it.
func startsWithBytes(_ text: String, _ prefix: String) -> Bool {
    text.utf8.starts(with: prefix.utf8)
}
