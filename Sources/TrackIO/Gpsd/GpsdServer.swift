import CLinux
import TrackCore

/// The TCP side of gpsd's protocol: listeners on the configured addresses and a fixed number of
/// client slots, each with fixed input and output buffers allocated at start.
///
/// No client can hurt the loop: everything is non-blocking; an object that does not fit in a
/// client's output buffer (it stopped reading) is lost and counted, and after `lossLimit`
/// objects lost in a row the client is closed; requests longer than gpsd's 80 bytes are
/// answered with an ERROR and skipped; a client sending bytes that are no requests is closed
/// after `garbageLimit` of them. Nothing here allocates after `init`.
public struct GpsdServer: ~Copyable {
    /// Output a client may have waiting: four epochs of the largest SKYs one epoch sends (a
    /// multi-constellation receiver's epoch is about 16 KB, a SKY at a time).
    public static var outputCapacity: Int { 65_536 }
    /// Input held while a request is incomplete: gpsd's longest request (80 bytes) and its end.
    public static var inputCapacity: Int { 128 }
    /// Objects lost in a row before a client that does not read is closed.
    public static var lossLimit: Int { 64 }
    /// Bytes outside requests a client may send before it is closed.
    public static var garbageLimit: Int { 4_096 }

    /// The addresses that were bound, in the order configured, and their listeners.
    public let addresses: [ListenAddress]
    let listeners: [FileDescriptor]
    /// Addresses that could not be bound and why (for the journal at start).
    public let failures: [(address: ListenAddress, error: Errno)]
    var clients: [Client]
    /// Clients accepted, refused (every slot busy), closed for misbehaving (not reading,
    /// garbage) and objects lost to full buffers, since start.
    public internal(set) var accepted = 0
    public internal(set) var refused = 0
    public internal(set) var dropped = 0
    public internal(set) var lostObjects = 0
    public internal(set) var overlongRequests = 0

    struct Client {
        var descriptor: FileDescriptor?
        let input: UnsafeMutableRawBufferPointer
        var inputCount = 0
        /// True while the rest of an overlong request is being skipped.
        var skipping = false
        let output: UnsafeMutableRawBufferPointer
        var outputStart = 0
        var outputEnd = 0
        var watch = GpsdWatch()
        var lostInARow = 0
        var lost = 0
        var garbage = 0
    }

    /// Listens on each of `addresses` that can be bound, with `capacity` client slots (at
    /// least 1); with no addresses, a server that is off: no sockets, no slots, no buffers.
    public init(addresses: [ListenAddress], capacity: Int) {
        var bound: [ListenAddress] = []
        var fds: [FileDescriptor] = []
        var failed: [(address: ListenAddress, error: Errno)] = []
        for address in addresses {
            var bytes = address.bytes
            let fd = bytes.mutableSpan.withUnsafeBufferPointer { raw in
                clinux_tcp_listen(address.isIPv6 ? 1 : 0, raw.baseAddress, address.port, 16)
            }
            if fd < 0 {
                failed.append((address, Errno.current))
            } else {
                bound.append(address)
                fds.append(FileDescriptor(rawValue: fd))
            }
        }
        self.addresses = bound
        listeners = fds
        failures = failed
        clients = []
        let slots = addresses.isEmpty ? 0 : max(capacity, 1)
        clients.reserveCapacity(slots)
        for _ in 0..<slots {
            clients.append(Client(input: .allocate(byteCount: Self.inputCapacity, alignment: 16),
                                  output: .allocate(byteCount: Self.outputCapacity, alignment: 16)))
        }
    }

    deinit {
        for index in clients.indices {
            if let descriptor = clients[index].descriptor { try? descriptor.close() }
            clients[index].input.deallocate()
            clients[index].output.deallocate()
        }
        for listener in listeners { try? listener.close() }
    }

    /// Client slots.
    public var capacity: Int { clients.count }
    /// Listeners bound.
    public var listenerCount: Int { listeners.count }
    /// Listener `index`'s descriptor.
    public func listener(_ index: Int) -> FileDescriptor? { index < listeners.count ? listeners[index] : nil }
    /// Client `index`'s descriptor, if connected.
    public func descriptor(of index: Int) -> FileDescriptor? { clients[index].descriptor }
    /// True when client `index` has output waiting for the socket.
    public func hasPendingOutput(_ index: Int) -> Bool {
        clients[index].descriptor != nil && clients[index].outputStart < clients[index].outputEnd
    }
    /// What client `index` watches.
    public func watch(_ index: Int) -> GpsdWatch { clients[index].watch }
    /// Changes what client `index` watches.
    public mutating func setWatch(_ index: Int, _ watch: GpsdWatch) { clients[index].watch = watch }
    /// Clients connected.
    public var connectedCount: Int { clients.reduce(0) { $0 + ($1.descriptor != nil ? 1 : 0) } }

