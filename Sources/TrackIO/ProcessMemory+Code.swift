import CLinux

extension ProcessMemory {
    /// Takes the pages of the program's and its libraries' code (their `r-xp` file mappings in
    /// `/proc/self/maps`) out of resident memory: start-up touched code it will not run again
    /// (reading the configuration, the board map, the fences), and the kernel mapped up to
    /// 64 KiB around each page it touched. The pages stay in the page cache; those the loop runs
    /// come back at their next call without reading storage. Only code mappings: their pages
    /// are never written (no text relocations), so dropping them loses nothing, where a data
    /// mapping would lose what start-up wrote. Best effort: nothing happens when the maps
    /// cannot be read.
    public static func releaseCodePages() {
        guard let maps = try? FileDescriptor.readWholeFile("/proc/self/maps", limit: 1 << 20) else { return }
        var lineStart = 0
        while lineStart < maps.count {
            var lineEnd = lineStart
            while lineEnd < maps.count && maps[lineEnd] != 10 { lineEnd += 1 }
            releaseIfCode(maps, lineStart..<lineEnd)
            lineStart = lineEnd + 1
        }
    }

    /// One maps line, e.g. `7f12a000-7f1c0000 r-xp 00028000 b3:02 1234 /usr/lib/…/libc.so.6`.
    static func releaseIfCode(_ maps: [UInt8], _ line: Range<Int>) {
        var index = line.lowerBound
        func hex() -> UInt? {
            var value: UInt = 0
            var digits = 0
            while index < line.upperBound, let digit = hexDigit(maps[index]) {
                value = value << 4 | UInt(digit)
                digits += 1
                index += 1
            }
            return digits > 0 ? value : nil
        }
        guard let start = hex(), index < line.upperBound, maps[index] == UInt8(ascii: "-") else { return }
        index += 1
        guard let end = hex(), end > start, index + 5 <= line.upperBound else { return }
        // " r-xp": readable, executable, not writable, private.
        let permissions: [UInt8] = [32, 114, 45, 120, 112]
        for offset in 0..<5 where maps[index + offset] != permissions[offset] { return }
        // File-backed only: the path starts with "/" ([vdso] and anonymous code are left alone).
        guard maps[line].contains(UInt8(ascii: "/")) else { return }
        _ = madvise(UnsafeMutableRawPointer(bitPattern: start), Int(end - start), MADV_DONTNEED)
    }

    static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 48...57: byte - 48
        case 97...102: byte - 87
        default: nil
        }
    }
}
