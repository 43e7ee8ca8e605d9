/// The u-blox models' answers to UBX frames.
extension SimulatedReceiver {
    mutating func takeFrame(_ replies: inout TextBuffer) {
        let id = frames.messageID
        let length = frames.payloadCount
        guard model == .ubloxM8 || model == .ubloxM10 else { return }
        if id == .monVer && length == 0 {
            writeVersion(&replies)
            taken()
            return
        }
        if id == .rxmPmreq {
            // M10: only with the force flag (bit 2) of the 16-byte version.
            let force = length == 16 && frames.withPayload { $0[8] } & 0x04 != 0
            if model == .ubloxM8 || force { isAsleep = true }
            taken()
            return
        }
        guard id.messageClass == 0x06 else { return }
        let accepted = model == .ubloxM8 ? takeLegacy(id, length) : (id == .cfgValset && takeValset(length))
        writeAcknowledgement(id, accepted: accepted, &replies)
        if accepted { taken() } else { refused() }
    }

    /// CFG-MSG, CFG-RATE, CFG-PRT, CFG-RXM as the M8 takes them; false to refuse.
    mutating func takeLegacy(_ id: UBXMessageID, _ length: Int) -> Bool {
        switch id {
        case .cfgMsg where length == 3 || length == 8:
            // Three bytes: the rate on this port; eight: one per port, UART1 the second.
            let (messageClass, messageID, rate) = frames.withPayload { ($0[0], $0[1], $0[length == 3 ? 2 : 3]) }
            if messageClass == 0xF0, let sentence = NMEAOutputSentence.allCases.first(where: { $0.ubxID == messageID }) {
                setRate(sentence, Int(rate))
            }
            return true
        case .cfgRate where length == 6:
            let interval = frames.withPayload { Int($0[0]) | Int($0[1]) << 8 }
            guard interval >= 50 else { return false }
            fixIntervalMilliseconds = interval
            return true
        case .cfgPrt where length == 20:
            let (port, baud) = frames.withPayload { payload in
                (payload[0], Int(payload[8]) | Int(payload[9]) << 8 | Int(payload[10]) << 16 | Int(payload[11]) << 24)
            }
            guard port == 1, baud > 0 else { return false }
            pendingBaud = baud
            return true
        case .cfgRxm where length == 2:
            powerSave = frames.withPayload { $0[1] } == 1
            return true
        default:
            return false
        }
    }

    /// CFG-VALSET as the M10 takes it: every key known, or nothing applied.
    mutating func takeValset(_ length: Int) -> Bool {
        guard length >= 4 else { return false }
        // Check every item first: one unknown key refuses the whole message.
        var offset = 4
        while offset < length {
            guard offset + 4 <= length else { return false }
            let key = UBXConfigKey(rawValue: frames.withPayload { Self.u32($0, offset) })
            guard let size = key.valueByteCount, offset + 4 + size <= length, known(key) else { return false }
            offset += 4 + size
        }
        offset = 4
        while offset < length {
            let key = UBXConfigKey(rawValue: frames.withPayload { Self.u32($0, offset) })
            let size = key.valueByteCount ?? 1
            let value = frames.withPayload { payload in
                var value = 0
                for index in 0..<min(size, 4) { value |= Int(payload[offset + 4 + index]) << (8 * index) }
                return value
            }
            apply(key, value)
            offset += 4 + size
        }
        return true
    }

    func known(_ key: UBXConfigKey) -> Bool {
        key == .uart1Baudrate || key == .rateMeasurement || key == .rateNavigation || key == .powerOperateMode
            || NMEAOutputSentence.allCases.contains { $0.ubxUART1RateKey == key }
    }

    mutating func apply(_ key: UBXConfigKey, _ value: Int) {
        if key == .uart1Baudrate {
            pendingBaud = value
        } else if key == .rateMeasurement {
            fixIntervalMilliseconds = max(value, 25)
        } else if key == .powerOperateMode {
            powerSave = value != 0
        } else if let sentence = NMEAOutputSentence.allCases.first(where: { $0.ubxUART1RateKey == key }) {
            setRate(sentence, value)
        }
    }

    mutating func setRate(_ sentence: NMEAOutputSentence, _ everyEpochs: Int) {
        var rates = sentences ?? Self.stockSentences
        rates[sentence] = everyEpochs
        sentences = rates
    }

    static func u32(_ bytes: Span<UInt8>, _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
            | UInt32(bytes[offset + 3]) << 24
    }

    /// ACK-ACK or ACK-NAK naming `id`.
    func writeAcknowledgement(_ id: UBXMessageID, accepted: Bool, _ replies: inout TextBuffer) {
        let start = Self.beginFrame(accepted ? .ackAck : .ackNak, &replies)
        replies.append(id.messageClass)
        replies.append(id.id)
        Self.endFrame(from: start, &replies)
    }

    /// MON-VER: software and hardware version, the PROTVER and MOD extensions.
    func writeVersion(_ replies: inout TextBuffer) {
        let m8 = model == .ubloxM8
        let start = Self.beginFrame(.monVer, &replies)
        Self.field(m8 ? "ROM CORE 3.01 (107888)" : "ROM SPG 5.10 (7b202e)", 30, &replies)
        Self.field(m8 ? "00080000" : "000A0000", 10, &replies)
        Self.field(m8 ? "FWVER=SPG 3.01" : "FWVER=SPG 5.10", 30, &replies)
        Self.field(m8 ? "PROTVER=18.00" : "PROTVER=34.10", 30, &replies)
        Self.field(m8 ? "MOD=NEO-M8N-0" : "MOD=MAX-M10S", 30, &replies)
        Self.endFrame(from: start, &replies)
    }

    static func field(_ text: StaticString, _ width: Int, _ buffer: inout TextBuffer) {
        buffer.append(text)
        for _ in text.utf8CodeUnitCount..<width { buffer.append(0) }
    }

    /// `B5 62`, class, id and a length to be filled in; where the frame starts.
    static func beginFrame(_ id: UBXMessageID, _ buffer: inout TextBuffer) -> Int {
        let start = buffer.count
        buffer.append(UBXFrame.sync1)
        buffer.append(UBXFrame.sync2)
        buffer.append(id.messageClass)
        buffer.append(id.id)
        buffer.append(0)
        buffer.append(0)
        return start
    }

    /// Fills in the length and appends the checksum.
    static func endFrame(from start: Int, _ buffer: inout TextBuffer) {
        guard !buffer.overflowed else { return }
        let length = buffer.count - start - 6
        buffer.storage[start + 4] = UInt8(truncatingIfNeeded: length)
        buffer.storage[start + 5] = UInt8(truncatingIfNeeded: length >> 8)
        let sum = buffer.withBytes { bytes in UBXFrame.checksum(bytes.extracting((start + 2)..<bytes.count)) }
        buffer.append(sum.a)
        buffer.append(sum.b)
    }
}