    /// Accepts waiting connections on listener `index` into free slots, greeting each with
    /// VERSION as gpsd does; closes the rest at once.
    public mutating func acceptClients(on index: Int) {
        guard let listener = listener(index) else { return }
        while true {
            let fd = clinux_accept(listener.rawValue)
            if fd < 0 { return }
            let connection = FileDescriptor(rawValue: fd)
            guard let slot = freeSlot() else {
                refused += 1
                try? connection.close()
                continue
            }
            accepted += 1
            clients[slot].descriptor = connection
            clients[slot].inputCount = 0
            clients[slot].skipping = false
            clients[slot].outputStart = 0
            clients[slot].outputEnd = 0
            clients[slot].watch = GpsdWatch()
            clients[slot].lostInARow = 0
            clients[slot].lost = 0
            clients[slot].garbage = 0
            var greeting = TextBuffer()
            GpsdJSON.writeVersion(to: &greeting)
            send(slot, &greeting)
        }
    }

    func freeSlot() -> Int? {
        for index in clients.indices where clients[index].descriptor == nil { return index }
        return nil
    }

    /// Queues one whole object for client `index` and sends what the socket takes now. An
    /// object that does not fit is lost and counted; too many in a row close the client.
    public mutating func send(_ index: Int, _ object: inout TextBuffer) {
        object.withBytes { bytes in
            guard reserve(index, bytes.count) else { return }
            append(index, bytes)
        }
        flush(index)
    }

    /// Queues one sentence for a raw NMEA watcher as gpsd sends it, `$`, the body, `*`, the
    /// checksum in upper-case hex and CR LF (e.g. `$GPGGA,…*47\r\n`), and sends what the socket
    /// takes now; lost and counted like an object when it does not fit.
    public mutating func send(_ index: Int, sentence body: Span<UInt8>, checksum: UInt8) {
        let digits: StaticString = "0123456789ABCDEF"
        let tail: InlineArray<5, UInt8> = [UInt8(ascii: "*"), digits.utf8Start[Int(checksum >> 4)],
                                           digits.utf8Start[Int(checksum & 0xF)], 0x0D, 0x0A]
        guard reserve(index, body.count + 6) else { return }
        let dollar: InlineArray<1, UInt8> = [UInt8(ascii: "$")]
        append(index, dollar.span)
        append(index, body)
        append(index, tail.span)
        flush(index)
    }

    /// True when `length` more bytes fit in client `index`'s output (made room for by moving
    /// what is unsent to the front); else the object is lost and counted, and after
    /// `lossLimit` in a row the client is closed.
    mutating func reserve(_ index: Int, _ length: Int) -> Bool {
        guard clients[index].descriptor != nil else { return false }
        if clients[index].outputEnd + length > Self.outputCapacity, clients[index].outputStart > 0 { compact(index) }
        guard clients[index].outputEnd + length <= Self.outputCapacity else {
            lostObjects += 1
            clients[index].lost += 1
            clients[index].lostInARow += 1
            if clients[index].lostInARow >= Self.lossLimit {
                dropped += 1
                disconnect(index)
            }
            return false
        }
        clients[index].lostInARow = 0
        return true
    }

    /// Copies `bytes` after client `index`'s output (room reserved).
    mutating func append(_ index: Int, _ bytes: Span<UInt8>) {
        for offset in bytes.indices { clients[index].output[clients[index].outputEnd + offset] = bytes[offset] }
        clients[index].outputEnd += bytes.count
    }

    /// Moves the unsent output to the front of the buffer.
    mutating func compact(_ index: Int) {
        let start = clients[index].outputStart, count = clients[index].outputEnd - start
        if count > 0, let base = clients[index].output.baseAddress { memmove(base, base + start, count) }
        clients[index].outputStart = 0
        clients[index].outputEnd = count
    }

    /// Sends what the socket of client `index` takes now.
    public mutating func flush(_ index: Int) {
        guard let descriptor = clients[index].descriptor else { return }
        while clients[index].outputStart < clients[index].outputEnd {
            let start = clients[index].outputStart
            let wrote = clinux_send(descriptor.rawValue, clients[index].output.baseAddress! + start,
                                    clients[index].outputEnd - start)
            if wrote < 0 {
                let error = Errno.current
                if error == .wouldBlock { return }
                if error == .interrupted { continue }
                disconnect(index)
                return
            }
            clients[index].outputStart += wrote
        }
        clients[index].outputStart = 0
        clients[index].outputEnd = 0
    }

    /// Closes client `index` and frees its slot.
    public mutating func disconnect(_ index: Int) {
        if let descriptor = clients[index].descriptor { try? descriptor.close() }
        clients[index].descriptor = nil
        clients[index].watch = GpsdWatch()
    }
}
