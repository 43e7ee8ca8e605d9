/// The command side of a simulated receiver: what it does with the bytes written to it and
/// what it answers, as the real part does (`trackctl simulate --receiver …`).
///
/// * `ubloxM8`: UBX legacy CFG-MSG, CFG-RATE, CFG-PRT, CFG-RXM answered by ACK-ACK; CFG-VALSET
///   and unknown CFG messages by ACK-NAK; MON-VER polled (PROTVER 18.00); RXM-PMREQ sleeps
///   until a byte arrives (the bytes that wake it are lost, as on UART RX).
/// * `ubloxM10`: CFG-VALSET answered by ACK-ACK, or by ACK-NAK when any key is unknown (none is
///   then applied); the legacy CFG messages by ACK-NAK; PROTVER 34.10; RXM-PMREQ sleeps only
///   with the force flag (UBX-21035062).
/// * `mediatek`: PMTK220/300, 314, 161, 225, 605 answered by `$PMTK001,<command>,<flag>` or
///   PMTK705; PMTK251 switches without an answer; standby ends at any byte with
///   `$PMTK010,002`; other PMTK commands flag 1 (unsupported).
/// * `quectel` (LC29H, Airoha inside): PAIR050, 062, 864, 650 answered by `$PAIR001`; PQTMVERNO
///   answered; PAIR864 answers at the old baud and then switches; backup is left only by a
///   restart (Quectel wakes it by a pin); other PAIR commands result 3.
/// * `silent`: takes nothing, answers nothing — a receiver that ignores everything.
///
/// A baud change takes effect after the answers already given (the caller writes `replies`
/// at the old rate, then reads `baud`). Fixed buffers: nothing allocates.
public struct SimulatedReceiver: Sendable {
    /// Which receiver to be.
    public enum Model: String, CaseIterable, Equatable, Sendable {
        case ubloxM8 = "ublox-m8"
        case ubloxM10 = "ublox-m10"
        case mediatek
        case quectel
        case silent
    }

    /// The model.
    public let model: Model
    /// The UART rate the receiver sends and listens at.
    public internal(set) var baud: Int
    /// Time between fixes in ms, as last told (1000 at start).
    public internal(set) var fixIntervalMilliseconds = 1000
    /// The sentences and their intervals in epochs, once told anything about them; nil: the
    /// stock set the simulator sends by itself.
    public internal(set) var sentences: SentenceRates?
    /// True while asleep (no output).
    public internal(set) var isAsleep = false
    /// The receiver's own power save (PSM, PMTK225), as last told.
    public internal(set) var powerSave = false
    /// Commands taken (acknowledged or acted on) and refused so far.
    public internal(set) var commandsTaken = 0
    /// Commands refused (NAK, a PMTK001 flag other than 3, a PAIR001 result other than 0).
    public internal(set) var commandsRefused = 0
    /// A receiver whose UART stays at its baud whatever it is told (as a Quectel L80 after a
    /// cold start, or a module behind a level shifter that cannot take the rate): it takes a
    /// baud command as usual, and goes on at its old rate.
    public var keepsBaud = false

    /// Frames the text commands written to the receiver.
    var input = NMEAReceiver()
    var frames = UBXFrameReader()
    var collecting = false
    /// A baud change to make once the answers so far are out.
    var pendingBaud: Int?

    /// A receiver of `model` at `baud`.
    public init(_ model: Model, baud: Int = 9600) {
        self.model = model
        self.baud = baud
    }

    /// The stock sentence set as rates (RMC, VTG, GGA, GSA, GSV, GLL every epoch), the start
    /// of `sentences` once the receiver is told about one of them.
    public static var stockSentences: SentenceRates { SentenceRates(gga: 1, gll: 1, gsa: 1, gsv: 1, rmc: 1, vtg: 1) }

    /// A byte sent at one rate and read at another: a framing error's worth of noise, never an
    /// NMEA character (`0x80` and up), e.g. `$` → 0xA4.
    public static func garbled(_ byte: UInt8) -> UInt8 { 0x80 | (byte &* 0x25 &+ 0x11) }

    /// What the receiver prints when it starts (and after waking from backup): u-blox's TXT
    /// banner, MediaTek's PMTK011 and PMTK010,001.
    public func writeStartUp(to replies: inout TextBuffer) {
        switch model {
        case .ubloxM8:
            for line: StaticString in ["GNTXT,01,01,02,u-blox AG - www.u-blox.com", "GNTXT,01,01,02,HW UBX-M8030 00080000",
                                       "GNTXT,01,01,02,ROM CORE 3.01 (107888)", "GNTXT,01,01,02,PROTVER=18.00",
                                       "GNTXT,01,01,02,MOD=NEO-M8N-0"] {
                Self.writeSentence(line, to: &replies)
            }
        case .ubloxM10:
            for line: StaticString in ["GNTXT,01,01,02,u-blox AG - www.u-blox.com",
                                       "GNTXT,01,01,02,HW UBX-M10050-KB 000A0000", "GNTXT,01,01,02,ROM SPG 5.10 (7b202e)",
                                       "GNTXT,01,01,02,PROTVER=34.10", "GNTXT,01,01,02,MOD=MAX-M10S"] {
                Self.writeSentence(line, to: &replies)
            }
        case .mediatek:
            Self.writeSentence("PMTK011,MTKGPS", to: &replies)
            Self.writeSentence("PMTK010,001", to: &replies)
        case .quectel, .silent:
            break
        }
    }

    /// Takes bytes written to the receiver; appends its answers to `replies`. Afterwards
    /// `baud`, `fixIntervalMilliseconds`, `sentences`, `isAsleep` say what changed.
    public mutating func receive(_ bytes: UnsafeRawBufferPointer, replies: inout TextBuffer) {
        settle()
        guard model != .silent, !bytes.isEmpty else { return }
        if isAsleep {
            wakeByUART(&replies)
            return
        }
        var offset = 0
        while offset < bytes.count {
            if collecting {
                let byte = bytes[offset]
                offset += 1
                switch frames.consume(byte) {
                case .more: continue
                case .frame:
                    collecting = false
                    takeFrame(&replies)
                case .rejected:
                    collecting = false
                }
                continue
            }
            switch input.nextStop(bytes, from: &offset) {
            case .end, .fix, .sentence: continue
            case .binaryStart:
                collecting = true
                frames.begin()
            case .reply:
                // A copy: the sentence is read while the receiver's state changes.
                var sentence = input.framer.sentence
                takeText(&sentence, &replies)
            }
        }
    }

    /// Makes the baud change an answered command asked for (the caller has written the answer).
    public mutating func settle() {
        if let baud = pendingBaud, !keepsBaud { self.baud = baud }
        pendingBaud = nil
    }

    /// A byte on UART RX wakes a u-blox in backup and a MediaTek in standby; what woke it is
    /// lost. A PAIR receiver is not woken by the UART.
    mutating func wakeByUART(_ replies: inout TextBuffer) {
        switch model {
        case .ubloxM8, .ubloxM10:
            isAsleep = false
            writeStartUp(to: &replies)
        case .mediatek:
            isAsleep = false
            Self.writeSentence("PMTK010,002", to: &replies)
        case .quectel, .silent:
            break
        }
    }

    /// `$` body `*hh` CR LF.
    static func writeSentence(_ body: StaticString, to buffer: inout TextBuffer) {
        let start = NMEASimulator.begin(body, &buffer)
        NMEASimulator.end(from: start, &buffer)
    }

    mutating func taken() { commandsTaken += 1 }
    mutating func refused() { commandsRefused += 1 }
}
