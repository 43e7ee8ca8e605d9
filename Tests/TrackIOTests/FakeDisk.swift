import TrackCore
import TrackIO

/// A disk that keeps what was written apart from what is durable, and can lose power.
///
/// File content is durable only after `sync`; names (create, rename) only after
/// `syncDirectory`. `stepsBeforePowerCut` lets that many mutating steps happen (a write counts as
/// two: each half of the bytes), then every step fails with EIO; `powerCut()` throws away all
/// that was not durable, as the worst case of a real file system would.
struct FakeDisk: StateFileStorage {
    struct Inode {
        var data: [UInt8] = []
        var durable: [UInt8] = []
    }

    var inodes: [Int: Inode] = [:]
    var names: [String: Int] = [:]
    var durableNames: [String: Int] = [:]
    var stepsBeforePowerCut: Int?
    var steps: [String] = []
    var nextInode = 1

    private mutating func step(_ name: String) throws(Errno) {
        if let left = stepsBeforePowerCut {
            guard left > 0 else { throw Errno.ioError }
            stepsBeforePowerCut = left - 1
        }
        steps.append(name)
    }

    mutating func readAll(_ path: String) throws(Errno) -> [UInt8] {
        guard let inode = names[path], let file = inodes[inode] else { throw Errno.noSuchFile }
        return file.data
    }

    mutating func create(_ path: String) throws(Errno) -> Int {
        try step("create \(path)")
        if let inode = names[path] {
            inodes[inode]?.data = []
            return inode
        }
        let inode = nextInode
        nextInode += 1
        inodes[inode] = Inode()
        names[path] = inode
        return inode
    }

    mutating func write(_ bytes: [UInt8], to handle: Int) throws(Errno) {
        let half = bytes.count / 2
        try step("write first half")
        inodes[handle]?.data.append(contentsOf: bytes[..<half])
        try step("write second half")
        inodes[handle]?.data.append(contentsOf: bytes[half...])
    }

    mutating func sync(_ handle: Int) throws(Errno) {
        try step("fsync")
        if let data = inodes[handle]?.data { inodes[handle]?.durable = data }
    }

    mutating func close(_ handle: Int) throws(Errno) {
        try step("close")
    }

    mutating func rename(_ source: String, to destination: String) throws(Errno) {
        try step("rename")
        guard let inode = names[source] else { throw Errno.noSuchFile }
        names[destination] = inode
        names[source] = nil
    }

    mutating func syncDirectory(_ path: String) throws(Errno) {
        try step("fsync \(path)")
        durableNames = names
    }

    /// Everything not durable is gone; the disk works again.
    mutating func powerCut() {
        names = durableNames
        for key in Array(inodes.keys) {
            let durable = inodes[key]?.durable ?? []
            inodes[key]?.data = durable
        }
        stepsBeforePowerCut = nil
    }

    /// A disk holding `bytes` durably at `path`.
    static func holding(_ bytes: [UInt8], at path: String) -> FakeDisk {
        var disk = FakeDisk()
        disk.inodes[99] = Inode(data: bytes, durable: bytes)
        disk.names[path] = 99
        disk.durableNames[path] = 99
        return disk
    }
}
