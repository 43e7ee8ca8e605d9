import TrackCore
import TrackIO

/// gpsd's JSON protocol for the other programs on the board (gpspipe, cgps, gpxlogger, python's
/// gps module, anything built on libgps): the server's sockets (none when `[gpsd] listen` is
/// empty), the receiver as DEVICES shows it, the last epoch for `?POLL`. Each wake-up it
/// accepts, reads and answers its clients as gpsd 3.22 does; each epoch goes out as TPV and
/// SKY, and each sentence the receiver core verified goes raw to the `"nmea":true` watchers,
/// as the permission lets them out (`Fix.disclosed`: nothing of the position when withheld,
/// the snapped position only when approximate; no raw sentences unless precise, since a
/// sentence carries the precise position). Everything is allocated at start; serving a fix
/// allocates nothing.
struct GpsdService: ~Copyable {
    /// Longest sentence passed on raw, `$` to the checksum: gpsd drops sentences over 130
    /// characters too, so no client expects longer ones.
    static var sentenceCapacity: Int { 130 }

    /// Without listeners when the service is off (`[gpsd] listen` empty, or no address could
    /// be bound).
    var server: GpsdServer
    var device: GpsdDeviceInfo
    /// The receiver's opens when `device.activated` was set.
    var deviceOpens = 0
    /// The last epoch as the receiver gave it; disclosed when a POLL asks for it.
    var lastFix: Fix?
    /// Whether verified sentences go to the raw watchers during this read: one is connected
    /// and precise tracking is allowed (`prepareSentences`).
    var forwarding = false
    /// TPV and SKY objects and sentences sent (each counted once, however many clients got it).
    var published = 0
    /// True while it listens.
    let isOn: Bool

    /// The service on `server`, the receiver named `devicePath` in DEVICES and TPV.
    init(_ server: consuming GpsdServer, devicePath: String) {
        isOn = server.listenerCount > 0
        self.server = server
        device = GpsdDeviceInfo(path: GpsdDevicePath(devicePath), baud: nil, activated: nil, seenSentences: false)
    }


    /// The listeners, then the clients (writable while output waits), from `slots.lowerBound`.
    func arm(_ loop: inout EventLoop, slots: Range<Int>) {
        guard isOn else { return }
        for index in 0..<TrackdConfig.Gpsd.maxListeners {
            loop.watch(slots.lowerBound + index, server.listener(index))
        }
        for index in 0..<(server.capacity) {
            loop.watch(slots.lowerBound + TrackdConfig.Gpsd.maxListeners + index, server.descriptor(of: index),
                       writable: server.hasPendingOutput(index))
        }
    }

    /// Accepts new clients, sends what waits for writable ones and answers every complete
    /// request (at most 64 per client per wake-up: its input holds 128 bytes).
    mutating func serve<Source: ReceiverSource & ~Copyable>(
        _ loop: borrowing EventLoop, slots: Range<Int>, wake: Wake, receiver: borrowing ReceiverService<Source>
    ) {
        guard isOn else { return }
        for index in 0..<TrackdConfig.Gpsd.maxListeners where loop.isReady(slots.lowerBound + index) {
            server.acceptClients(on: index)
        }
        for index in 0..<(server.capacity) {
            let slot = slots.lowerBound + TrackdConfig.Gpsd.maxListeners + index
            if loop.isWritable(slot) { server.flush(index) }
            guard loop.isReady(slot) else { continue }
            server.readInput(index)
            requests: for _ in 0..<64 {
                switch server.nextInput(index) {
                case .nothing:
                    break requests
                case .overlong:
                    var reply = TextBuffer()
                    GpsdJSON.writeError("Request too long", to: &reply)
                    server.send(index, &reply)
                case .request(let line):
                    answer(line, client: index, wake: wake, receiver: receiver)
                }
            }
        }
    }

