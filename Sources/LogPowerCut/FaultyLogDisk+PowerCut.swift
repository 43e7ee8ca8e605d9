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
    /// file's last sync independently survives whole, is dropped, or is torn (a prefix of it
    /// survives), so a later write may survive where an earlier one did not (its bytes read as
    /// zeros); a name created since the last directory sync survives or not.
    public func afterPowerCut(using generator: inout some RandomNumberGenerator) -> FaultyLogDisk {
        var disk = afterPowerCut()
        for path in names.subtracting(durableNames).sorted() where Bool.random(using: &generator) {
            disk.names.insert(path)
        }
        for path in files.keys.sorted() {
            guard let file = files[path] else { continue }
            var data = file.durable
            for write in file.pending where write.count > 0 {
                let kept: Int
                switch Int.random(in: 0..<4, using: &generator) {
                case 0, 1: kept = write.count
                case 2: kept = 0
                default: kept = Int.random(in: 0..<write.count, using: &generator)
                }
                guard kept > 0 else { continue }
                if data.count < write.offset + kept {
                    data.append(contentsOf: repeatElement(0, count: write.offset + kept - data.count))
                }
                for index in 0..<kept { data[write.offset + index] = file.data[write.offset + index] }
            }
            disk.files[path] = File(data: data, durable: data, pending: [])
        }
        return disk
    }
}
