import TrackCore
import TrackIO

/// gpsd's protocol in the loop: clients accepted and greeted, their requests answered from the
/// services' state, and each epoch published as TPV and SKY, as the permission lets it out
/// (`Fix.disclosed`: nothing of the position when withheld, the snapped position only when
/// approximate). Sentences go out raw only while precise tracking is allowed: a sentence
/// carries the precise position. Nothing here allocates.
extension Daemon where Source: ~Copyable {
    mutating func serveGpsd(now: MonotonicTime) {
        guard gpsd != nil else { return }
        let slots = Slot.gpsd
        for index in 0..<TrackdConfig.Gpsd.maxListeners where loop.isReady(slots.lowerBound + index) {
            gpsd?.server.acceptClients(on: index)
        }
        let capacity = gpsd?.server.capacity ?? 0
        for index in 0..<capacity {
            let slot = slots.lowerBound + TrackdConfig.Gpsd.maxListeners + index
            if loop.isWritable(slot) { gpsd?.server.flush(index) }
            guard loop.isReady(slot) else { continue }
            gpsd?.server.readInput(index)
            // At most a buffer's worth of requests per wake-up: the input holds 128 bytes.
            for _ in 0..<64 {
                guard let input = gpsd?.server.nextInput(index) else { break }
                switch input {
                case .nothing:
                    break
                case .overlong:
                    var reply = TextBuffer()
                    GpsdJSON.writeError("Request too long", to: &reply)
                    gpsd?.server.send(index, &reply)
                    continue
                case .request(let line):
                    answerGpsd(line, client: index, now: now)
                    continue
                }
                break
            }
        }
    }

    /// Answers one request of client `index` as gpsd 3.22 does.
    mutating func answerGpsd(_ line: GpsdRequestLine, client index: Int, now: MonotonicTime) {
        guard gpsd != nil else { return }
        refreshGpsdDevice()
        var reply = TextBuffer()
        let request = line.withSpan { GpsdRequest.parse($0) }
        switch request {
        case .version:
            GpsdJSON.writeVersion(to: &reply)
        case .devices:
            writeDevices(&reply)
        case .watch(let change):
            if !change.device.isEmpty, let device = gpsd?.device.path, change.device != device {
                GpsdJSON.writeNoSuchDevice(change.device, to: &reply)
                break
            }
            var watch = gpsd?.server.watch(index) ?? GpsdWatch()
            watch.apply(change)
            gpsd?.server.setWatch(index, watch)
            writeDevices(&reply)
            gpsd?.server.send(index, &reply)
            reply.removeAll()
            GpsdJSON.writeWatch(watch, to: &reply)
        case .poll:
            let disclosure = disclosure(now: now)
            let shown = gpsd?.lastFix.map { $0.disclosed(disclosure) }
            let path = gpsd?.device.path ?? GpsdDevicePath()
            GpsdJSON.writePoll(
                time: utcNow, active: receiver.source.status.isOpen, fix: shown, sky: receiver.core.assembler.sky,
                positions: disclosure.allowsPosition, device: path, to: &reply)
        case .unknown:
            line.withSpan { GpsdJSON.writeUnrecognized($0, to: &reply) }
        }
        gpsd?.server.send(index, &reply)
    }

    mutating func writeDevices(_ reply: inout TextBuffer) {
        gpsd?.writeDevices(open: receiver.source.status.isOpen, to: &reply)
    }

    /// The receiver as DEVICES describes it: its baud, and when it was (re)opened.
    mutating func refreshGpsdDevice() {
        let status = receiver.source.status
        gpsd?.device.baud = status.baud
        gpsd?.device.seenSentences = receiver.core.counters.accepted > 0
        if status.opens != gpsd?.deviceOpens {
            let time = utcNow
            gpsd?.deviceOpens = status.opens
            gpsd?.device.activated = time
        }
    }

    /// One epoch to the JSON watchers: TPV, then SKY, as the permission lets them out.
    mutating func publishGpsd(_ fix: borrowing Fix, now: MonotonicTime) {
        guard gpsd != nil else { return }
        gpsd?.lastFix = copy fix
        guard let path = gpsd?.device.path else { return }
        let disclosure = disclosure(now: now)
        let shown = fix.disclosed(disclosure)
        var object = TextBuffer()
        GpsdJSON.writeTPV(shown, device: path, to: &object)
        gpsd?.broadcast(&object, sentences: false)
        object.removeAll()
        GpsdJSON.writeSKY(
            shown, sky: receiver.core.assembler.sky, positions: disclosure.allowsPosition, device: path, to: &object)
        gpsd?.broadcast(&object, sentences: false)
    }

    /// The bytes of the last receiver read, to the sentence watchers.
    mutating func forwardGpsdSentences(now: MonotonicTime) {
        guard gpsd != nil else { return }
        let bytes = UnsafeRawBufferPointer(rebasing: receiver.input[0..<receiver.inputCount])
        let allowed = disclosure(now: now) == .precise
        gpsd?.forwardSentences(bytes, allowed: allowed)
    }
}