    /// Answers one request of client `index` as gpsd 3.22 does.
    mutating func answer<Source: ReceiverSource & ~Copyable>(
        _ line: GpsdRequestLine, client index: Int, wake: Wake, receiver: borrowing ReceiverService<Source>
    ) {
        let source = receiver.sourceStatus
        refreshDevice(source, seenSentences: receiver.seenSentences, wake: wake)
        var reply = TextBuffer()
        switch line.withSpan({ GpsdRequest.parse($0) }) {
        case .version:
            GpsdJSON.writeVersion(to: &reply)
        case .devices:
            GpsdJSON.writeDevices(source.isOpen ? device : nil, to: &reply)
        case .watch(let change):
            if !change.device.isEmpty, change.device != device.path {
                GpsdJSON.writeNoSuchDevice(change.device, to: &reply)
                break
            }
            var watch = server.watch(index)
            watch.apply(change)
            server.setWatch(index, watch)
            GpsdJSON.writeDevices(source.isOpen ? device : nil, to: &reply)
            server.send(index, &reply)
            reply.removeAll()
            GpsdJSON.writeWatch(watch, to: &reply)
        case .poll:
            let shown = lastFix.map { $0.disclosed(wake.disclosure) }
            GpsdJSON.writePoll(time: wake.utc, active: source.isOpen, fix: shown, sky: receiver.sky,
                               positions: wake.disclosure.allowsPosition, device: device.path, to: &reply)
        case .unknown:
            line.withSpan { GpsdJSON.writeUnrecognized($0, to: &reply) }
        }
        server.send(index, &reply)
    }

    /// The receiver as DEVICES describes it: its baud, and when it was (re)opened.
    mutating func refreshDevice(_ source: SourceStatus, seenSentences: Bool, wake: Wake) {
        device.baud = source.baud
        device.seenSentences = seenSentences
        if source.opens != deviceOpens {
            deviceOpens = source.opens
            device.activated = wake.utc
        }
    }

    /// One epoch to the JSON watchers: TPV, then SKY, as `wake`'s disclosure lets them out.
    mutating func publish(_ fix: borrowing Fix, sky: borrowing SkyView, wake: Wake) {
        guard isOn else { return }
        lastFix = copy fix
        let shown = fix.disclosed(wake.disclosure)
        var object = TextBuffer()
        GpsdJSON.writeTPV(shown, device: device.path, to: &object)
        broadcast(&object)
        GpsdJSON.writeSKY(shown, sky: sky, positions: wake.disclosure.allowsPosition, device: device.path,
                          through: &object) { broadcast(&$0) }
    }

    /// Sends `object` to every client watching TPV and SKY.
    mutating func broadcast(_ object: inout TextBuffer) {
        // A truncated object would be a broken line to every client: none is sent.
        guard object.count > 0, !object.overflowed else { return }
        published += 1
        for index in 0..<server.capacity where server.descriptor(of: index) != nil && server.watch(index).wantsJSON {
            server.send(index, &object)
        }
    }

    /// Before a read: whether its sentences go to the raw watchers (one is connected, and
    /// `wake` allows precise tracking).
    mutating func prepareSentences(_ wake: Wake) {
        forwarding = false
        guard wake.disclosure == .precise else { return }
        for index in 0..<server.capacity where server.descriptor(of: index) != nil && server.watch(index).wantsSentences {
            forwarding = true
        }
    }
}

extension GpsdService: NMEASentenceSink {
    var wantsSentences: Bool { forwarding }

    /// A sentence the receiver core verified, to every raw watcher, CRLF-terminated as gpsd
    /// sends it (`$GPGGA,…*47\r\n`); one over gpsd's 130 characters is not passed on.
    mutating func take(_ sentence: borrowing NMEASentence, checksum: UInt8) {
        guard forwarding, sentence.count + 4 <= Self.sentenceCapacity else { return }
        published += 1
        sentence.withBody { body in
            for index in 0..<server.capacity where server.descriptor(of: index) != nil && server.watch(index).wantsSentences {
                server.send(index, sentence: body, checksum: checksum)
            }
        }
    }
}

extension GpsdService {
    /// What status shows of the service; nil when it is off.
    var facts: StatusModel.GpsdFacts? {
        guard isOn else { return nil }
        var json = 0, sentences = 0
        for index in 0..<(server.capacity) where server.descriptor(of: index) != nil {
            let watch = server.watch(index)
            if watch.wantsJSON { json += 1 }
            if watch.wantsSentences { sentences += 1 }
        }
        return StatusModel.GpsdFacts(
            addresses: server.addresses, connected: server.connectedCount, watchingJSON: json, watchingSentences: sentences,
            accepted: server.accepted, refused: server.refused, dropped: server.dropped,
            lostObjects: server.lostObjects, overlongRequests: server.overlongRequests)
    }
}
