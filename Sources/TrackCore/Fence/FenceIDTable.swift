/// The ids of the fences read so far, so a repeated one is refused: their bytes one after the
/// other and an open-addressing hash table of their numbers, about 12 bytes a fence besides the
/// ids themselves (a dictionary of byte arrays cost some 100).
///
/// Example: `insert("home", number: 0)` → nil; `insert("home", number: 3)` → 0.
struct FenceIDTable {
    var bytes: [UInt8] = []
    /// Where each id ends in `bytes`, and the feature number it came with, in insertion order.
    var ends: [UInt32] = []
    var numbers: [Int32] = []
    /// Index + 1 into `ends` of the id hashed there, 0 for none; a power of two long.
    var slots: [Int32] = []

    /// The number `id` came with first, or nil after remembering it with `number`.
    mutating func insert(_ id: String, number: Int) -> Int? {
        if 2 * (ends.count + 1) > slots.count { grow() }
        let mask = slots.count - 1
        var slot = FenceIDTable.hash(id.utf8) & mask
        while slots[slot] != 0 {
            let entry = Int(slots[slot]) - 1
            if bytes[range(entry)].elementsEqual(id.utf8) { return Int(numbers[entry]) }
            slot = (slot + 1) & mask
        }
        bytes.append(contentsOf: id.utf8)
        ends.append(UInt32(bytes.count))
        numbers.append(Int32(number))
        slots[slot] = Int32(ends.count)
        return nil
    }

    func range(_ entry: Int) -> Range<Int> {
        (entry == 0 ? 0 : Int(ends[entry - 1]))..<Int(ends[entry])
    }

    /// Twice the slots (at least 64), every id placed again.
    mutating func grow() {
        slots = [Int32](repeating: 0, count: max(64, 2 * slots.count))
        let mask = slots.count - 1
        for entry in ends.indices {
            var slot = FenceIDTable.hash(bytes[range(entry)]) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(entry + 1)
        }
    }

    /// FNV-1a of the bytes.
    static func hash<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> Int {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return Int(truncatingIfNeeded: hash >> 1)
    }
}
