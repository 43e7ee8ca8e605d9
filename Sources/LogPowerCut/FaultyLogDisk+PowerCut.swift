/// A SplitMix64 generator: the same seed gives the same faults on every machine.
public struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    /// A generator started at `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension FaultyLogDisk {
    /// The disk after power is cut now, in the worst ordered case: only synced names and synced
    /// content are left. Failures and the observer are cleared; the disk works again.
    public func afterPowerCut() -> FaultyLogDisk {
        var disk = self
        disk.names = durableNames
        for (path, file) in files {
            disk.files[path] = File(data: file.durable, durable: file.durable, pending: [])
        }
        disk.failures = [:]
        disk.observer = nil
        return disk
    }

    /// The disk after power is cut now with the disorder of a real cache: each write since its
    /// file's last sync independently survives whole, is dropped, is torn (a prefix of it
    /// survives) or keeps a random subset of its sectors (`sectorBytes`, aligned in the file, as
    /// the page cache writes back and the device writes them in any order), so a later write or
    /// sector may survive where an earlier one did not (the bytes between read as zeros). Each
    /// file is cut on its own, so one file's unsynced writes may survive where another's did not;
    /// a name created or removed since the last directory sync is so or not, each on its own.
    public func afterPowerCut(using generator: inout some RandomNumberGenerator) -> FaultyLogDisk {
        var disk = afterPowerCut()
        for path in names.subtracting(durableNames).sorted() where Bool.random(using: &generator) {
            disk.names.insert(path)
        }
        for path in durableNames.subtracting(names).sorted() where Bool.random(using: &generator) {
            disk.names.remove(path)
        }
        for path in files.keys.sorted() {
            guard let file = files[path] else { continue }
            var data = file.durable
            for write in file.pending where write.count > 0 {
                switch Int.random(in: 0..<5, using: &generator) {
                case 0, 1: file.copy(write.offset..<write.offset + write.count, into: &data)
                case 2: continue
                case 3:
                    let kept = Int.random(in: 0..<write.count, using: &generator)
                    file.copy(write.offset..<write.offset + kept, into: &data)
                default:
                    var start = write.offset
                    let end = write.offset + write.count
                    while start < end {
                        let sectorEnd = min(end, (start / Self.sectorBytes + 1) * Self.sectorBytes)
                        if Bool.random(using: &generator) { file.copy(start..<sectorEnd, into: &data) }
                        start = sectorEnd
                    }
                }
            }
            disk.files[path] = File(data: data, durable: data, pending: [])
        }
        return disk
    }

    /// The unit the device writes whole: a sector of 512 bytes.
    public static var sectorBytes: Int { 512 }
}

extension FaultyLogDisk.File {
    /// Copies the bytes of `range` as written into `image`, growing it with zeros as needed.
    func copy(_ range: Range<Int>, into image: inout [UInt8]) {
        guard !range.isEmpty else { return }
        if image.count < range.upperBound {
            image.append(contentsOf: repeatElement(0, count: range.upperBound - image.count))
        }
        for index in range { image[index] = data[index] }
    }
}
