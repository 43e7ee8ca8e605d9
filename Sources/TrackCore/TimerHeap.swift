/// A fixed-size min-heap of deadlines on the monotonic clock, one slot per timer id, so the
/// loop's poll timeout is the earliest deadline and nothing is allocated after start-up.
///
/// Ids are small integers 0..<capacity chosen by the caller (e.g. 0 = source, 1 = watchdog);
/// scheduling an id that is already pending moves it.
public struct TimerHeap: Sendable {
    /// Most timers pending at once.
    public static var capacity: Int { 32 }

    var deadlines: InlineArray<32, MonotonicTime> = InlineArray(repeating: MonotonicTime(nanoseconds: 0))
    var ids: InlineArray<32, UInt8> = InlineArray(repeating: 0)
    /// Heap position of each id, or -1 when the id is not pending.
    var position: InlineArray<32, Int8> = InlineArray(repeating: -1)
    /// Number of pending timers.
    public private(set) var count = 0

    /// An empty heap.
    public init() {}

    /// True when timer `id` is pending.
    public func isPending(_ id: Int) -> Bool { position[id] >= 0 }

    /// The deadline of timer `id`, if pending.
    public func deadline(of id: Int) -> MonotonicTime? {
        let at = Int(position[id])
        return at >= 0 ? deadlines[at] : nil
    }

    /// The earliest pending deadline.
    public var earliest: MonotonicTime? { count > 0 ? deadlines[0] : nil }

    /// Sets timer `id` (0..<capacity) to fire at `deadline`, replacing any earlier setting.
    public mutating func schedule(_ id: Int, at deadline: MonotonicTime) {
        precondition(id >= 0 && id < Self.capacity, "timer id out of range")
        if position[id] >= 0 { cancel(id) }
        let at = count
        count += 1
        deadlines[at] = deadline
        ids[at] = UInt8(id)
        position[id] = Int8(at)
        siftUp(at)
    }

    /// Cancels timer `id` if pending.
    public mutating func cancel(_ id: Int) {
        let at = Int(position[id])
        guard at >= 0 else { return }
        position[id] = -1
        count -= 1
        guard at != count else { return }
        move(from: count, to: at)
        siftDown(at)
        siftUp(at)
    }

    /// Removes and returns the id of a timer whose deadline is at or before `now`.
    public mutating func popExpired(now: MonotonicTime) -> Int? {
        guard count > 0, deadlines[0] <= now else { return nil }
        let id = Int(ids[0])
        cancel(id)
        return id
    }

    mutating func move(from source: Int, to target: Int) {
        deadlines[target] = deadlines[source]
        ids[target] = ids[source]
        position[Int(ids[target])] = Int8(target)
    }

    mutating func swapAt(_ a: Int, _ b: Int) {
        let deadline = deadlines[a], id = ids[a]
        deadlines[a] = deadlines[b]
        ids[a] = ids[b]
        deadlines[b] = deadline
        ids[b] = id
        position[Int(ids[a])] = Int8(a)
        position[Int(ids[b])] = Int8(b)
    }

    mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard deadlines[child] < deadlines[parent] else { return }
            swapAt(child, parent)
            child = parent
        }
    }

    mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < count else { return }
            var smallest = left
            if left + 1 < count && deadlines[left + 1] < deadlines[left] { smallest = left + 1 }
            guard deadlines[smallest] < deadlines[parent] else { return }
            swapAt(parent, smallest)
            parent = smallest
        }
    }
}
