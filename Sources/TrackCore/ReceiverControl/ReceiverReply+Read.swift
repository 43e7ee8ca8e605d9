// Reading replies: from a UBX frame the reader holds, and from a sentence the NMEA framer
// verified. Pure functions of the bytes; nothing allocates.

extension ReceiverReply {
    /// The reply a complete UBX frame is, e.g. `B5 62 05 01 02 00 06 01 0F 38` →
    /// `.ubxAcknowledged(CFG-MSG)`.
    public init(frame reader: borrowing UBXFrameReader) {
        let id = reader.messageID
        let count = reader.payloadCount
        if id.messageClass == 0x05 && (id.id == 0x00 || id.id == 0x01) && count == 2 {
            let named = reader.withPayload { payload in UBXMessageID(payload[0], payload[1]) }
            self = id.id == 0x01 ? .ubxAcknowledged(named) : .ubxRefused(named)
            return
        }
        // MON-VER: swVersion (30), hwVersion (10), then extensions of 30 characters each.
        if id == .monVer && count >= 40 {
            self = .ubxVersion(reader.withPayload { payload in Self.version(payload) })
            return
        }
        self = .ubxMessage(id)
    }

    static func version(_ payload: Span<UInt8>) -> UBXVersion {
        var version = UBXVersion(software: ReplyText(payload, 0..<30), hardware: ReplyText(payload, 30..<40),
                                 protocolVersionHundredths: nil, module: nil)
        var start = 40
        while start + 30 <= payload.count {
            let extensionText = ReplyText(payload, start..<(start + 30))
            if version.protocolVersionHundredths == nil {
                version.protocolVersionHundredths = extensionText.hundredths(after: "PROTVER=")
                    ?? extensionText.hundredths(after: "PROTVER ")
            }
            if version.module == nil, let offset = extensionText.firstOffset(of: "MOD=") {
                version.module = ReplyText(payload, (start + offset + 4)..<(start + 30))
            }
            start += 30
        }
        return version
    }

    /// The reply a verified sentence is, nil when it is not one (a fix sentence, a
    /// proprietary sentence of no concern, or fields that do not read), e.g.
    /// `$PMTK001,314,3*36` → `.pmtkAcknowledgement(command: 314, flag: .done)`.
    public init?(sentence: inout NMEASentence) {
        switch sentence.type {
        case .txt:
            guard sentence.fieldCount >= 5, let decoded = try? TXT(decoding: &sentence) else { return nil }
            self = .text(ReplyText(decoded.text.span, 0..<decoded.length))
        case .proprietary:
            guard let reply = Self.proprietary(&sentence) else { return nil }
            self = reply
        default:
            return nil
        }
    }

    static func proprietary(_ sentence: inout NMEASentence) -> ReceiverReply? {
        if addressIs("PMTK001", &sentence) {
            guard let command = try? sentence.decimal(1, scale: 0, in: -1...9999),
                  let flag = try? sentence.integer(2, in: 0...99) else { return nil }
            return .pmtkAcknowledgement(command: Int(command), flag: PMTKFlag(flag))
        }
        if addressIs("PMTK705", &sentence) { return .pmtkRelease(rest(from: 1, &sentence)) }
        if addressIs("PMTK010", &sentence) {
            guard let message = try? sentence.integer(1, in: 0...999) else { return nil }
            return .pmtkSystem(message)
        }
        if addressIs("PMTK011", &sentence) { return .pmtkText(rest(from: 1, &sentence)) }
        if addressIs("PAIR001", &sentence) {
            guard let command = try? sentence.integer(1, in: 0...9999),
                  let result = try? sentence.integer(2, in: 0...99) else { return nil }
            return .pairAcknowledgement(command: command, result: PAIRResult(result))
        }
        if addressIs("PQVERNO", &sentence) { return .quectelVersion(rest(from: 1, &sentence)) }
        if addressIs("PQTMVERNO", &sentence) { return .quectelPairVersion(rest(from: 1, &sentence)) }
        guard startsWithPMTK(&sentence) else { return nil }
        return .pmtkMessage(pmtkNumber(&sentence))
    }

    /// True when the sentence's address is `name`, e.g. `PMTK001`.
    static func addressIs(_ name: StaticString, _ sentence: inout NMEASentence) -> Bool {
        let address = sentence.range(of: 0)
        guard address.count == name.utf8CodeUnitCount else { return false }
        let bytes = sentence.bytes.span
        for offset in 0..<address.count where bytes[address.lowerBound + offset] != name.utf8Start[offset] {
            return false
        }
        return true
    }

    /// The text from field `field` to the end, commas included; empty past the last field.
    static func rest(from field: Int, _ sentence: inout NMEASentence) -> ReplyText {
        guard field < sentence.fieldCount else { return ReplyText() }
        let start = sentence.range(of: field).lowerBound
        return ReplyText(sentence.bytes.span, start..<sentence.count)
    }

    /// True when the address starts with `PMTK`.
    static func startsWithPMTK(_ sentence: inout NMEASentence) -> Bool {
        let address = sentence.range(of: 0)
        guard address.count >= 4 else { return false }
        let bytes = sentence.bytes.span
        let start = address.lowerBound
        return bytes[start] == UInt8(ascii: "P") && bytes[start + 1] == UInt8(ascii: "M")
            && bytes[start + 2] == UInt8(ascii: "T") && bytes[start + 3] == UInt8(ascii: "K")
    }

    /// The number of a `PMTK<three digits>` address, nil for any other.
    static func pmtkNumber(_ sentence: inout NMEASentence) -> Int? { addressNumber(&sentence) }

    /// The three digits after the four letters of a seven-character address, e.g. 314 for
    /// `PMTK314`, 50 for `PAIR050`; nil when the address is not of that shape.
    static func addressNumber(_ sentence: inout NMEASentence) -> Int? {
        let address = sentence.range(of: 0)
        guard address.count == 7 else { return nil }
        let bytes = sentence.bytes.span
        let start = address.lowerBound
        var number = 0
        for offset in 4..<7 {
            let digit = bytes[start + offset]
            guard digit >= 48 && digit <= 57 else { return nil }
            number = number * 10 + Int(digit - 48)
        }
        return number
    }
}
