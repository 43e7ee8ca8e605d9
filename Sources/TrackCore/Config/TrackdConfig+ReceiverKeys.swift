// The keys of [receiver] that set the receiver up (docs/receiver-control.md): which receiver,
// its fix interval, sentences and baud, and its sleep while the tracker stands still.

/// The bauds `set-baud` moves a receiver to: what u-blox, MediaTek and Quectel UARTs take.
let receiverControlBauds = [4800, 9600, 19200, 38400, 57600, 115_200, 230_400, 460_800, 921_600]

/// The fix rates `rate` takes, in Hz, and their intervals.
let receiverControlRates: [(word: String, milliseconds: Int?)] = [
    ("keep", nil), ("1", 1000), ("2", 500), ("5", 200), ("10", 100),
]

let receiverControlKeys: [ConfigKey] = [
    ConfigKey("type", .choice(TrackdConfig.Receiver.ControlType.allCases.map { $0.rawValue }), default: "auto",
              example: "ublox",
              """
              The receiver trackd sets up: `auto` identifies it from what it sends and answers \
              (u-blox, MediaTek, Quectel) and sets up only one it identified; a maker skips the \
              search; `none` writes nothing to the receiver, ever.
              """) { config, value in
        config.receiver.type = TrackdConfig.Receiver.ControlType.allCases[Int(value.number)]
    },
    ConfigKey("rate", .choice(receiverControlRates.map { $0.word }), default: "1", example: "5",
              "Fixes per second trackd sets (1, 2, 5 or 10 Hz); `keep` leaves the receiver's.") { config, value in
        config.receiver.fixIntervalMilliseconds = receiverControlRates[Int(value.number)].milliseconds
    },
    ConfigKey("sentences", .sentenceList, default: "rmc gga gsa gst gsv/5", example: "rmc gga gsa gst gbs gsv/5",
              """
              The sentences the receiver is told to send, `/N` every N-th epoch, the others off; \
              GST gives the filter its accuracy. `keep` leaves them as they are.
              """) { config, value in
        config.receiver.sentences = value.number == 0 ? nil : try? SentenceRates(parsing: value.text.utf8)
    },
    ConfigKey("set-baud", .choice(["keep"] + receiverControlBauds.map { "\($0)" }), default: "keep", example: "115200",
              """
              Moves the receiver to this baud once it is set up, and the port with it (`baud` \
              stays the rate the port opens at); `keep` leaves it.
              """) { config, value in
        config.receiver.setBaud = value.number == 0 ? nil : receiverControlBauds[Int(value.number) - 1]
    },
    ConfigKey("power-save", .choice(["off", "sleep"]), default: "off", example: "sleep",
              """
              `sleep`: the receiver sleeps while the tracker stands still, and wakes for the \
              sampling's heartbeat, the button, the in-use input or `trackctl receiver wake`.
              """) { $0.receiver.powerSave = $1.number == 1 },
    ConfigKey("power-save-after", .duration(10_000...86_400_000), default: "5m", example: "10m",
              "How long the tracker stands still before the receiver sleeps.") {
        $0.receiver.powerSaveAfterMilliseconds = $1.number
    },
]
